#!/bin/bash
# NOT RUN this session: no GPU opened for it (call 2, bitwise-call2-2026-12-06.sh, ran instead).
# GPU call 1 of the eleventh session (2026-12-06, H100): issue #25's rows on an H100 (the look-ahead kernel with
# chunked bulk loads has only H200 figures), the application rows, the segmented mixes, and the ninth session's
# CSR probes (csr-call1-2026-12-04.sh, never run), with ncu of the segmented kernel on three layouts and of the
# bitwise and default float scans at 2^28.
# Staging (on the 2-core VM): build/gpu/bin1.tar.xz holds kprim-bench (504107b, KPRIM_ENABLE_CUDA_WARP=ON, sm_90),
# seg-probe-{base,bounds,idle12,nowait,arith} (csr-probe-2026-12-04.cpp, csr-probes-2026-12-04.patch),
# bw-probe-{base,nowaitp,nowait} (bitwise-probe-2026-12-06.cpp, bitwise-probes-2026-12-06.patch) and
# lib/libbenchmark.so.1debian; run with carry ["build/gpu/bin1.tar.xz"] as
# `bash perf_tests/results/h100-call1-2026-12-06.sh`.
cd build/gpu && tar xJf bin1.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu1.txt; date -u | tee -a $OUT/gpu1.txt
T='(float|double|int32|int64)'
# Issue #25: plain scans (default and bitwise) against CUB, Kokkos and the copy; reduce / dot at 2^28 and 10^8+7.
P="^(inclusive_scan|exclusive_scan)/(kprim/automatic|kprim/bitwise|cub/DeviceScan|kokkos/parallel_scan)/$T/(16777216|67108864|268435456)/"
P="$P|^(reduce|dot)/(kprim/automatic|kprim/bitwise|cub/[A-Za-z]*)/$T/(268435456|100000007)/|^copy/copy/deep_copy/$T/(16777216|67108864|100000007|268435456)/"
# The application calls: lambda counts, int32 -> int64 offsets, misaligned / strided input, a user op.
A="^app:(crs_from_lambda|crs_offsets|misaligned_scan|strided_scan|user_op_scan|reduce_f32_f64|reduce_i32_i64)/.*/(16777216|67108864)/|^copy/copy/deep_copy/(float|int32)/(16777216|67108864)/"
# Issue #26: the CSR rows against fixed segments (and the same fixed layouts as CSR offsets).
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1000|1e6|fixed_1000|fixed_1e6|csr_fixed_1000|csr_fixed_1e6|1000_exclusive)/float/$S/|^copy/copy/deep_copy/float/$S/"
probes() {
  for b in base bounds idle12 nowait arith; do
    for l in 24 26; do timeout 40 ./seg-probe-$b $l 3 > $OUT/probe-$b-$l-$1.txt 2>&1; echo "probe $b 2^$l round $1 rc=$?"; grep -E "wrong [1-9]" $OUT/probe-$b-$l-$1.txt; done
  done
}
for round in 1 2; do
  timeout 170 ./kprim-bench --reps=20 --max-log2=28 --benchmark_filter="$P" --summary=$OUT/plain-$round.csv > $OUT/plain-$round.txt 2>&1
  echo "plain round $round rc=$? WRONG: $(grep -c WRONG $OUT/plain-$round.txt) $(date -u +%T)"
  timeout 60 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/seg-$round.csv > $OUT/seg-$round.txt 2>&1
  echo "seg round $round rc=$? WRONG: $(grep -c WRONG $OUT/seg-$round.txt) $(date -u +%T)"
  probes $round
  date -u +%T
  timeout 60 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$A" --summary=$OUT/app-$round.csv > $OUT/app-$round.txt 2>&1
  echo "app round $round rc=$? WRONG: $(grep -c WRONG $OUT/app-$round.txt) $(date -u +%T)"
done
for b in base nowaitp nowait; do
  for l in 26 28; do timeout 60 ./bw-probe-$b $l 3 > $OUT/bw-$b-$l.txt 2>&1; echo "bw probe $b 2^$l rc=$?"; grep -E "wrong [1-9]" $OUT/bw-$b-$l.txt | head -3; done
done
grep -h "median" $OUT/probe-*.txt | sort | head -80
grep -h "median" $OUT/bw-*.txt
# The remaining #26 rows once: every segmented mix, segmented reduce, the team scan.
M="^app:(segmented_scan|segmented_reduce|team_scan)/|^copy/copy/deep_copy/(float|double)/67108864/"
timeout 90 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$M" --summary=$OUT/mixes.csv > $OUT/mixes.txt 2>&1
echo "mixes rc=$? WRONG: $(grep -c WRONG $OUT/mixes.txt) $(date -u +%T)"
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
ncu_row bitwise-float bitwise_kernel 1 "^inclusive_scan/kprim/bitwise/float/268435456/" 28
ncu_row default-float lookahead_scan_kernel 1 "^inclusive_scan/kprim/automatic/float/268435456/" 28
date -u
cd $OUT && tar czf call1.tgz *.txt *.csv && rm -f *.txt *.csv
