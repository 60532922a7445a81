#!/usr/bin/env python3
"""Turns JMH JSON results of BloomBenchmark into the Markdown tables of docs/performance.md, with
the ratios the Bloom filter targets are stated in.

    python3 bloom_table.py [--rows-only] [--fpr-log run.log ...] results.json [more.json ...]

Every JSON file is one run of the same benchmarks.jar; rows are keyed by (method, items, impl), a
later file replacing an earlier one's row. Ratios compare rows of the same method and items
("vs guava", "vs fastfilter"). --fpr-log reads the `bloom-fpr` lines the lookup setup prints
(JMH's console output) and adds the measured false-positive rates. --rows-only omits the target
verdicts.
"""
import argparse
import jmh_results
import re

IMPLS = ["mapsketch-blocked", "mapsketch-blocked-shared", "mapsketch-classic", "mapsketch-classic-shared",
         "guava", "datasketches", "fastfilter-blocked"]
METHODS = ["mightContain", "mightContainAll", "add", "addAll"]
LARGE = 50_000_000
BLOCKED = ["mapsketch-blocked", "mapsketch-blocked-shared"]
CLASSIC = ["mapsketch-classic", "mapsketch-classic-shared"]


def load(paths):
    return jmh_results.load(paths, "items")


def items_label(items):
    return f"{items // 1_000_000}M" if items % 1_000_000 == 0 else f"{items:,}"


def millions(value):
    return f"{value / 1e6:,.1f} M"


def ratio(rows, key, base_impl):
    base = rows.get((key[0], key[1], base_impl))
    return f"{rows[key][0] / base[0]:.2f}x" if base else ""


def measurement_table(rows):
    out = ["| method | items | impl | keys/s (± 99.9% error) | ns per key | vs guava | vs fastfilter |",
           "|---|---:|---|---:|---:|---:|---:|"]
    for method in METHODS:
        for items in sorted({k[1] for k in rows}, reverse=True):
            for impl in IMPLS:
                key = (method, items, impl)
                if key not in rows:
                    continue
                score, error = rows[key]
                out.append(f"| {method} | {items_label(items)} | {impl} | {millions(score)} ± {millions(error)} | "
                           f"{1e9 / score:.1f} | {ratio(rows, key, 'guava')} | "
                           f"{ratio(rows, key, 'fastfilter-blocked')} |")
    return out


def verdict(value, target):
    return "met" if value >= target else f"missed by {100 * (target - value) / target:.0f}%"


def target_rows(rows):
    out = ["| target | path | measured | verdict |", "|---|---|---:|---|"]

    def against(impls, method, items, base_impl, target, label, base_method=None):
        base_method = base_method or method
        for impl in impls:
            mine, base = rows.get((method, items, impl)), rows.get((base_method, items, base_impl))
            if mine and base:
                value = mine[0] / base[0]
                out.append(f"| {label} | {impl} `{method}` / {base_impl} `{base_method}`, {items_label(items)} | "
                           f"{value:.2f}x | {verdict(value, target)} |")

    for method in ["mightContain", "mightContainAll"]:
        against(BLOCKED, method, LARGE, "guava", 5.0, "blocked lookups >= 5x Guava at 50M")
    for method in ["mightContain", "mightContainAll"]:
        against(BLOCKED, method, LARGE, "fastfilter-blocked", 1.3, "blocked lookups >= 1.3x fastfilter at 50M")
    # A peer's two lookup rows run the same loop; the batch path is also compared with the other one.
    against(BLOCKED, "mightContainAll", LARGE, "guava", 5.0, "blocked lookups >= 5x Guava at 50M", "mightContain")
    against(BLOCKED, "mightContainAll", LARGE, "fastfilter-blocked", 1.3, "blocked lookups >= 1.3x fastfilter at 50M",
            "mightContain")
    for impl in BLOCKED + CLASSIC:
        batch, single = rows.get(("mightContainAll", LARGE, impl)), rows.get(("mightContain", LARGE, impl))
        if batch and single:
            value = batch[0] / single[0]
            out.append(f"| batch lookups >= 1.5x single-key at 50M | {impl} `mightContainAll` / `mightContain` | "
                       f"{value:.2f}x | {verdict(value, 1.5)} |")
    for items in sorted({k[1] for k in rows}, reverse=True):
        for method in ["mightContain", "mightContainAll", "add"]:
            against(CLASSIC, method, items, "guava", 2.0, "classic >= 2x Guava")
    return out


def fpr_table(paths):
    pattern = re.compile(r"bloom-fpr impl=(\S+) items=(\d+) fpr=([0-9.]+)")
    rates = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                m = pattern.search(line)
                if m:
                    rates.setdefault((m.group(1), int(m.group(2))), []).append(float(m.group(3)))
    sizes = sorted({k[1] for k in rates}, reverse=True)
    out = ["| impl | " + " | ".join(f"FPR at {items_label(s)} keys" for s in sizes) + " |",
           "|---|" + "---:|" * len(sizes)]
    for impl in IMPLS:
        cells = []
        for s in sizes:
            values = sorted(set(rates.get((impl, s), [])))
            cells.append(" / ".join(f"{100 * v:.3f}%" for v in values))
        if any(cells):
            out.append(f"| {impl} | " + " | ".join(cells) + " |")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="+", help="JMH JSON of BloomBenchmark")
    parser.add_argument("--fpr-log", nargs="*", default=[], help="JMH console output with bloom-fpr lines")
    parser.add_argument("--rows-only", action="store_true", help="omit the target verdicts")
    args = parser.parse_args()
    rows = load(args.json)
    out = measurement_table(rows)
    if not args.rows_only:
        out += [""] + target_rows(rows)
    if args.fpr_log:
        out += [""] + fpr_table(args.fpr_log)
    print("\n".join(out))


if __name__ == "__main__":
    main()
