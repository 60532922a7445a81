#!/usr/bin/env python3
"""Turns JMH JSON results of CuckooBenchmark into the Markdown tables of docs/performance.md.

    python3 cuckoo_table.py [--fpr-log run.log ...] results.json [more.json ...]

Rows are keyed by (method, items, impl), a later file replacing an earlier one's row; "vs fastfilter"
divides by fastfilter's Cuckoo16 at the same method and items. --fpr-log reads the `cuckoo-fpr` lines
the lookup setup prints (JMH's console output) and adds the measured false-positive rates.
"""
import argparse
import re

import bloom_table
import jmh_results

IMPLS = ["mapsketch", "mapsketch-shared", "fastfilter-cuckoo16"]
METHODS = ["mightContain", "add"]


def measurement_table(rows):
    out = ["| method | items | impl | keys/s (± 99.9% error) | ns per key | vs fastfilter |",
           "|---|---:|---|---:|---:|---:|"]
    for method in METHODS:
        for items in sorted({k[1] for k in rows}, reverse=True):
            for impl in IMPLS:
                key = (method, items, impl)
                if key in rows:
                    score, error = rows[key]
                    out.append(f"| {method} | {items:,} | {impl} | {bloom_table.millions(score)} ± "
                               f"{bloom_table.millions(error)} | {1e9 / score:.1f} | "
                               f"{bloom_table.ratio(rows, key, 'fastfilter-cuckoo16')} |")
    return out


def fpr_table(paths):
    pattern = re.compile(r"cuckoo-fpr impl=(\S+) items=(\d+) fpr=([0-9.]+)")
    rates = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = pattern.search(line)
                if m:
                    rates[(m.group(1), int(m.group(2)))] = float(m.group(3))
    sizes = sorted({k[1] for k in rates}, reverse=True)
    out = ["| impl | " + " | ".join(f"FPR at {s:,} keys" for s in sizes) + " |", "|---|" + "---:|" * len(sizes)]
    for impl in IMPLS:
        if any((impl, s) in rates for s in sizes):
            out.append(f"| {impl} | " + " | ".join(
                f"{100 * rates[(impl, s)]:.4f}%" if (impl, s) in rates else "" for s in sizes) + " |")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="JMH JSON of CuckooBenchmark")
    parser.add_argument("--fpr-log", nargs="*", default=[], help="JMH console output with cuckoo-fpr lines")
    args = parser.parse_args()
    out = measurement_table(jmh_results.load(args.json, "items"))
    if args.fpr_log:
        out += [""] + fpr_table(args.fpr_log)
    print("\n".join(out))


if __name__ == "__main__":
    main()
