#!/bin/bash
# GPU call 11 (2026-12-03, eighth session): the chunked loads' kprim-cuda-tests (whole program in 8 shards) and sanitizers
# on the plain and segmented look-ahead kernels.
cd build/gpu && tar xJf bin11.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu11.txt; date -u | tee -a $OUT/gpu11.txt
for i in 0 1 2 3 4 5 6 7; do
  timeout 330 ./kprim-cuda-tests --shard-count 8 --shard-index $i > $OUT/shard-$i.txt 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do echo "shard $i: $(tail -2 $OUT/shard-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A14 "FAILED" $OUT/shard-*.txt | head -60
date -u
export KPRIM_TEST_MAX_N=13100000
PL="CUDA paths: long scans of 4- and 8-byte types with a commutative op (the look-ahead kernel) - "
run() { tag=$1; tool=$2; shift 2; (timeout 240 compute-sanitizer --tool $tool "$@" > $OUT/san-$tag.txt 2>&1) & }
run plain0-memcheck memcheck ./kprim-cuda-tests "${PL}0"
run plain0-racecheck racecheck --racecheck-report hazard ./kprim-cuda-tests "${PL}0"
run plain0-synccheck synccheck ./kprim-cuda-tests "${PL}0"
run plain-last-memcheck memcheck ./kprim-cuda-tests "${PL}7"
run noncomm-synccheck synccheck ./kprim-cuda-tests "CUDA paths: long scans of non-commutative user ops (the look-ahead kernel)"
run seg8-memcheck memcheck ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "about a thousand, empty ones among them"
run seg8-racecheck racecheck --racecheck-report hazard ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "power law"
run seg10-synccheck synccheck ./kprim-cuda-tests "*Sum and Max - LongCases - 10" -c "partial coverage"
wait
for f in $OUT/san-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call11.tgz *.txt && rm -f *.txt
