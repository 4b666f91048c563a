#!/bin/bash
# GPU call A (2026-12-01, second session): kprim-cuda-tests with the segmented look-ahead kernel for
# 8-byte commutative scans (the patch's form with its fix): the long segmented cases, the rest of
# the suite in 8 shards side by side, then racecheck and memcheck over the 8-byte sections.
# Run from the repository root with the stripped binary in build/gpu/.
cd build/gpu
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $OUT/gpu.txt; date -u | tee -a $OUT/gpu.txt
t0=$(date +%s)
timeout 120 ./kprim-cuda-tests "CUDA paths: long segmented*" --durations yes > $OUT/seg-tests.txt 2>&1
echo "long segmented: rc=$? $(( $(date +%s) - t0 )) s: $(tail -2 $OUT/seg-tests.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5 6 7; do
  timeout 420 ./kprim-cuda-tests "~CUDA paths: long segmented*" --shard-count 8 --shard-index $i > $OUT/suite-$i.txt 2>&1 &
done
# The sanitizers over the 8-byte commutative cases (the new kernel's): double Sum (10) and uint64 Max (7)
# section by section, int64 Sum (2) whole under memcheck.
t0=$(date +%s)
for c in 10 7; do
  for sec in "tiny and empty (0-32)" "power law" "about a thousand, empty ones among them" "one segment" \
             "starts on and next to tile edges" "partial coverage" "segments of 1" "segments of 2049"; do
    tag="$c-$(echo "$sec" | tr -c 'a-z0-9' '_' | cut -c1-24)"
    KPRIM_TEST_MAX_N=7000000 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard \
      ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/race-$tag.txt 2>&1
    echo "racecheck $tag rc=$? $(grep -E 'RACECHECK SUMMARY|All tests passed|failed' $OUT/race-$tag.txt | tr '\n' ' ')"
  done
done
echo "racecheck: $(( $(date +%s) - t0 )) s"
KPRIM_TEST_MAX_N=7000000 timeout 200 compute-sanitizer --tool memcheck ./kprim-cuda-tests "*Sum and Max - LongCases - 2" > $OUT/mem-2.txt 2>&1
echo "memcheck int64 Sum rc=$? $(grep -E 'ERROR SUMMARY|All tests passed|failed' $OUT/mem-2.txt | tr '\n' ' ')"
KPRIM_TEST_MAX_N=7000000 timeout 100 compute-sanitizer --tool memcheck ./kprim-cuda-tests "*Sum and Max - LongCases - 11" -c "partial coverage" > $OUT/mem-11.txt 2>&1
echo "memcheck double Max partial rc=$? $(grep -E 'ERROR SUMMARY|All tests passed|failed' $OUT/mem-11.txt | tr '\n' ' ')"
wait
for i in 0 1 2 3 4 5 6 7; do echo "shard $i: $(grep -E 'All tests passed|test cases:|assertions:' $OUT/suite-$i.txt | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf tests.tgz *.txt && rm -f *.txt
