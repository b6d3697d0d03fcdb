// Recasts a conversion's loops as work items (see convert.hpp): merges loops, picks the pixel
// loop and the kernel, and fixes the threading chunks from the problem alone.
#include <algorithm>

#include "convert.hpp"
#include "parallel.hpp"

namespace einops::detail {
namespace {

/// Threading chunks: about kChunksPerConvert of them, each kMinChunkBytes to kMaxChunkBytes of output.
constexpr std::int64_t kChunksPerConvert = 32;
constexpr std::int64_t kMinChunkBytes = std::int64_t{256} << 10;
constexpr std::int64_t kMaxChunkBytes = std::int64_t{4} << 20;
/// Outputs at least this large take non-temporal stores (float32 rows): they would only evict the
/// caches, and streaming saves the read-for-ownership of every output line.
constexpr std::int64_t kStreamMinBytes = std::int64_t{8} << 20;

bool continues(std::int64_t outer, std::int64_t inner, std::int64_t extent) {
  std::int64_t product = 0;
  return !checked_mul(inner, extent, product) && outer == product;
}

/// Drops length-1 loops and merges adjacent loops that walk all three strides as one.
int merge_loops(std::span<const ConvertLoop> loops, std::array<ConvertLoop, kMaxRank>& merged) {
  int n = 0;
  for (const ConvertLoop& loop : loops) {
    if (loop.extent == 1) continue;
    ConvertLoop* last = n > 0 ? &merged[static_cast<std::size_t>(n - 1)] : nullptr;
    if (last != nullptr && last->in_table == nullptr && loop.in_table == nullptr &&
        continues(last->in_stride, loop.in_stride, loop.extent) &&
        continues(last->out_stride, loop.out_stride, loop.extent) &&
        continues(last->param_stride, loop.param_stride, loop.extent)) {
      last->extent *= loop.extent;
      last->in_stride = loop.in_stride;
      last->out_stride = loop.out_stride;
      last->param_stride = loop.param_stride;
      continue;
    }
    merged[static_cast<std::size_t>(n++)] = loop;
  }
  return n;
}

bool takes_channels(std::int64_t extent) { return extent >= 2 && extent <= kMaxConvertChannels; }

/// Whether `channel`'s input offsets are a permutation of m .. m + extent - 1; sets the base m
/// and each channel's position.
bool interleaved_channels(const ConvertLoop& channel, ConvertSchedule& s) {
  std::int64_t low = channel.in_offset(0);
  for (std::int64_t k = 1; k < channel.extent; ++k) low = std::min(low, channel.in_offset(k));
  std::array<bool, kMaxConvertChannels> seen{};
  for (std::int64_t k = 0; k < channel.extent; ++k) {
    const std::int64_t position = channel.in_offset(k) - low;
    if (position < 0 || position >= channel.extent || seen[static_cast<std::size_t>(position)]) return false;
    seen[static_cast<std::size_t>(position)] = true;
    s.channel_position[static_cast<std::size_t>(k)] = position;
  }
  s.channel_base = low;
  return true;
}

}  // namespace

bool convertible(DType in, DType out) {
  const bool input = in == DType::uint8 || in == DType::int8 || in == DType::uint16 || in == DType::int16 ||
                     in == DType::float16 || in == DType::bfloat16 || in == DType::float32;
  const bool output = out == DType::float32 || out == DType::float16 || out == DType::bfloat16 || out == DType::uint8 ||
                      out == DType::int8;
  return input && output;
}

ConvertSchedule make_convert_schedule(const ConvertMap& map, std::span<const ConvertLoop> loops) {
  ConvertSchedule s;
  s.map = map;
  s.total = 1;
  for (const ConvertLoop& loop : loops) s.total *= loop.extent;
  if (s.total == 0) return s;
  std::array<ConvertLoop, kMaxRank> merged{};
  const int n = merge_loops(loops, merged);

  const auto at = [&](int d) -> const ConvertLoop& { return merged[static_cast<std::size_t>(d)]; };
  int pixel = -1;
  int channel = -1;
  // Merge: the loop written contiguously holds 2-4 channels, and a pixel loop steps by them.
  for (int d = n - 1; d >= 0 && channel < 0; --d)
    if (at(d).out_stride == 1 && takes_channels(at(d).extent))
      for (int e = 0; e < n && channel < 0; ++e)
        if (e != d && at(e).out_stride == at(d).extent && at(e).in_table == nullptr) {
          s.kernel = ConvertKernel::merge_channels;
          channel = d;
          pixel = e;
        }
  // Otherwise the pixel loop is the one written contiguously (else the innermost), not a table loop.
  for (int d = n - 1; d >= 0 && pixel < 0; --d)
    if (at(d).out_stride == 1 && at(d).in_table == nullptr) pixel = d;
  for (int d = n - 1; d >= 0 && pixel < 0; --d)
    if (at(d).in_table == nullptr) pixel = d;
  // Split: the pixel loop reads 2-4 interleaved channels of another loop.
  if (pixel >= 0 && channel < 0 && takes_channels(at(pixel).in_stride))
    for (int d = 0; d < n && channel < 0; ++d)
      if (d != pixel && at(d).extent == at(pixel).in_stride && interleaved_channels(at(d), s)) {
        s.kernel = ConvertKernel::split_channels;
        channel = d;
      }
  if (pixel >= 0) s.pixel = merged[static_cast<std::size_t>(pixel)];
  if (channel >= 0) {
    s.channel = merged[static_cast<std::size_t>(channel)];
    s.channels = s.channel.extent;
  }
  for (int d = 0; d < n; ++d)
    if (d != pixel && d != channel)
      s.outer[static_cast<std::size_t>(s.outer_rank++)] = merged[static_cast<std::size_t>(d)];

  const auto out_bytes = static_cast<std::int64_t>(dtype_size(map.out));
  const auto in_bytes = static_cast<std::int64_t>(dtype_size(map.in));
  s.blocks = (s.pixel.extent + kConvertBlock - 1) / kConvertBlock;
  s.items = s.blocks;
  for (int i = 0; i < s.outer_rank; ++i) s.items *= s.outer[static_cast<std::size_t>(i)].extent;
  const std::int64_t item_bytes = std::min(kConvertBlock, s.pixel.extent) * s.channels * out_bytes;
  const std::int64_t chunk_bytes = std::clamp(s.total * out_bytes / kChunksPerConvert, kMinChunkBytes, kMaxChunkBytes);
  s.chunk_items = std::max<std::int64_t>(1, chunk_bytes / item_bytes);
  s.stream = map.out == DType::float32 && s.pixel.out_stride == 1 && s.total * out_bytes >= kStreamMinBytes;
  s.parallel = s.total * (in_bytes + out_bytes) >= kParallelMinBytes;
  return s;
}

}  // namespace einops::detail
