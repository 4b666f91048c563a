#!/bin/bash
# GPU call 2 of the eleventh session (2026-12-06): the bitwise scan on the look-ahead pipeline
# (include/kprim/impl/cuda/lookahead_bitwise_scan.cuh). Staging (2-core VM): build/gpu/bin2.tar.xz holds
# kprim-bench-base (504107b's library), kprim-bench and kprim-determinism-tests (this tree's), bw-probe-base
# (bitwise-probe-2026-12-06.cpp against this tree's library: its direct launches of the old bitwise kernel are
# checked bit for bit against the public call, now the new kernel), the seg-probe-* of call 1 and
# lib/libbenchmark.so.1debian. Run with carry ["build/gpu/bin2.tar.xz"].
cd build/gpu && tar xJf bin2.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu2.txt; date -u | tee -a $OUT/gpu2.txt
timeout 200 ./kprim-determinism-tests "bitwise scans of long contiguous runs*" > $OUT/tests-long.txt 2>&1; echo "long-run test rc=$? $(tail -2 $OUT/tests-long.txt | tr '\n' ' ') $(date -u +%T)"
grep -B3 -A12 "FAILED" $OUT/tests-long.txt | head -40
for l in 26 28; do timeout 60 ./bw-probe-base $l 2 > $OUT/bw-check-$l.txt 2>&1; echo "bw check 2^$l rc=$?"; grep -E "wrong|median" $OUT/bw-check-$l.txt; done
T='(float|double)'
B="^(inclusive_scan|exclusive_scan)/(kprim/automatic|kprim/bitwise|cub/DeviceScan)/$T/(4194304|16777216|67108864|268435456)/|^copy/copy/deep_copy/$T/(16777216|67108864|268435456)/"
for round in 1 2; do
  for b in kprim-bench-base kprim-bench; do
    timeout 100 ./$b --reps=20 --max-log2=28 --benchmark_filter="$B" --summary=$OUT/bw-$b-$round.csv > $OUT/bw-$b-$round.txt 2>&1
    echo "$b round $round rc=$? WRONG: $(grep -c WRONG $OUT/bw-$b-$round.txt) $(date -u +%T)"
  done
done
timeout 150 ./kprim-determinism-tests > $OUT/tests-all.txt 2>&1; echo "determinism suite rc=$? $(tail -2 $OUT/tests-all.txt | tr '\n' ' ') $(date -u +%T)"
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 ./kprim-bench --reps=1 --max-log2=24 \
  --benchmark_filter='^(inclusive|exclusive)_scan/kprim/bitwise/(float|double)/16777216/' > $OUT/memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|WRONG' $OUT/memcheck.txt | head -3 | tr '\n' ' ') $(date -u +%T)"
timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 99 ./kprim-bench --reps=1 --max-log2=24 \
  --benchmark_filter='^inclusive_scan/kprim/bitwise/float/16777216/' > $OUT/racecheck.txt 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|WRONG' $OUT/racecheck.txt | head -3 | tr '\n' ' ') $(date -u +%T)"
cd $OUT && tar czf call2.tgz *.txt *.csv && rm -f *.txt *.csv
