#!/usr/bin/env python3
"""Turns a kprim-bench summary CSV into the markdown table of its app:* rows (the calls
applications make): kprim, CUB and Kokkos median times and the peers' time over kprim's.
kprim rows with another algorithm than `automatic` (e.g. `kokkos_lambda`, the Kokkos lambda
through kprim::parallel_scan) get their own line.

Usage: perf_tests/app_table.py SUMMARY.csv [--sizes=20,24,26,28]
"""
import collections
import csv
import sys


def main():
    path = sys.argv[1]
    sizes = [20, 24, 26, 28]
    for arg in sys.argv[2:]:
        if arg.startswith("--sizes="):
            sizes = [int(s) for s in arg[len("--sizes="):].split(",")]
    rows = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if not r["primitive"].startswith("app:"):
            continue
        n = int(r["n"])
        if n.bit_length() - 1 not in sizes or n & (n - 1):
            continue
        rows[(r["primitive"], n)][(r["impl"], r["algorithm"])] = float(r["time_us"])
    print("| call | n | kprim µs | CUB µs | Kokkos µs | CUB time / kprim time | Kokkos time / kprim time |")
    print("|---|---|---|---|---|---|---|")
    for (primitive, n), times in sorted(rows.items()):
        cub = times.get(("cub", "automatic"))
        kokkos = times.get(("kokkos", "automatic"))
        for (impl, algorithm), t in sorted(times.items()):
            if impl != "kprim":
                continue
            name = primitive if algorithm == "automatic" else f"{primitive} ({algorithm})"
            fmt = lambda v: f"{v:.1f}" if v else "—"
            ratio = lambda v: f"{v / t:.2f}" if v else "—"
            print(f"| `{name}` | 2^{n.bit_length() - 1} | {t:.1f} | {fmt(cub)} | {fmt(kokkos)} | {ratio(cub)} | {ratio(kokkos)} |")


if __name__ == "__main__":
    main()
