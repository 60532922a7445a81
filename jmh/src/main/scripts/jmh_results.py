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
                rows[key] = (m["score"], m["scoreError"])
    return rows
