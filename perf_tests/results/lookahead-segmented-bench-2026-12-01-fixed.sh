#!/bin/bash
# GPU call B (2026-12-01, second session): kprim-bench of main (base: 8e44a8d's library, the lagged
# kernel for every segmented scan) and of the segmented look-ahead kernel for 8-byte commutative
# scans (new), same bench source, alternated three times in one call, then ncu of the double
# segmented scan kernels. Run from the repository root with the stripped binaries in build/gpu/.
cd build/gpu
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu-b.txt; date -u | tee -a $OUT/gpu-b.txt
SIZES='(16777216|67108864)'
F="^app:segmented_scan/(kprim|kokkos|cub)/[a-z0-9_]+_double/double/$SIZES/|^app:segmented_scan/(kprim|cub)/(1000|fixed_1000|1000_exclusive)/float/(16777216|67108864)/|^app:segmented_scan/kprim/1000_int32_to_int64_exclusive/int32/67108864/|^copy/copy/deep_copy/double/$SIZES/|^inclusive_scan/(kprim/automatic|cub/DeviceScan)/double/$SIZES/"
for round in 1 2 3; do
  for b in base new; do
    t0=$(date +%s)
    timeout 100 ./kprim-bench-$b --reps=20 --max-log2=26 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? $(( $(date +%s) - t0 )) s; WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
for b in base new; do
  for row in 1000_double/double/67108864 fixed_1000_double/double/67108864 1000_exclusive_double/double/67108864; do
    timeout 60 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
      --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors.sum,smsp__inst_executed.sum \
      ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/" > $OUT/ncu-$b-${row//\//_}.txt 2>&1
    echo "ncu $b $row: $(grep -E 'segmented_scan_kernel|duration|dram__|registers|warps_active|lts__t|inst_exec' $OUT/ncu-$b-${row//\//_}.txt | grep -v '==PROF==' | awk '{$1=$1};1' | cut -c1-90 | tr '\n' ';')"
  done
done
date -u
cd $OUT && tar czf bench.tgz *.txt *.csv && rm -f *.txt *.csv
