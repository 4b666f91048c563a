#!/bin/bash
# GPU call 12 (2026-12-03, eighth session): sanitizers on the plain look-ahead kernel with chunked loads (call 11's binary).
cd build/gpu && tar xJf bin11.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu12.txt; date -u | tee -a $OUT/gpu12.txt
export KPRIM_TEST_MAX_N=13100000
PL="CUDA paths: long scans of 4- and 8-byte types with a commutative op (the look-ahead kernel) - CudaValueOp - "
run() { tag=$1; tool=$2; shift 2; (timeout 170 compute-sanitizer --tool $tool "$@" > $OUT/san-$tag.txt 2>&1) & }
run float-memcheck memcheck ./kprim-cuda-tests "${PL}16"
run float-racecheck racecheck --racecheck-report hazard ./kprim-cuda-tests "${PL}16"
run float-synccheck synccheck ./kprim-cuda-tests "${PL}16"
run double-memcheck memcheck ./kprim-cuda-tests "${PL}20"
run int32-synccheck synccheck ./kprim-cuda-tests "${PL}0"
wait
for f in $OUT/san-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test|Filters' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call12.tgz *.txt && rm -f *.txt
