#!/usr/bin/env python3
"""Turns JMH JSON results of CountMinBenchmark into the Markdown tables of docs/performance.md, with
the ratios the Count-Min targets are stated in.

    python3 countmin_table.py [--rows-only] results.json [more.json ...]

Every JSON file is one run of the same benchmarks.jar; rows are keyed by (method, size, impl), a later
file replacing an earlier one's row. "vs fastest peer" divides by the best of DataSketches,
stream-lib and Spark on the same method and size. A peer's addBatch is its add loop over the batch, so the batch
add is compared with the faster of the peers' add and addBatch rows. --rows-only omits the target
verdicts.
"""
import argparse
import jmh_results
from jmh_results import best, nanos, rate, times, verdict

OURS = ["mapsketch", "mapsketch-shared", "mapsketch-conservative"]
PEERS = ["datasketches", "streamlib", "spark"]
IMPLS = OURS + PEERS
METHODS = ["add", "addBatch", "estimate"]
TARGET = 2.0


def size_label(size):
    """The size param (bytes of mapsketch's counters) as KiB or MiB."""
    return f"{size / 2**20:.0f} MiB" if size >= 2**20 else f"{size / 2**10:.0f} KiB"


def sizes(rows):
    return sorted({k[1] for k in rows})


def measurement_table(rows):
    out = ["| method | size | impl | keys/s (± 99.9% error) | ns per key | vs fastest peer |",
           "|---|---:|---|---:|---:|---:|"]
    for method in METHODS:
        for size in sizes(rows):
            fastest = best(rows, method, size, PEERS)
            for impl in IMPLS:
                key = (method, size, impl)
                if key not in rows:
                    continue
                score, error = rows[key]
                ratio = times(score / fastest[1]) if fastest else ""
                out.append(f"| {method} | {size_label(size)} | {impl} | {rate(score)} ± {rate(error)} | "
                           f"{nanos(score)} | {ratio} |")
    return out


def fastest_peer(rows, size, methods):
    """The fastest peer over the given methods on size, as (impl, score, method), or None."""
    found = [(b[0], b[1], m) for m in methods for b in [best(rows, m, size, PEERS)] if b]
    return max(found, key=lambda b: b[1], default=None)


def target_rows(rows):
    out = ["| target | ours | against | measured | verdict |", "|---|---|---|---:|---|"]
    targets = [(f"`add` >= {TARGET:g}x the fastest peer", "add", ["add"]),
               (f"`estimate` >= {TARGET:g}x the fastest peer", "estimate", ["estimate"]),
               (f"batch add, measured against `add`'s {TARGET:g}x bar", "addBatch", ["add", "addBatch"])]
    for label, method, base_methods in targets:
        for size in sizes(rows):
            base = fastest_peer(rows, size, base_methods)
            for impl in OURS if base else []:
                mine = rows.get((method, size, impl))
                if mine:
                    value = mine[0] / base[1]
                    out.append(f"| {label} | {impl} `{method}`, {size_label(size)} | {base[0]} `{base[2]}` | "
                               f"{times(value)} | {verdict(value, TARGET)} |")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="JMH JSON of CountMinBenchmark")
    parser.add_argument("--rows-only", action="store_true", help="omit the target verdicts")
    args = parser.parse_args()
    rows = jmh_results.load(args.json, "size")
    out = measurement_table(rows)
    if not args.rows_only:
        out += [""] + target_rows(rows)
    print("\n".join(out))


if __name__ == "__main__":
    main()
