#!/usr/bin/env python3
"""Turns JMH JSON results of HyperLogLogBenchmark into the Markdown tables of docs/performance.md,
with the ratios the HyperLogLog targets are stated in.

    python3 hll_table.py [--rows-only] results.json [more.json ...]

Every JSON file is one run of the same benchmarks.jar; rows are keyed by (method, precision, impl), a
later file replacing an earlier one's row. Ratios compare rows of the same method and precision:
"vs fastest peer" divides by the best of the four peers (DataSketches HLL_8 and HLL_4, hash4j
HyperLogLog and UltraLogLog), "vs hash4j" by the faster of hash4j's two sketches, "vs hll8" by
DataSketches' HLL_8. --rows-only omits the target verdicts.
"""
import argparse
import jmh_results
from jmh_results import best, nanos, rate, times, verdict

OURS = ["mapsketch", "mapsketch-shared"]
PEERS = ["datasketches-hll8", "datasketches-hll4", "hash4j-hll", "hash4j-ull"]
HASH4J = ["hash4j-hll", "hash4j-ull"]
IMPLS = OURS + PEERS
METHODS = ["add", "addAll", "estimate", "merge"]
UNITS = {"add": "keys/s", "addAll": "keys/s", "estimate": "estimates/s", "merge": "merges/s"}


def load(paths):
    return jmh_results.load(paths, "precision")


def ratio(rows, key, base):
    return times(rows[key][0] / base[1]) if base else ""


def measurement_table(rows):
    out = ["| method | p | impl | ops/s (± 99.9% error) | ns/op | vs fastest peer | vs hash4j | vs hll8 |",
           "|---|---:|---|---:|---:|---:|---:|---:|"]
    for method in METHODS:
        for precision in sorted({k[1] for k in rows}):
            fastest = best(rows, method, precision, PEERS)
            hash4j = best(rows, method, precision, HASH4J)
            hll8 = best(rows, method, precision, ["datasketches-hll8"])
            for impl in IMPLS:
                key = (method, precision, impl)
                if key not in rows:
                    continue
                score, error = rows[key]
                out.append(f"| {method} | {precision} | {impl} | {rate(score)} ± {rate(error)} | {nanos(score)} | "
                           f"{ratio(rows, key, fastest)} | {ratio(rows, key, hash4j)} | {ratio(rows, key, hll8)} |")
    return out


def target_rows(rows):
    out = ["| target | ours | against | measured | verdict |", "|---|---|---|---:|---|"]

    def against(label, method, precision, base_impls, target, base_method=None):
        base_method = base_method or method
        base = best(rows, base_method, precision, base_impls)
        if not base:
            return
        for impl in OURS:
            mine = rows.get((method, precision, impl))
            if mine:
                value = mine[0] / base[1]
                out.append(f"| {label} | {impl} `{method}`, p = {precision} | {base[0]} `{base_method}` | "
                           f"{times(value)} | {verdict(value, target)} |")

    for precision in sorted({k[1] for k in rows}):
        against("`add` >= 1.5x the fastest peer", "add", precision, PEERS, 1.5)
    for precision in sorted({k[1] for k in rows}):
        # A peer's addAll is its add loop over the batch; ours is compared with the faster of the two.
        base_method = max(["add", "addAll"], key=lambda m: (best(rows, m, precision, PEERS) or ("", 0))[1])
        against("batch add, measured against `add`'s 1.5x bar", "addAll", precision, PEERS, 1.5, base_method)
    against("`merge` at p = 14 >= 50x the fastest peer", "merge", 14, PEERS, 50.0)
    against("`estimate` at p = 14 >= 10x hash4j", "estimate", 14, HASH4J, 10.0)
    against("`estimate` at p = 14 not slower than HLL_8", "estimate", 14, ["datasketches-hll8"], 1.0)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="JMH JSON of HyperLogLogBenchmark")
    parser.add_argument("--rows-only", action="store_true", help="omit the target verdicts")
    args = parser.parse_args()
    rows = load(args.json)
    out = measurement_table(rows)
    if not args.rows_only:
        out += [""] + target_rows(rows)
    print("\n".join(out))


if __name__ == "__main__":
    main()
