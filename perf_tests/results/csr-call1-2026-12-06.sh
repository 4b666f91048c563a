#!/bin/bash
# GPU call 1 of the twelfth session (2026-12-06, H100): issue #26's question, prepared on 2026-12-04 and never run
# (csr-call1-2026-12-04.sh): is the CSR segmented scans' loss to fixed segments the offsets' machinery or the mixes'
# layout? Rows csr_fixed_* (the fixed layouts given as CSR offsets) beside fixed_* and the ~1000 / ~10^6 mixes; the
# five probe builds of csr-probe-2026-12-04.cpp / csr-probes-2026-12-04.patch; ncu of the segmented kernel on three
# layouts. Then issue #25's int32 / int64 scan rows and the application rows, which have no H100 figures yet.
# Last, issue #25's bitwise scan at 2^26 (1.28-1.32x the default on the H100, 1.24-1.25x at 2^28): the eleventh
# session's probes bw-probe-{base,nowaitp,nowait} (bitwise-probe-2026-12-06.cpp, bitwise-probes-2026-12-06.patch: the
# prefix's node waits dropped, then every wait; timing only) and ncu of the bitwise and default float scans at 2^26.
# Staging (on the 2-core VM): build/gpu/bin1.tar.xz holds kprim-bench (c94f677's library, KPRIM_ENABLE_CUDA_WARP=ON,
# sm_90), seg-probe-{base,bounds,idle12,nowait,arith}, bw-probe-{base,nowaitp,nowait} (each with c94f677's include/ + its part
# of the patch) and
# lib/libbenchmark.so.1debian; run with carry ["build/gpu/bin1.tar.xz"] as `bash perf_tests/results/csr-call1-2026-12-06.sh`.
cd build/gpu && tar xJf bin1.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu1.txt; date -u | tee -a $OUT/gpu1.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1000|1e6|fixed_1000|fixed_1e6|csr_fixed_1000|csr_fixed_1e6|1000_exclusive)/float/$S/|^copy/copy/deep_copy/float/$S/"
probes() {
  for b in base bounds idle12 nowait arith; do
    for l in 24 26; do timeout 40 ./seg-probe-$b $l 3 > $OUT/probe-$b-$l-$1.txt 2>&1; echo "probe $b 2^$l round $1 rc=$? $(grep -cE 'wrong [1-9]' $OUT/probe-$b-$l-$1.txt) wrong layouts"; done
  done
}
for round in 1 2; do
  timeout 60 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/seg-$round.csv > $OUT/seg-$round.txt 2>&1
  echo "seg round $round rc=$? WRONG: $(grep -c WRONG $OUT/seg-$round.txt) $(date -u +%T)"
  probes $round
done
grep -h "median" $OUT/probe-*.txt | sort
ncu_row() {  # name, kernel regex, skip, filter, max-log2
  timeout 100 ncu --clock-control none --kernel-name regex:"$2" --launch-skip $3 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
    --export /tmp/u-$1 -f ./kprim-bench --reps=2 --max-log2=$5 --benchmark_filter="$4" > $OUT/ncu-log-$1.txt 2>&1
  timeout 60 ncu --import /tmp/u-$1.ncu-rep --page details --print-details all > $OUT/details-$1.txt 2>&1
  timeout 60 ncu --import /tmp/u-$1.ncu-rep --page source --print-source sass --csv > $OUT/sass-$1.csv 2>&1
  echo "$1: $(grep -E 'Duration|DRAM Throughput|Registers Per|Block Size|Achieved Occupancy' $OUT/details-$1.txt | head -6 | tr -s ' ' | tr '\n' ' ')"
}
for row in fixed_1e6 csr_fixed_1e6 1e6; do
  ncu_row seg-$row segmented_scan_kernel 1 "^app:segmented_scan/kprim/$row/float/67108864/" 26
done
date -u +%T
# Issue #25 on the H100: int32 / int64 scans (float / double ran in call 2 of 2026-12-06), the application rows.
T='(int32|int64)'
P="^(inclusive_scan|exclusive_scan)/(kprim/automatic|kprim/bitwise|cub/DeviceScan)/$T/(16777216|67108864|268435456)/|^copy/copy/deep_copy/$T/(16777216|67108864|268435456)/"
timeout 150 ./kprim-bench --reps=20 --max-log2=28 --benchmark_filter="$P" --summary=$OUT/plain.csv > $OUT/plain.txt 2>&1
echo "plain rc=$? WRONG: $(grep -c WRONG $OUT/plain.txt) $(date -u +%T)"
A="^app:(crs_from_lambda|crs_offsets|misaligned_scan|strided_scan|user_op_scan|reduce_f32_f64|reduce_i32_i64)/.*/(16777216|67108864)/|^copy/copy/deep_copy/(float|int32)/(16777216|67108864)/"
timeout 90 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$A" --summary=$OUT/app.csv > $OUT/app.txt 2>&1
echo "app rc=$? WRONG: $(grep -c WRONG $OUT/app.txt) $(date -u +%T)"
for b in base nowaitp nowait; do
  for l in 26 28; do timeout 60 ./bw-probe-$b $l 3 > $OUT/bw-$b-$l.txt 2>&1; echo "bw probe $b 2^$l rc=$? $(grep -cE 'wrong [1-9]' $OUT/bw-$b-$l.txt) wrong"; done
done
grep -h "median" $OUT/bw-*.txt
ncu_row bitwise-float-26 bitwise_kernel 1 "^inclusive_scan/kprim/bitwise/float/67108864/" 26
ncu_row default-float-26 lookahead_scan_kernel 1 "^inclusive_scan/kprim/automatic/float/67108864/" 26
date -u +%T
