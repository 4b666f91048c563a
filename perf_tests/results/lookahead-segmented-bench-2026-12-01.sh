#!/bin/bash
# GPU call 2 (2026-12-01): kprim-bench of main (base, 259ab28's library) and the segmented look-ahead
# kernel (new) alternated three times in one call, then ncu of each segmented scan kernel.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu2.txt; date -u | tee -a $OUT/gpu2.txt
SIZES='(16777216|67108864)'
F="^app:segmented_scan/(kprim|kprim_lambda|cub)/(1-32|1000|1e6|power)/float/$SIZES/|^app:segmented_scan/kprim/[a-z0-9_]+/(float|int32|double)/$SIZES/|^copy/copy/deep_copy/(float|double)/(16777216|67108864|268435456)/|^inclusive_scan/(kprim/automatic|cub/DeviceScan)/(float|double)/(16777216|67108864|268435456)/"
for round in 1 2 3; do
  for b in base new; do
    t0=$(date +%s)
    timeout 100 ./kprim-bench-$b --reps=20 --max-log2=28 --benchmark_filter="$F" --summary=$OUT/$b-$round.csv > $OUT/$b-$round.txt 2>&1
    echo "$b round $round rc=$? $(( $(date +%s) - t0 )) s; WRONG: $(grep -c WRONG $OUT/$b-$round.txt)"
  done
done
for b in base new; do
  for row in 1000/float/67108864 1-32/float/67108864 fixed_1000/float/67108864 1000_double/double/67108864; do
    timeout 60 ncu --clock-control none --kernel-name regex:'segmented_scan_kernel' --launch-skip 1 --launch-count 1 \
      --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors.sum,smsp__inst_executed.sum \
      ./kprim-bench-$b --reps=2 --max-log2=26 --benchmark_filter="^app:segmented_scan/kprim/$row/" > $OUT/ncu-$b-${row//\//_}.txt 2>&1
    echo "ncu $b $row: $(grep -E 'Kernel|kernel|duration|dram__|registers|warps_active|lts__t|inst_exec' $OUT/ncu-$b-${row//\//_}.txt | grep -v '==PROF==' | awk '{$1=$1};1' | tr '\n' ';' | cut -c1-600)"
  done
done
timeout 60 ncu --clock-control none --kernel-name regex:'lookahead_scan_kernel' --launch-skip 1 --launch-count 1 \
  --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,lts__t_sectors.sum,smsp__inst_executed.sum \
  ./kprim-bench-new --reps=2 --max-log2=26 --benchmark_filter="^inclusive_scan/kprim/automatic/float/67108864/" > $OUT/ncu-new-plain-scan-float.txt 2>&1
echo "ncu plain: $(grep -E 'duration|dram__|lts__t|inst_exec' $OUT/ncu-new-plain-scan-float.txt | awk '{$1=$1};1' | tr '\n' ';')"
date -u
cd $OUT && tar czf all.tgz *.txt *.csv && rm -f *.txt *.csv; ls -la $OUT
