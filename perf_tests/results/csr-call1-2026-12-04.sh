#!/bin/bash
# GPU call 1 (prepared 2026-12-04, ninth session; not run: no device was lent that session): is the CSR segmented scans' loss to fixed segments the offsets' machinery or
# the mixes' layout? New bench rows csr_fixed_1000 / csr_fixed_1e6: the fixed layouts given as CSR offsets, against
# fixed_1000 / fixed_1e6 and the ~1000 / ~10^6 mixes, in one binary (b696b96's library); then ncu, SASS source counters.
# Staging (on the 2-core VM): build/gpu/bin1.tar.xz holds kprim-bench (this commit's, KPRIM_ENABLE_CUDA_WARP=ON, sm_90),
# seg-probe-{base,bounds,idle12,nowait,arith} (csr-probe-2026-12-04.cpp) and lib/libbenchmark.so.1debian; run with
# carry ["build/gpu/bin1.tar.xz"] as `bash perf_tests/results/csr-call1-2026-12-04.sh`.
cd build/gpu && tar xJf bin1.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/gpu1.txt; date -u | tee -a $OUT/gpu1.txt
S='(16777216|67108864)'
F="^app:segmented_scan/(kprim|cub)/(1000|1e6|fixed_1000|fixed_1e6|csr_fixed_1000|csr_fixed_1e6|1000_exclusive)/float/$S/|^copy/copy/deep_copy/float/$S/"
for round in 1 2 3; do
  timeout 90 ./kprim-bench --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/rows-$round.csv > $OUT/rows-$round.txt 2>&1
  echo "round $round rc=$? WRONG: $(grep -c WRONG $OUT/rows-$round.txt)"
done
date -u
# The probe driver (csr-probe-2026-12-04.cpp): copy, fixed, the same layout as CSR offsets, the mix; base = b696b96's
# headers, bounds = OffsetSegments' covered range as FixedSegments' (0, INT64_MAX: valid where offsets cover [0, n)),
# idle12 = fixed segments' kernel with an idle 12th warp (as the CSR kernel's heads warp), nowait = CSR compute warps
# not waiting for the heads warp (timing only: stale bits possible), arith = CSR calls without the heads warp, their
# heads by fixed segments' arithmetic on the layout's size (csr_fixed_* only; the mixes come out wrong), the covered
# range still read from the offsets. Each probe changes only include/ (csr-probes-2026-12-04.patch); the driver links
# b696b96's libkprim.a.
for round in 1 2; do
  for b in base bounds idle12 nowait arith; do
    for l in 24 26; do timeout 60 ./seg-probe-$b $l 3 > $OUT/probe-$b-$l-$round.txt 2>&1; echo "probe $b 2^$l round $round rc=$?"; grep -E "wrong [1-9]" $OUT/probe-$b-$l-$round.txt; done
  done
done
grep -h "median" $OUT/probe-*.txt | sort | head -80
date -u
for row in fixed_1e6 csr_fixed_1e6 1e6; do
  timeout 100 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --section SpeedOfLight --section LaunchStats --section Occupancy \
    --export /tmp/u-$row -f ./kprim-bench --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/float/67108864/" > $OUT/ncu-log-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page details --print-details all > $OUT/details-$row.txt 2>&1
  timeout 60 ncu --import /tmp/u-$row.ncu-rep --page source --print-source sass --csv > $OUT/sass-$row.csv 2>&1
  echo "$row: $(grep -E 'Duration|DRAM Throughput|Registers Per|Block Size|Achieved Occupancy' $OUT/details-$row.txt | head -6 | tr -s ' ' | tr '\n' ' ')"
done
date -u
cd $OUT && tar czf call1.tgz *.txt *.csv && rm -f *.txt *.csv
