#!/usr/bin/env bash
# Runs the README's demo command as a user keeping a log would: `scripts/demo > LOG 2>&1`, with
# EINOPS_BUILD_DIR an absolute path (this build), then checks the whole log: no NUL bytes, every
# step of the tour in order, the packed shapes, the pattern error with its caret, check's lengths
# and its named group, and the end.
#
# usage: check_demo_log.sh SOURCE_DIR BUILD_DIR LOG
set -euo pipefail
source_dir="$1"
build_dir="$2"
log="$3"

EINOPS_BUILD_DIR="$build_dir" "$source_dir/scripts/demo" >"$log" 2>&1 || {
  echo "scripts/demo failed; its log:"; cat "$log"; exit 1
}

fail() { echo "demo log $log: $1"; exit 1; }
[[ "$(tr -d '\000' <"$log" | wc -c)" == "$(wc -c <"$log")" ]] || fail "holds NUL bytes"

# Each expected line, in this order, each after the one before.
expected=(
  '^== 1\. A batch of 16 sample pictures'
  '^\$ einops sample -o batch.npy'
  '^== 2\. '
  '^== 3\. '
  '^== 4\. '
  '^== 5\. '
  '^== 6\. '
  '^== 7\. '
  '^packed shapes: '
  '^unpacked RGB equals the original batch$'
  '^== 8\. '
  '^== 9\. '
  '\^'
  '^== 10\. '
  '^b=16 h=32 w=32$'
  "can't divide axis of length 32 in chunks of 5 (input dim 1, group (h 5))"
  '^== 11\. '
  '^the pictures restored from the blob equal the originals$'
  '^Pictures written in '
  '^Tour complete\.$'
)
after=0
for pattern in "${expected[@]}"; do
  line="$(tail -n +"$((after + 1))" "$log" | grep -n -m1 -e "$pattern" | cut -d: -f1 || true)"
  [[ -n "$line" ]] || fail "no line matching '$pattern' after line $after"
  after=$((after + line))
done
echo "demo log complete: ${#expected[@]} expected lines in order, $(wc -l <"$log") lines, no NUL bytes"
