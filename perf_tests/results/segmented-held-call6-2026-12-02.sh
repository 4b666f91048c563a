#!/bin/bash
# GPU call 6 (2026-12-02, third session): `held` = 0720014 + the float fold by comparison with the
# vector's last head, the covered range read once a block, and both look-ahead kernels freeing a
# bulk-stored stage at the next tile (HeldStage: no compute warp waits for the store's read),
# against 0720014 (narrow): the whole kprim-cuda-tests, racecheck, bench (segmented and plain scans), ncu.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu6.txt; date -u | tee -a $OUT/gpu6.txt
for i in 0 1 2 3 4 5 6 7; do
  timeout 200 ./kprim-cuda-tests "CUDA paths: long segmented*" --shard-count 8 --shard-index $i > $OUT/long-$i.txt 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do
  timeout 300 ./kprim-cuda-tests "~CUDA paths: long segmented*" --shard-count 8 --shard-index $i > $OUT/suite-$i.txt 2>&1 &
done
wait
for i in 0 1 2 3 4 5 6 7; do echo "long shard $i: $(tail -2 $OUT/long-$i.txt | tr '\n' ' ')"; done
for i in 0 1 2 3 4 5 6 7; do echo "suite shard $i: $(tail -2 $OUT/suite-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A12 "FAILED" $OUT/long-*.txt $OUT/suite-*.txt | head -40
date -u
S='(16777216|67108864)'
F="^app:segmented_scan/kprim/(1-32|1000|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$S/|^copy/copy/deep_copy/(float|double|int32|int64)/$S/|^(inclusive|exclusive)_scan/(kprim/automatic|cub/DeviceScan)/(float|int32|double|int64)/$S/|^app:user_op_scan/kprim/.*/67108864/"
for round in 1 2 3; do
  for b in narrow held; do
    timeout 70 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
for spec in held:segmented_scan/kprim/1000/float narrow:segmented_scan/kprim/1000/float held:inclusive_scan/kprim/automatic/float narrow:inclusive_scan/kprim/automatic/float; do
  b=${spec%%:*}; row=${spec#*:}; f=$OUT/ncu-$b-${row//\//_}.txt
  pre=''; [[ $row == segmented* ]] && pre='app:'
  timeout 40 ncu --clock-control none --kernel-name regex:'lookahead' --launch-skip 1 --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active \
    ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^$pre$row/67108864/" > $f 2>&1
  echo "ncu $b $row: $(grep -E 'duration|dram__|registers|inst_exec|issue_active' $f | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-80 | tr '\n' ';')"
done
export KPRIM_TEST_MAX_N=13100000
(timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "*Sum and Max - LongCases - 8" -c "about a thousand, empty ones among them" > $OUT/racecheck-seg8.txt 2>&1; echo "racecheck seg 8 rc=$?") &
(timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "*Sum and Max - LongCases - 10" -c "partial coverage" > $OUT/racecheck-seg10.txt 2>&1; echo "racecheck seg 10 rc=$?") &
(timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "*commutative op (the look-ahead kernel) - 0" > $OUT/racecheck-plain0.txt 2>&1; echo "racecheck plain 0 rc=$?") &
(timeout 150 compute-sanitizer --tool memcheck ./kprim-cuda-tests "*commutative op (the look-ahead kernel) - 1" > $OUT/memcheck-plain1.txt 2>&1; echo "memcheck plain 1 rc=$?") &
wait
for f in $OUT/racecheck-*.txt $OUT/memcheck-*.txt; do echo "$(basename $f): $(grep -E 'Filters|SUMMARY|All tests|test cases|FAILED' $f | tr '\n' ' ')"; done
date -u
cd $OUT && tar czf call6.tgz *.txt *.csv && rm -f *.txt *.csv
