#!/usr/bin/env bash
# Runs a CUDA build's checks on a GPU machine: the unit tests, compute-sanitizer memcheck and
# racecheck (with inputs capped at KPRIM_TEST_MAX_N, since the tools are 10-100x slower), and
# kprim-table. Usage: scripts/device-check.sh <build dir> <output dir> [sanitizer max n]
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
sanitizer_n=${3:-5000}
mkdir -p "$out"
tests=$build/unit_tests/kprim-unit-tests
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvcc --version | tail -2
} 2>&1 | tee "$out/device.txt"
status=0
"$tests" 2>&1 | tail -n 25 | tee "$out/unit_tests.txt" || status=1
for tool in memcheck racecheck; do
  KPRIM_TEST_MAX_N=$sanitizer_n compute-sanitizer --tool $tool --error-exitcode 99 "$tests" 2>&1 |
    tail -n 8 | tee "$out/$tool.txt" || status=1
done
"$build/perf_tests/kprim-table" 20 24 26 2>&1 | tee "$out/kprim_table.txt" || status=1
exit $status
