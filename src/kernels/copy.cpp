// Permuted and broadcast copy over a merged walk.
// Assumptions: the walk is merged (no unit dimensions, adjacent dimensions fused where strides
// allow), strides are in elements and may be negative or zero, `in` and `out` do not overlap.
// The innermost dimension is a tight loop: memcpy when both sides are contiguous, a fill when
// the input is broadcast. (Cache blocking and SIMD tiles are the fast-kernels issue's work.)
#include <cstdint>
#include <cstring>

#include "einops/detail/kernels.hpp"
#include "einops/detail/odometer.hpp"

namespace einops::detail {
namespace {

template <class Word>
void copy_words(const Word* in, Word* out, const Walk& walk) {
  if (walk.output_count() == 0) return;
  if (walk.rank == 0) {
    *out = *in;
    return;
  }
  const int inner = walk.rank - 1;
  const std::int64_t length = walk.extent[inner];
  const std::int64_t in_step = walk.in_stride[inner];
  const std::int64_t out_step = walk.out_stride[inner];
  for_each_run(walk.rank, walk.extent, walk.in_stride, walk.out_stride,
               [&](std::int64_t in_offset, std::int64_t out_offset) {
                 const Word* src = in + in_offset;
                 Word* dst = out + out_offset;
                 if (in_step == 1 && out_step == 1) {
                   std::memcpy(dst, src, static_cast<std::size_t>(length) * sizeof(Word));
                 } else if (in_step == 0) {
                   const Word value = *src;
                   for (std::int64_t i = 0; i < length; ++i) dst[i * out_step] = value;
                 } else {
                   for (std::int64_t i = 0; i < length; ++i) dst[i * out_step] = src[i * in_step];
                 }
               });
}

}  // namespace

void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk) {
  switch (element_size) {
    case 1: return copy_words(static_cast<const std::uint8_t*>(in), static_cast<std::uint8_t*>(out), walk);
    case 2: return copy_words(static_cast<const std::uint16_t*>(in), static_cast<std::uint16_t*>(out), walk);
    case 4: return copy_words(static_cast<const std::uint32_t*>(in), static_cast<std::uint32_t*>(out), walk);
    case 8: return copy_words(static_cast<const std::uint64_t*>(in), static_cast<std::uint64_t*>(out), walk);
    default: break;
  }
}

}  // namespace einops::detail
