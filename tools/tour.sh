#!/usr/bin/env bash
# A short tour of the einops tool on data it makes itself: transpose, space-to-depth, 2x2
# max-pool, a batch as one picture, pack/unpack, explain and check, and a normalised float blob
# made in one pass and turned back into pictures. scripts/demo runs it.
#
# usage: tools/tour.sh EINOPS_BINARY OUTPUT_FOLDER
set -euo pipefail
einops_bin="$1"
out="$2"
mkdir -p "$out"
cd "$out"

# Prints a command the way one would type it, then runs it.
show() {
  local line="\$ einops" word
  for word in "$@"; do
    if [[ "$word" == *[\ \'\(\)\*\>]* ]]; then line+=" '$word'"; else line+=" $word"; fi
  done
  printf '%s\n' "$line"
  "$einops_bin" "$@"
}
step() { printf '\n== %s\n' "$1"; }

step "1. A batch of 16 sample pictures, 32x32 RGB (b h w c), each showing its index"
show sample -o batch.npy

step "2. The batch as one picture: b = (b1 b2) laid out as a 4x4 grid"
show rearrange '(b1 b2) h w c -> (b1 h) (b2 w) c' batch.npy b1=4 -o grid.png -v

step "3. NHWC to NCHW (a transpose)"
show rearrange 'b h w c -> b c h w' batch.npy -o nchw.npy -v

step "4. Space-to-depth: each 2x2 block of pixels becomes 4x the channels"
show rearrange 'b (h h2) (w w2) c -> b h w (c h2 w2)' batch.npy h2=2 w2=2 -o space_to_depth.npy -v

step "5. 2x2 max-pooling, then the pooled batch as a grid"
show reduce 'b (h 2) (w 2) c -> b h w c' batch.npy --reduction max -o pooled.npy -v
show rearrange '(b1 b2) h w c -> (b1 h) (b2 w) c' pooled.npy b1=4 -o pooled_grid.png -v

step "6. Every picture transposed (h and w swapped) inside the same grid"
show rearrange '(b1 b2) h w c -> (b1 w) (b2 h) c' batch.npy b1=4 -o transposed_grid.png -v

step "7. pack: the pictures and a brightness mask packed into RGBA; unpack splits them again"
show reduce 'b h w c -> b h w 1' batch.npy --reduction max -o mask.npy -v
pack_output="$(show pack 'b h w *' batch.npy mask.npy -o rgba.npy)"
printf '%s\n' "$pack_output"
packed_shapes="$(sed -n 's/^packed shapes: //p' <<<"$pack_output")"
show rearrange '(b1 b2) h w c -> (b1 h) (b2 w) c' rgba.npy b1=4 -o rgba_grid.png -v
show unpack 'b h w *' rgba.npy --shapes "$packed_shapes" -o rgb_again.npy mask_again.npy
if cmp -s <(tail -c 49152 batch.npy) <(tail -c 49152 rgb_again.npy); then
  echo "unpacked RGB equals the original batch"
else
  echo "unpacked RGB differs from the original batch" >&2
  exit 1
fi

step "8. explain: how the space-to-depth pattern is read for this batch"
show explain 'b (h h2) (w w2) c -> b h w (c h2 w2)' batch.npy h2=2 w2=2

step "9. A mistake in a pattern is shown with a caret (exit status 1)"
show explain 'b h w c -> b (h w c' batch.npy || true

step "10. check: the batch's shape asserted and its lengths named; a failing group is named (exit status 1)"
show check 'b h w 3' batch.npy
show check 'b (h 5) w c' batch.npy || true

step "11. Preprocessing in one pass: the pictures as a normalised float32 NCHW blob, and back"
# (x - mean) / std per channel, as x * (1 / std) + (-mean / std); the way back is x * std + mean.
show rearrange 'b h w c -> b c h w' batch.npy --scale 0.017125,0.017507,0.017429 --offset=-2.1179,-2.0357,-1.8044 --axis c -o blob.npy -v
show rearrange 'b c h w -> (b h) w c' blob.npy --scale 58.395,57.12,57.375 --offset 123.675,116.28,103.53 --axis c --dtype uint8 -o restored.png -v
show rearrange 'b h w c -> (b h) w c' batch.npy -o original.png
if cmp -s original.png restored.png; then
  echo "the pictures restored from the blob equal the originals"
else
  echo "the pictures restored from the blob differ from the originals" >&2
  exit 1
fi

printf '\nPictures written in %s:\n' "$(pwd)"
for picture in grid.png pooled_grid.png transposed_grid.png rgba_grid.png; do printf '  %s\n' "$(pwd)/$picture"; done
echo "Tour complete."
