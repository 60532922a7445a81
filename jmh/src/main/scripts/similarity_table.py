#!/usr/bin/env python3
"""Turns JMH JSON results of MinHashBenchmark and SimHashBenchmark into the Markdown tables of
docs/performance.md.

    python3 similarity_table.py --minhash minhash.json --simhash simhash-fingerprint.json simhash-within.json

Rows are keyed by (method, size parameter, impl), a later file replacing an earlier one's row. "vs best
hash4j" divides a row's score by the best hash4j row of the same method and size. For SimHash's
within, "GB/s" is the table bytes read per second (8 bytes per fingerprint).
"""
import argparse
import jmh_results

MINHASH_UNITS = {"signature": "keys", "jaccard": "comparisons", "mostSimilar": "queries (4,096 rows)"}
SIMHASH_UNITS = {"fingerprint": "features", "within": "queries"}


def rate(value):
    for scale, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if value >= scale:
            return f"{value / scale:,.2f}{suffix}"
    return f"{value:,.1f}"


def table(rows, size_name, units, extra=None):
    header = f"| method | {size_name} | impl | per second (± 99.9% error) | ns each | vs best hash4j |"
    rule = "|---|---:|---|---:|---:|---:|"
    if extra:
        header += f" {extra[0]} |"
        rule += "---:|"
    out = [header, rule]
    for method in units:
        for size in sorted({k[1] for k in rows if k[0] == method}):
            peers = [v[0] for k, v in rows.items() if k[0] == method and k[1] == size and k[2].startswith("hash4j")]
            best = max(peers) if peers else None
            for key in sorted((k for k in rows if k[0] == method and k[1] == size), key=lambda k: k[2]):
                score, error = rows[key]
                versus = f"{score / best:.2f}x" if best else ""
                line = (f"| {method} | {size:,} | {key[2]} | {rate(score)} ± {rate(error)} {units[method]} |"
                        f" {1e9 / score:,.1f} | {versus} |")
                if extra:
                    line += f" {extra[1](key, score)} |"
                out.append(line)
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minhash", nargs="*", default=[])
    parser.add_argument("--simhash", nargs="*", default=[])
    args = parser.parse_args()
    if args.minhash:
        print(table(jmh_results.load(args.minhash, "k"), "k", MINHASH_UNITS))
        print()
    if args.simhash:
        rows = jmh_results.load(args.simhash, "items")
        print(table(rows, "items", SIMHASH_UNITS,
                    ("GB/s", lambda key, score: f"{score * key[1] * 8 / 1e9:.1f}" if key[0] == "within" else "")))


if __name__ == "__main__":
    main()
