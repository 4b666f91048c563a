#!/bin/bash
# GPU call C (2026-12-01, second session): the long segmented cases of this session's final test
# sources on main's library (the lagged kernel for every segmented scan), alone, then racecheck of
# two 8-byte sections. Run from the repository root with the binary in build/gpu/bin.tar.xz.
cd build/gpu && tar xJf bin.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu-c.txt; date -u | tee -a $OUT/gpu-c.txt
t0=$(date +%s)
timeout 400 ./kprim-cuda-tests "CUDA paths: long segmented*" --durations yes > $OUT/seg-tests-main.txt 2>&1
echo "long segmented (main): rc=$? $(( $(date +%s) - t0 )) s: $(tail -3 $OUT/seg-tests-main.txt | tr '\n' ' ')"
for sec in "about a thousand, empty ones among them" "segments of 2049"; do
  KPRIM_TEST_MAX_N=7000000 timeout 100 compute-sanitizer --tool racecheck --racecheck-report hazard \
    ./kprim-cuda-tests "*Sum and Max - LongCases - 10" -c "$sec" > $OUT/race-main.txt 2>&1
  echo "racecheck double Sum, $sec: rc=$? $(grep -E 'RACECHECK SUMMARY|All tests passed|failed' $OUT/race-main.txt | tr '\n' ' ')"
done
date -u
cd $OUT && tar czf tests-c.tgz *.txt && rm -f *.txt
