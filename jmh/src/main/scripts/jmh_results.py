"""What the table scripts of this folder share: reading JMH's JSON results and stating a verdict."""
import json


def load(paths, size_param):
    """Rows keyed by (method, size, impl) -> (score, error) in ops/s; a later file replaces a row."""
    rows = {}
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                method = r["benchmark"].rsplit(".", 1)[1]
                key = (method, int(r["params"][size_param]), r["params"]["impl"])
                m = r["primaryMetric"]
                if m["scoreUnit"] != "ops/s":
                    raise SystemExit(f"{path}: unit {m['scoreUnit']}, expected ops/s")
                rows[key] = (m["score"], float(m["scoreError"]))  # "NaN" for a single iteration
    return rows


def rate(value):
    """Operations per second with an M or k suffix."""
    if value >= 1e6:
        return f"{value / 1e6:,.2f} M"
    if value >= 1e3:
        return f"{value / 1e3:,.1f} k"
    return f"{value:,.0f}"


def nanos(score):
    """Nanoseconds per operation of a score in ops/s."""
    ns = 1e9 / score
    return f"{ns:,.2f}" if ns < 100 else f"{ns:,.0f}"


def best(rows, method, size, impls):
    """The fastest of impls on (method, size), as (impl, score), or None."""
    found = [(impl, rows[(method, size, impl)][0]) for impl in impls if (method, size, impl) in rows]
    return max(found, key=lambda x: x[1]) if found else None


def times(value):
    """A ratio: two decimals, or two significant digits below 0.1 so that tiny ratios stay readable."""
    return f"{value:.2f}x" if value >= 0.1 else f"{value:.2g}x"


def verdict(value, target):
    """'met', or how far a ratio is from its target."""
    return "met" if value >= target else f"missed ({value / target:.2g} of the target)"
