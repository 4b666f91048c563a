#!/bin/bash
# GPU call 4 (2026-12-02, fifth session): call 3's binaries (this commit's library): the remaining sections under the sanitizers.
cd build/gpu && tar xJf bin.tar.xz
export LD_LIBRARY_PATH=$PWD/lib:$LD_LIBRARY_PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu4.txt; date -u | tee -a $OUT/gpu4.txt
export KPRIM_TEST_MAX_N=13100000
run() { tool=$1; c=$2; sec=$3; tag=$tool-$c-${sec%% *}
  (timeout 280 compute-sanitizer --tool $tool $4 ./kprim-cuda-tests "*Sum and Max - LongCases - $c" -c "$sec" > $OUT/$tag.txt 2>&1) & }
run synccheck 8 "power law"
run synccheck 8 "one segment"
run synccheck 8 "starts on and next to tile edges"
run synccheck 8 "about a thousand, empty ones among them"
run synccheck 10 "partial coverage"
run synccheck 10 "dense tiles among long segments"
run initcheck 8 "about a thousand, empty ones among them"
run initcheck 10 "dense tiles among long segments"
run racecheck 10 "dense tiles among long segments" "--racecheck-report hazard"
run racecheck 10 "partial coverage" "--racecheck-report hazard"
run racecheck 8 "starts on and next to tile edges" "--racecheck-report hazard"
run memcheck 8 "about a thousand, empty ones among them"
run memcheck 10 "tiny and empty (0-32)"
wait
for f in $OUT/*check-*.txt; do echo "$(basename $f): $(grep -E 'SUMMARY|All tests|test cases|assertions|No test' $f | tr '\n' ' ')"; done
date -u
