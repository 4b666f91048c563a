#!/bin/bash
# GPU call G (2026-12-02, second session of 2026-12-01): kprim-cuda-tests with the segmented
# look-ahead kernel's runs form for 8-byte commutative scans: the six 8-byte commutative long
# cases (the kernel's), then racecheck and memcheck of three sections. Files stay plain in $OUT
# (a run cut short still returns them).
cd build/gpu && tar xJf bin.tar.xz
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu-g.txt; date -u >> $OUT/gpu-g.txt
t0=$(date +%s)
timeout 150 ./kprim-cuda-tests "*Sum and Max - LongCases - 2,*Sum and Max - LongCases - 3,*Sum and Max - LongCases - 6,*Sum and Max - LongCases - 7,*Sum and Max - LongCases - 10,*Sum and Max - LongCases - 11" --durations yes > $OUT/seg-tests-runs.txt 2>&1
echo "8-byte long cases: rc=$? $(( $(date +%s) - t0 )) s: $(tail -2 $OUT/seg-tests-runs.txt | tr '\n' ' ')" | tee -a $OUT/gpu-g.txt
for spec in "10|about a thousand, empty ones among them" "7|segments of 2049"; do
  c=${spec%%|*}; sec=${spec#*|}
  KPRIM_TEST_MAX_N=7000000 timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard \
    ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/race-$c.txt 2>&1
  echo "racecheck $c, $sec: rc=$? $(grep -E 'RACECHECK SUMMARY|All tests passed|failed' $OUT/race-$c.txt | tr '\n' ' ')" | tee -a $OUT/gpu-g.txt
done
KPRIM_TEST_MAX_N=7000000 timeout 60 compute-sanitizer --tool memcheck ./kprim-cuda-tests "*Sum and Max - LongCases - 2" -c "partial coverage" > $OUT/mem-2.txt 2>&1
echo "memcheck int64 Sum, partial coverage: rc=$? $(grep -E 'ERROR SUMMARY|All tests passed|failed' $OUT/mem-2.txt | tr '\n' ' ')" | tee -a $OUT/gpu-g.txt
date -u >> $OUT/gpu-g.txt
