#!/usr/bin/env bash
# What a translation unit pays for einops (bench/README.md, "Compile cost"): generated translation
# units compiled with -O2 -std=c++20 -c, best of REPEATS (default 3) by user+system CPU time, with
# the compiler's peak memory (maximum resident set):
#   bare         <vector> and <string>, an empty main
#   header       bare + #include <einops/einops.hpp>
#   tensor       header + the Tensor<float> the calls take (arange), and no call
#   literal_1    header + 1 literal rearrange on Tensor<float>
#   literal_N    header + N distinct literal rearranges (N = LITERALS, default 40)
#   runtime_1    header + 1 run-time pattern (einops::runtime)
#   runtime_N    header + N distinct run-time patterns
# and the per-call costs derived from them. Under GCC (CXX, default g++) and, where installed,
# Clang (CLANG, default clang++-16).
#
#   bash bench/compile_cost/measure.sh            REPEATS=5 LITERALS=40 bash ...
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
include="$here/../../include"
repeats="${REPEATS:-3}"
literals="${LITERALS:-40}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The distinct patterns: permutations of five axes, in a fixed order.
patterns() {
  python3 - "$1" <<'PY'
import itertools, sys
n = int(sys.argv[1])
for p in itertools.islice(itertools.permutations("abcde"), 1, n + 1):
    print("a b c d e -> " + " ".join(p))
PY
}

write_tu() {  # NAME KIND COUNT
  local file="$work/$1.cpp" kind="$2" count="$3"
  {
    echo "#include <string>"
    echo "#include <vector>"
    [ "$kind" != bare ] && echo "#include <einops/einops.hpp>"
    echo "int main() {"
    if [ "$kind" = tensor ]; then
      echo "  const auto x = einops::Tensor<float>::arange({1, 2, 3, 4, 5});"
      echo "  return static_cast<int>(x.size() & 1);"
    elif [ "$kind" = literal ] || [ "$kind" = runtime ]; then
      echo "  const auto x = einops::Tensor<float>::arange({1, 2, 3, 4, 5});"
      echo "  long total = 0;"
      while read -r pattern; do
        if [ "$kind" = literal ]; then
          echo "  total += einops::rearrange(x, \"$pattern\").size();"
        else
          echo "  total += einops::rearrange(x, einops::runtime(\"$pattern\")).size();"
        fi
      done < <(patterns "$count")
      echo "  return static_cast<int>(total & 1);"
    else
      echo "  return 0;"
    fi
    echo "}"
  } >"$file"
}

write_tu bare bare 0
write_tu header header 0
write_tu tensor tensor 0
write_tu literal_1 literal 1
write_tu "literal_$literals" literal "$literals"
write_tu runtime_1 runtime 1
write_tu "runtime_$literals" runtime "$literals"

compile_once() {  # COMPILER NAME -> "ms peak_mb", one compilation's CPU time
  /usr/bin/time -f "%U %S %M" -o "$work/time" "$1" -std=c++20 -O2 -I"$include" -c "$work/$2.cpp" -o /dev/null
  read -r user sys kb <"$work/time"
  echo "$(python3 -c "print(round(($user + $sys) * 1000))") $(( kb / 1024 ))"
}

report() {  # COMPILER
  local cxx="$1"
  command -v "$cxx" >/dev/null || { echo "$cxx: not installed, skipped"; return; }
  local names=(bare header tensor literal_1 "literal_$literals" runtime_1 "runtime_$literals")
  declare -A ms mb
  for name in "${names[@]}"; do ms[$name]=999999; mb[$name]=0; done
  # Rounds over every unit, best of each: a slow spell of a shared machine then falls on all
  # units alike instead of on whichever unit it met.
  for _ in $(seq "$repeats"); do
    for name in "${names[@]}"; do
      local one_ms one_mb
      read -r one_ms one_mb < <(compile_once "$cxx" "$name")
      if (( one_ms < ms[$name] )); then ms[$name]=$one_ms; mb[$name]=$one_mb; fi
    done
  done
  echo "== $cxx ($("$cxx" --version | head -1)), -O2 -std=c++20 -c, best of $repeats, CPU ms / peak MB"
  for name in "${names[@]}"; do
    printf '  %-12s %6d ms %6d MB\n' "$name" "${ms[$name]}" "${mb[$name]}"
  done
  local further=$(( literals - 1 ))
  echo "  header over bare:           $(( ms[header] - ms[bare] )) ms"
  echo "  first literal call:         $(( ms[literal_1] - ms[header] )) ms," \
       "of which the tensor it takes: $(( ms[tensor] - ms[header] )) ms"
  echo "  each further literal call:  $(( (ms[literal_$literals] - ms[literal_1]) / further )) ms," \
       "$(( (mb[literal_$literals] - mb[literal_1]) * 1000 / further )) KB"
  echo "  first run-time call:        $(( ms[runtime_1] - ms[header] )) ms"
  echo "  each further run-time call: $(( (ms[runtime_$literals] - ms[runtime_1]) / further )) ms"
}

report "${CXX:-g++}"
report "${CLANG:-clang++-16}"
