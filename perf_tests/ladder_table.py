#!/usr/bin/env python3
"""Ladder tables from a kprim-bench summary CSV, in the form of Harris' reduction table.

For every primitive / type / n in the CSV: one row per rung of the seeds' ladder, in rung order,
with its median time (us), GB/s of ideal traffic, step speedup (time of the rung before / time)
and cumulative speedup (time of rung 1 / time); then kprim's other algorithms and the peers of
the same run (Kokkos, CUB, std::, the copy kernel), with their speedup over rung 1.

Usage: perf_tests/ladder_table.py SUMMARY.csv [--primitive reduce] [--type float] [--n 16777216]
Made for `kprim-bench --ladder --summary=SUMMARY.csv`; any summary CSV works (missing rungs are
left out). Python 3 standard library only.
"""

import argparse
import csv
import sys
from collections import defaultdict

# The ladders, in rung order (kprim::reduce_ladder / kprim::scan_ladder in include/kprim/options.hpp).
REDUCE_LADDER = ["neighbored", "neighbored_less", "interleaved", "unroll2", "unroll8", "unroll_warps8",
                 "complete_unroll_warps8", "grid_stride"]
SCAN_LADDER = ["hillis_steele", "blelloch", "brent_kung"]
LADDERS = {"reduce": REDUCE_LADDER, "dot": REDUCE_LADDER, "inclusive_scan": SCAN_LADDER,
           "exclusive_scan": SCAN_LADDER}
PRIMITIVE_ORDER = ["reduce", "dot", "inclusive_scan", "exclusive_scan"]
TYPE_ORDER = ["int32", "int64", "float", "double"]


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    required = {"primitive", "impl", "algorithm", "type", "n", "time_us", "gbps"}
    if rows and not required <= set(rows[0]):
        sys.exit(f"{path}: not a kprim-bench summary CSV (needs columns {sorted(required)})")
    return rows


def fmt_speedup(value):
    return "-" if value is None else f"{value:.2f}x"


def table(primitive, type_name, n, rows, copy_row):
    ladder = LADDERS[primitive]
    by_algorithm = {r["algorithm"]: r for r in rows if r["impl"] == "kprim"}
    rungs = [(i + 1, name, by_algorithm[name]) for i, name in enumerate(ladder) if name in by_algorithm]
    if not rungs:
        return []
    first_time = float(rungs[0][2]["time_us"])
    lines = [f"### {primitive}, {type_name}, n = {n}" + (f" (2^{n.bit_length() - 1})" if n & (n - 1) == 0 else ""),
             "",
             "| rung | algorithm | time (us) | GB/s | step speedup | cumulative speedup |",
             "|---:|---|---:|---:|---:|---:|"]
    previous = None
    for number, name, r in rungs:
        time = float(r["time_us"])
        step = None if previous is None else previous / time
        lines.append(f"| {number} | {name} | {time:.1f} | {float(r['gbps']):.1f} | {fmt_speedup(step)} | "
                     f"{fmt_speedup(first_time / time)} |")
        previous = time
    others = [r for name, r in by_algorithm.items() if name not in ladder]
    others.sort(key=lambda r: float(r["time_us"]))
    peers = [r for r in rows if r["impl"] != "kprim"]
    peers.sort(key=lambda r: float(r["time_us"]))
    for r in others + peers + ([copy_row] if copy_row else []):
        label = f"kprim {r['algorithm']}" if r["impl"] == "kprim" else f"{r['impl']} {r['algorithm']}"
        time = float(r["time_us"])
        lines.append(f"| | {label} | {time:.1f} | {float(r['gbps']):.1f} | | {fmt_speedup(first_time / time)} |")
    lines.append("")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("summary", help="kprim-bench summary CSV")
    parser.add_argument("--primitive", action="append", choices=sorted(LADDERS), help="only these (repeatable)")
    parser.add_argument("--type", action="append", help="only these value types (repeatable)")
    parser.add_argument("--n", action="append", type=int, help="only these sizes (repeatable)")
    args = parser.parse_args()

    rows = read(args.summary)
    groups = defaultdict(list)
    copies = {}
    for r in rows:
        key = (r["primitive"], r["type"], int(r["n"]))
        if r["primitive"] == "copy":
            copies[(r["type"], int(r["n"]))] = r
        elif r["primitive"] in LADDERS:
            groups[key].append(r)

    def order(key):
        primitive, type_name, n = key
        return (PRIMITIVE_ORDER.index(primitive),
                TYPE_ORDER.index(type_name) if type_name in TYPE_ORDER else len(TYPE_ORDER), type_name, n)

    if rows:
        first = rows[0]
        print(f"Ladder tables: {first.get('device', '?')}, {first.get('date', '?')}, commit {first.get('commit', '?')}")
        print("GB/s of ideal traffic (reduce n reads, dot 2n, scans 2n); step speedup = time of the rung before /"
              " time; cumulative = time of rung 1 / time.\n")
    printed = 0
    for key in sorted(groups, key=order):
        primitive, type_name, n = key
        if args.primitive and primitive not in args.primitive:
            continue
        if args.type and type_name not in args.type:
            continue
        if args.n and n not in args.n:
            continue
        lines = table(primitive, type_name, n, groups[key], copies.get((type_name, n)))
        if lines:
            print("\n".join(lines))
            printed += 1
    if printed == 0:
        sys.exit(f"{args.summary}: no ladder rungs found (run kprim-bench --ladder)")


if __name__ == "__main__":
    main()
