#!/bin/bash
# GPU call C (2026-12-02, fourth session): synccheck of main's (6a76212 code) segmented look-ahead
# kernel, the section that reported reduce-warp "Missing wait" with the heads patch (call A).
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH KPRIM_TEST_MAX_N=13100000
date -u | tee $OUT/gpuC.txt
(timeout 200 compute-sanitizer --tool synccheck ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "partial coverage" > $OUT/synccheck-main-8-partial.txt 2>&1) &
(timeout 200 compute-sanitizer --tool synccheck ./kprim-cuda-tests "*with a commutative op (the look-ahead kernel) - 0" > $OUT/synccheck-main-plain0.txt 2>&1) &
wait
for f in $OUT/synccheck-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases' $f | tr '\n' ' ') $(grep -c 'Missing wait' $f) missing-wait; PCs: $(grep -o '+0x[0-9a-f]*$' $f | sort | uniq -c | tr '\n' ' ') threads: $(grep -o 'by thread ([0-9]*' $f | sort | uniq | head -3 | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf callC.tgz *.txt && rm -f *.txt
