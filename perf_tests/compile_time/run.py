#!/usr/bin/env python3
"""Compile-time benchmark (issue #24): user CPU seconds to compile each kprim call site of this
folder beside the Kokkos code an application writes for the same work, with the compiler and
flags of an installed kprim's consumers (find_package(kprim) over the Kokkos it was built with).

Usage:
  perf_tests/compile_time/run.py --prefix=<kprim install prefix;Kokkos prefix> [--compiler=g++]
      [--cxx=<C++ compiler, e.g. Kokkos' nvcc_wrapper>] [--reps=3] [--out=compile-time-<name>-<date>.csv]

Configures this folder in a temporary build directory (CMAKE_EXPORT_COMPILE_COMMANDS), then runs
each translation unit's compile command `reps` times, one at a time, and keeps the least user CPU
time of the compiler and its children. Writes `compiler,tu,kokkos_s,kprim_s` and prints the table,
with the cost of each further (type, op) call site: (4 sums - 1 sum) / 3.
"""
import argparse
import datetime
import json
import os
import pathlib
import resource
import shlex
import subprocess
import sys
import tempfile

TUS = ["sum_float", "sums_4_types", "inclusive_scan", "user_op_reduce"]


def user_seconds(command, directory):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    subprocess.run(command, cwd=directory, check=True, stdout=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prefix", required=True, help="CMAKE_PREFIX_PATH: the kprim install and its Kokkos")
    parser.add_argument("--compiler", default="g++", help="the compiler's name in the CSV")
    parser.add_argument("--cxx", default=None, help="CMAKE_CXX_COMPILER (default: CMake's choice)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    source = pathlib.Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory(prefix="kprim-compile-time-") as build:
        configure = ["cmake", "-S", str(source), "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", f"-DCMAKE_PREFIX_PATH={args.prefix}"]
        if args.cxx:
            configure.append(f"-DCMAKE_CXX_COMPILER={args.cxx}")
        subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
        commands = {}
        for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
            name = pathlib.Path(entry["file"]).stem
            command = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
            commands[name] = (command, entry["directory"])
        rows = []
        for tu in TUS:
            seconds = {}
            for side in ("kokkos", "kprim"):
                command, directory = commands[f"{side}_{tu}"]
                seconds[side] = min(user_seconds(command, directory) for _ in range(args.reps))
                print(f"{side}_{tu}: {seconds[side]:.1f} s", file=sys.stderr)
            rows.append((tu, seconds["kokkos"], seconds["kprim"]))

    out = args.out or f"compile-time-{args.compiler}-{datetime.date.today().isoformat()}.csv"
    with open(out, "w") as f:
        f.write("compiler,tu,kokkos_s,kprim_s\n")
        for tu, kokkos, kprim in rows:
            f.write(f"{args.compiler},{tu},{kokkos:.2f},{kprim:.2f}\n")
    print(f"| TU ({args.compiler}, user CPU s) | Kokkos | kprim | kprim / Kokkos |")
    print("|---|---|---|---|")
    for tu, kokkos, kprim in rows:
        print(f"| {tu} | {kokkos:.1f} | {kprim:.1f} | {kprim / kokkos:.2f} |")
    by = {tu: (kokkos, kprim) for tu, kokkos, kprim in rows}
    extra_kokkos = (by["sums_4_types"][0] - by["sum_float"][0]) / 3
    extra_kprim = (by["sums_4_types"][1] - by["sum_float"][1]) / 3
    print(f"| each further (type, op) reduce | {extra_kokkos:.1f} | {extra_kprim:.1f} | "
          f"{extra_kprim / extra_kokkos if extra_kokkos > 0 else float('nan'):.2f} |")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
