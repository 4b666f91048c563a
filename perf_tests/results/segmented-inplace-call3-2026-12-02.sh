#!/bin/bash
# GPU call 3 (2026-12-02, session 3): base / narrow alternated three times on the float and double
# segmented rows; then the rest of kprim-cuda-tests beside sanitizers on the float kernel (narrow build).
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u | tee $OUT/gpu3.txt
SIZES='(16777216|33554432|67108864)'
F="^app:segmented_scan/kprim/(1-32|1000|power|fixed_1000|1000_exclusive|1000_double|1000_exclusive_double)/(float|double)/$SIZES/|^copy/copy/deep_copy/(float|double)/$SIZES/"
for round in 1 2 3; do
  for b in base narrow; do
    timeout 60 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
date -u
# The rest of kprim-cuda-tests in 8 shards, beside the sanitizers.
for i in 0 1 2 3 4 5 6 7; do
  timeout 420 ./kprim-cuda-tests "~CUDA paths: long segmented*" --shard-count 8 --shard-index $i > $OUT/suite-$i.txt 2>&1 &
done
(
# Sanitizers on the float kernel (n just past its threshold: 13 M).
export KPRIM_TEST_MAX_N=13100000
T8="CUDA paths: long segmented scans, every type, Sum and Max - LongCases - 8"
for sec in "about a thousand, empty ones among them" "segments of 3"; do
  timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard ./kprim-cuda-tests "$T8" -c "$sec" > "$OUT/racecheck-${sec// /_}.txt" 2>&1
  echo "racecheck $sec rc=$?: $(grep -E 'RACECHECK SUMMARY|test cases|passed' "$OUT/racecheck-${sec// /_}.txt" | tr '\n' ' ')"
done
timeout 120 compute-sanitizer --tool memcheck ./kprim-cuda-tests "$T8" -c "tiny and empty (0-32)" > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$?: $(grep -E 'ERROR SUMMARY|test cases|passed' $OUT/memcheck.txt | tr '\n' ' ')"
date -u
) > $OUT/sanitizers.txt 2>&1
wait
for i in 0 1 2 3 4 5 6 7; do echo "suite shard $i: $(tail -2 $OUT/suite-$i.txt | tr '\n' ' ')"; done
grep -h -B3 -A12 "FAILED" $OUT/suite-*.txt | head -60
cat $OUT/sanitizers.txt
date -u
cd $OUT && tar czf call3.tgz *.txt *.csv && rm -f *.txt *.csv
