#!/usr/bin/env python3
"""Turns JMH JSON results of KernelBenchmark and HashBenchmark into the Markdown tables of
docs/performance.md, with the ratios the kernel targets are stated in.

    python3 kernel_table.py [--rows-only] [--kernels kernels.json] [--hash hash.json]

--rows-only prints the measurements without the target verdicts (for diagnostic runs).

Bytes per operation: `size` for the per-input rate (GB/s); for the bandwidth comparisons, the bytes
a kernel moves: three per byte of `size` for a merge (read dst, read src, write dst), two for
copyReference (read, write), one for popcount and readSumReference (read). GB = 10^9 bytes.
"""
import argparse
import json

MIB = 1024 * 1024
MOVED = {"or": 3, "sumInt": 3, "maxBytes": 3, "copyReference": 2, "popcount": 1,
         "readSumReference": 1, "registerHistogram": 1}
IN_CACHE_TARGETS = ["or", "popcount", "maxBytes", "sumInt"]
MERGES = ["or", "sumInt", "maxBytes"]


def load(path):
    with open(path) as f:
        return json.load(f)


def size_label(size):
    return f"{size // MIB} MiB" if size % MIB == 0 else f"{size:,} B"


def kernel_rows(results):
    rows = {}
    for r in results:
        method = r["benchmark"].rsplit(".", 1)[1]
        impl = r["params"]["impl"]
        size = int(r["params"]["size"])
        m = r["primaryMetric"]
        rows[(method, impl, size)] = (m["score"], m["scoreError"])
    return rows


def verdict(value, target):
    return "met" if value >= target else f"missed by {100 * (target - value) / target:.0f}%"


def simd_verdict(impl, ratio):
    """The bandwidth targets are the SIMD kernels'; scalar rows are shown for comparison."""
    return verdict(ratio, 0.9) if impl == "vector" else "for comparison (the target is the SIMD kernel's)"


def kernel_tables(rows, rows_only):
    sizes = sorted({k[2] for k in rows})
    methods = ["or", "sumInt", "maxBytes", "popcount", "registerHistogram", "copyReference", "readSumReference"]
    out = ["| benchmark | impl | size | ops/s (± 99.9% error) | GB/s per input | GB/s moved | vector / scalar |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for method in methods:
        for size in sizes:
            for impl in ["scalar", "vector"]:
                if (method, impl, size) not in rows:
                    continue
                score, error = rows[(method, impl, size)]
                ratio = ""
                if impl == "vector" and (method, "scalar", size) in rows and not method.endswith("Reference"):
                    ratio = f"{score / rows[(method, 'scalar', size)][0]:.2f}x"
                out.append(f"| {method} | {impl} | {size_label(size)} | {score:,.1f} ± {error:,.1f} | "
                           f"{score * size / 1e9:.1f} | {score * size * MOVED[method] / 1e9:.1f} | {ratio} |")
    if rows_only:
        return out
    out.append("")
    out.append("| target | measured | target | verdict |")
    out.append("|---|---:|---:|---|")
    small = MIB
    for method in IN_CACHE_TARGETS:
        key_v, key_s = (method, "vector", small), (method, "scalar", small)
        if key_v in rows and key_s in rows:
            ratio = rows[key_v][0] / rows[key_s][0]
            out.append(f"| {method}, 1 MiB: vector / scalar | {ratio:.2f}x | >= 2x | {verdict(ratio, 2.0)} |")
    large = 256 * MIB
    # The references' two runs (impl = scalar and vector) run the same code; the faster one is used.
    copies = [rows[k][0] for k in rows if k[0] == "copyReference" and k[2] == large]
    reads = [rows[k][0] for k in rows if k[0] == "readSumReference" and k[2] == large]
    if copies:
        copy_rate = max(copies) * large * MOVED["copyReference"] / 1e9
        for method in MERGES:
            for impl in ["vector", "scalar"]:
                if (method, impl, large) in rows:
                    rate = rows[(method, impl, large)][0] * large * MOVED[method] / 1e9
                    ratio = rate / copy_rate
                    out.append(f"| {method} ({impl}), 256 MiB: bytes moved / copyReference's | {ratio:.2f} "
                               f"({rate:.1f} / {copy_rate:.1f} GB/s) | >= 0.90 | {simd_verdict(impl, ratio)} |")
    if reads:
        read_rate = max(reads) * large / 1e9
        for impl in ["vector", "scalar"]:
            if ("popcount", impl, large) in rows:
                rate = rows[("popcount", impl, large)][0] * large / 1e9
                ratio = rate / read_rate
                out.append(f"| popcount ({impl}), 256 MiB: bytes read / readSumReference's | {ratio:.2f} "
                           f"({rate:.1f} / {read_rate:.1f} GB/s) | >= 0.90 | {simd_verdict(impl, ratio)} |")
    return out


def hash_table(results, rows_only):
    scores = {r["params"]["impl"]: (r["primaryMetric"]["score"], r["primaryMetric"]["scoreError"]) for r in results}
    out = ["| impl | keys/s (± 99.9% error) | ns per key | vs hash4j |", "|---|---:|---:|---:|"]
    base = scores.get("hash4j", (None,))[0]
    for impl in ["mapsketch-scalar", "mapsketch-vector", "hash4j"]:
        if impl in scores:
            score, error = scores[impl]
            ratio = f"{score / base:.2f}x" if base else ""
            out.append(f"| {impl} | {score / 1e6:,.0f} M ± {error / 1e6:,.0f} M | {1e9 / score:.2f} | {ratio} |")
    if base and "mapsketch-vector" in scores and not rows_only:
        ratio = scores["mapsketch-vector"][0] / base
        out.append("")
        out.append(f"Target: batch XXH3 (vector) >= 2x hash4j per key: {ratio:.2f}x, {verdict(ratio, 2.0)}.")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", help="JMH JSON of KernelBenchmark")
    parser.add_argument("--hash", help="JMH JSON of HashBenchmark")
    parser.add_argument("--rows-only", action="store_true", help="omit the target verdicts")
    args = parser.parse_args()
    if args.kernels:
        print("\n".join(kernel_tables(kernel_rows(load(args.kernels)), args.rows_only)))
    if args.hash:
        if args.kernels:
            print()
        print("\n".join(hash_table(load(args.hash), args.rows_only)))


if __name__ == "__main__":
    main()
