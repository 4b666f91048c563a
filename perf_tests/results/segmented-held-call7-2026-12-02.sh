#!/bin/bash
# GPU call 7 (2026-12-02, third session): racecheck and memcheck of the plain look-ahead kernel
# with HeldStage (call 6's held build), every type of its long-scan case, in shards.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u | tee $OUT/gpu7.txt
export KPRIM_TEST_MAX_N=13100000
C="*with a commutative op (the look-ahead kernel)*"
for i in 0 1 2 3 4 5; do
  timeout 240 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "$C" --shard-count 6 --shard-index $i > $OUT/racecheck-plain-$i.txt 2>&1 &
done
timeout 240 compute-sanitizer --tool memcheck ./kprim-cuda-tests "$C" --shard-count 6 --shard-index 2 > $OUT/memcheck-plain-2.txt 2>&1 &
wait
for f in $OUT/racecheck-plain-*.txt $OUT/memcheck-plain-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|FAILED|No test' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call7.tgz *.txt && rm -f *.txt
