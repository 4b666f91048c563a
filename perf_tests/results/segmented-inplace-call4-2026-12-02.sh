#!/bin/bash
# GPU call 4 (2026-12-02, session 3): sanitizers on the segmented look-ahead kernel (narrow build):
# float Sum (4-byte path) and double Sum (8-byte path), n just past each type's look-ahead threshold.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
date -u | tee $OUT/gpu4.txt
export KPRIM_TEST_MAX_N=13100000
run() {  # tool, case index, section
  local f="$OUT/$1-$2-${3// /_}.txt"
  timeout 170 compute-sanitizer --tool $1 $([ $1 = racecheck ] && echo --racecheck-report hazard) ./kprim-cuda-tests "*Sum and Max - LongCases - $2" -c "$3" > "$f" 2>&1
  echo "$1 case $2 '$3' rc=$?: $(grep -E 'SUMMARY|All tests|test cases' "$f" | tr '\n' ' ')"
}
run racecheck 8 "about a thousand, empty ones among them" &
run racecheck 10 "segments of 3" &
run memcheck 8 "tiny and empty (0-32)" &
run racecheck 9 "partial coverage" &
wait
date -u
cd $OUT && tar czf call4.tgz *.txt && rm -f *.txt
