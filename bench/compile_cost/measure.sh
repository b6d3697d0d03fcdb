#!/usr/bin/env bash
# Compile cost of einops' literal patterns: 20 literal calls (with_einops.cpp) against the same
# program without einops (baseline.cpp), each compiled with the Release flags, best of 3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
include="$here/../../include"
cxx="${CXX:-g++}"
best() {
  local best_ms=999999
  for _ in 1 2 3; do
    local start end ms
    start=$(date +%s%N)
    "$cxx" -std=c++20 -O2 -I"$include" -c "$1" -o /dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    (( ms < best_ms )) && best_ms=$ms
  done
  echo "$best_ms"
}
base=$(best "$here/baseline.cpp")
with=$(best "$here/with_einops.cpp")
echo "baseline (no einops):        ${base} ms"
echo "20 literal einops patterns:  ${with} ms"
echo "added by einops:             $(( with - base )) ms"
