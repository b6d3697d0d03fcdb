// Executes a ConvertSchedule (convert.hpp): per work item, a block of up to kConvertBlock pixels
// goes through three stages on L1 buffers of float32, one per channel:
//   load   input lanes -> float (contiguous, reversed, broadcast or gathered rows; or 2-4
//          interleaved channels deinterleaved by LoadInterleaved),
//   map    the affine map, a vector of one scale and one offset per channel row,
//   store  float -> output lanes (rows, streaming where float32 and large; or 2-4 channels
//          interleaved by StoreInterleaved).
// float32 channel rows merged into interleaved channels skip the buffers (MergeFloatRows): their
// input, four times the output's bytes, is then read once.
// Vectors hold one float32 register's lanes; narrower types use the matching partial vectors.
// float16 and bfloat16 convert only through half_convert-inl.h; the scalar edges convert as
// float16.hpp does, which that header matches bit for bit. Multiplies and adds are separate
// operations (this file compiles with -ffp-contract=off), so every target gives the same bits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "convert.hpp"
#include "einops/float16.hpp"
#include "parallel.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/convert_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "half_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
constexpr bool kHalfType = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;
/// The lane type a vector holds T in: the bit pattern of the 16-bit floats.
template <class T>
using Lane = std::conditional_t<kHalfType<T>, std::uint16_t, T>;

using DF = hn::ScalableTag<float>;
template <class T>
using DLane = hn::Rebind<Lane<T>, DF>;

// ---- one element (the edges and gathered elements) -------------------------------------------

template <class T>
HWY_INLINE float ScalarToFloat(Lane<T> lane) {
  if constexpr (kHalfType<T>) return static_cast<float>(T::from_bits(lane));
  else return static_cast<float>(lane);
}

template <class T>
HWY_INLINE Lane<T> ScalarFromFloat(float value) {
  if constexpr (kHalfType<T>) {
    return T(value).bits;
  } else if constexpr (std::is_integral_v<T>) {
    if (std::isnan(value)) return 0;
    const float clamped = std::clamp(value, static_cast<float>(std::numeric_limits<T>::min()),
                                     static_cast<float>(std::numeric_limits<T>::max()));
    return static_cast<T>(std::nearbyint(clamped));  // the default rounding mode: nearest even
  } else {
    return value;
  }
}

// ---- vectors -----------------------------------------------------------------------------------

template <class T>
HWY_INLINE hn::Vec<DF> ToFloat(DF df, hn::Vec<DLane<T>> v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else if constexpr (std::is_same_v<T, float16>) return HalfBitsToFloatExact(df, v);
  else if constexpr (std::is_same_v<T, bfloat16>) return Bfloat16BitsToFloat(df, v);
  else return hn::ConvertTo(df, hn::PromoteTo(hn::RebindToSigned<DF>(), v));
}

template <class T>
HWY_INLINE hn::Vec<DLane<T>> FromFloat(DF df, hn::Vec<DF> v) {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else if constexpr (kHalfType<T>) {
    return FloatToHalfLanes<T>(df, v);
  } else {
    const auto no_nan = hn::IfThenZeroElse(hn::IsNaN(v), v);
    const auto clamped = hn::Min(hn::Max(no_nan, hn::Set(df, static_cast<float>(std::numeric_limits<T>::min()))),
                                 hn::Set(df, static_cast<float>(std::numeric_limits<T>::max())));
    return hn::DemoteTo(DLane<T>(), hn::NearestInt(clamped));
  }
}

// ---- load stage --------------------------------------------------------------------------------

/// buf[j] = float(in[j * stride]) for j < n.
template <class T>
void LoadRow(const Lane<T>* HWY_RESTRICT in, std::int64_t stride, std::int64_t n, float* HWY_RESTRICT buf) {
  const DF df;
  const DLane<T> dl;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  std::int64_t j = 0;
  if (stride == 1) {
    for (; j + lanes <= n; j += lanes) hn::Store(ToFloat<T>(df, hn::LoadU(dl, in + j)), df, buf + j);
  } else if (stride == -1) {
    for (; j + lanes <= n; j += lanes)
      hn::Store(hn::Reverse(df, ToFloat<T>(df, hn::LoadU(dl, in - j - (lanes - 1)))), df, buf + j);
  } else if (stride == 0) {
    std::fill(buf, buf + n, ScalarToFloat<T>(in[0]));
    return;
  }
  for (; j < n; ++j) buf[j] = ScalarToFloat<T>(in[j * stride]);
}

template <int C, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadChannels(D d, const hn::TFromD<D>* HWY_RESTRICT in, V (&v)[C]) {
  if constexpr (C == 2) hn::LoadInterleaved2(d, in, v[0], v[1]);
  else if constexpr (C == 3) hn::LoadInterleaved3(d, in, v[0], v[1], v[2]);
  else hn::LoadInterleaved4(d, in, v[0], v[1], v[2], v[3]);
}

/// dst[k][j] = float(in[j * C + k]) for j < n, k < C.
template <class T, int C>
void LoadSplit(const Lane<T>* HWY_RESTRICT in, std::int64_t n, float* const* dst) {
  const DF df;
  const DLane<T> dl;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  std::int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    hn::Vec<DLane<T>> v[C];
    LoadChannels<C>(dl, in + j * C, v);
    for (int k = 0; k < C; ++k) hn::Store(ToFloat<T>(df, v[k]), df, dst[k] + j);
  }
  for (; j < n; ++j)
    for (int k = 0; k < C; ++k) dst[k][j] = ScalarToFloat<T>(in[j * C + k]);
}

// ---- map stage ---------------------------------------------------------------------------------

/// The affine map on buf[0, n): parameters at p + j * param_stride.
void MapRow(const ConvertMap& map, float* HWY_RESTRICT buf, std::int64_t n, std::int64_t p, std::int64_t param_stride) {
  if (map.scale == nullptr) return;
  const bool offset_first = map.offset_first;
  const auto one = [offset_first](float x, float scale, float offset) {
    if (offset_first) {
      const float shifted = x + offset;
      return shifted * scale;
    }
    const float scaled = x * scale;
    return scaled + offset;
  };
  if (param_stride != 0) {
    for (std::int64_t j = 0; j < n; ++j)
      buf[j] = one(buf[j], map.scale[p + j * param_stride], map.offset[p + j * param_stride]);
    return;
  }
  const DF df;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  const float scale = map.scale[p], offset = map.offset[p];
  const auto vs = hn::Set(df, scale), vo = hn::Set(df, offset);
  std::int64_t j = 0;
  if (offset_first)
    for (; j + lanes <= n; j += lanes) hn::Store(hn::Mul(hn::Add(hn::Load(df, buf + j), vo), vs), df, buf + j);
  else
    for (; j + lanes <= n; j += lanes) hn::Store(hn::Add(hn::Mul(hn::Load(df, buf + j), vs), vo), df, buf + j);
  for (; j < n; ++j) buf[j] = one(buf[j], scale, offset);
}

// ---- store stage -------------------------------------------------------------------------------

/// out[j * stride] = Out(buf[j]) for j < n; streaming stores for float32 where `stream` and aligned.
template <class T>
void StoreRow(const float* HWY_RESTRICT buf, Lane<T>* HWY_RESTRICT out, std::int64_t stride, std::int64_t n,
              bool stream) {
  const DF df;
  const DLane<T> dl;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  std::int64_t j = 0;
  if (stride == 1) {
    if constexpr (std::is_same_v<T, float>) {
      if (stream) {
        const std::size_t vector_bytes = hn::Lanes(df) * sizeof(float);
        for (; j < n && reinterpret_cast<std::uintptr_t>(out + j) % vector_bytes != 0; ++j) out[j] = buf[j];
        for (; j + lanes <= n; j += lanes) hn::Stream(hn::Load(df, buf + j), df, out + j);
      }
    }
    for (; j + lanes <= n; j += lanes) hn::StoreU(FromFloat<T>(df, hn::Load(df, buf + j)), dl, out + j);
  }
  for (; j < n; ++j) out[j * stride] = ScalarFromFloat<T>(buf[j]);
}

template <int C, class D, class V = hn::Vec<D>>
HWY_INLINE void StoreChannels(D d, const V (&v)[C], hn::TFromD<D>* HWY_RESTRICT out) {
  if constexpr (C == 2) hn::StoreInterleaved2(v[0], v[1], d, out);
  else if constexpr (C == 3) hn::StoreInterleaved3(v[0], v[1], v[2], d, out);
  else hn::StoreInterleaved4(v[0], v[1], v[2], v[3], d, out);
}

/// out[j * C + k] = Out(src[k][j]) for j < n, k < C.
template <class T, int C>
void StoreMerge(const float* const* src, Lane<T>* HWY_RESTRICT out, std::int64_t n) {
  const DF df;
  const DLane<T> dl;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  std::int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    hn::Vec<DLane<T>> v[C];
    for (int k = 0; k < C; ++k) v[k] = FromFloat<T>(df, hn::Load(df, src[k] + j));
    StoreChannels<C>(dl, v, out + j * C);
  }
  for (; j < n; ++j)
    for (int k = 0; k < C; ++k) out[j * C + k] = ScalarFromFloat<T>(src[k][j]);
}

/// The scale and offset of one channel row.
struct RowMap {
  float scale = 1.0f, offset = 0.0f;
};

/// out[j * C + k] = Out(map_k(rows[k][j])) for j < n, k < C: float32 rows (contiguous) straight
/// to interleaved channels, without the L1 buffers (the input is read once, from memory).
template <class T, int C>
void MergeFloatRows(const float* const* rows, const RowMap* maps, bool mapped, bool offset_first,
                    Lane<T>* HWY_RESTRICT out, std::int64_t n) {
  const DF df;
  const DLane<T> dl;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(df));
  const float* row[C];
  hn::Vec<DF> vs[C], vo[C];
  for (int k = 0; k < C; ++k) {
    row[k] = rows[k];
    vs[k] = hn::Set(df, maps[k].scale);
    vo[k] = hn::Set(df, maps[k].offset);
  }
  std::int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    hn::Vec<DLane<T>> v[C];
    for (int k = 0; k < C; ++k) {
      auto x = hn::LoadU(df, row[k] + j);
      if (mapped) x = offset_first ? hn::Mul(hn::Add(x, vo[k]), vs[k]) : hn::Add(hn::Mul(x, vs[k]), vo[k]);
      v[k] = FromFloat<T>(df, x);
    }
    StoreChannels<C>(dl, v, out + j * C);
  }
  for (; j < n; ++j)
    for (int k = 0; k < C; ++k) {
      float x = row[k][j];
      if (mapped) {
        if (offset_first) {
          const float shifted = x + maps[k].offset;
          x = shifted * maps[k].scale;
        } else {
          const float scaled = x * maps[k].scale;
          x = scaled + maps[k].offset;
        }
      }
      out[j * C + k] = ScalarFromFloat<T>(x);
    }
}

// ---- the executor ------------------------------------------------------------------------------

/// The stages of one input type and one output type, on untyped pointers.
struct Stages {
  void (*load_row)(const void*, std::int64_t, std::int64_t, float*);
  void (*load_split[kMaxConvertChannels + 1])(const void*, std::int64_t, float* const*);
  void (*store_row)(const float*, void*, std::int64_t, std::int64_t, bool);
  void (*store_merge[kMaxConvertChannels + 1])(const float* const*, void*, std::int64_t);
  void (*merge_float_rows[kMaxConvertChannels + 1])(const float* const*, const RowMap*, bool, bool, void*,
                                                    std::int64_t);
  std::size_t in_size, out_size;
};

template <class T>
Stages& WithInput(Stages& s) {
  s.load_row = [](const void* in, std::int64_t stride, std::int64_t n, float* buf) {
    LoadRow<T>(static_cast<const Lane<T>*>(in), stride, n, buf);
  };
  s.load_split[2] = [](const void* in, std::int64_t n, float* const* dst) {
    LoadSplit<T, 2>(static_cast<const Lane<T>*>(in), n, dst);
  };
  s.load_split[3] = [](const void* in, std::int64_t n, float* const* dst) {
    LoadSplit<T, 3>(static_cast<const Lane<T>*>(in), n, dst);
  };
  s.load_split[4] = [](const void* in, std::int64_t n, float* const* dst) {
    LoadSplit<T, 4>(static_cast<const Lane<T>*>(in), n, dst);
  };
  s.in_size = sizeof(T);
  return s;
}

template <class T>
Stages& WithOutput(Stages& s) {
  s.store_row = [](const float* buf, void* out, std::int64_t stride, std::int64_t n, bool stream) {
    StoreRow<T>(buf, static_cast<Lane<T>*>(out), stride, n, stream);
  };
  s.store_merge[2] = [](const float* const* src, void* out, std::int64_t n) {
    StoreMerge<T, 2>(src, static_cast<Lane<T>*>(out), n);
  };
  s.store_merge[3] = [](const float* const* src, void* out, std::int64_t n) {
    StoreMerge<T, 3>(src, static_cast<Lane<T>*>(out), n);
  };
  s.store_merge[4] = [](const float* const* src, void* out, std::int64_t n) {
    StoreMerge<T, 4>(src, static_cast<Lane<T>*>(out), n);
  };
  s.merge_float_rows[2] = [](const float* const* rows, const RowMap* maps, bool mapped, bool first, void* out,
                             std::int64_t n) {
    MergeFloatRows<T, 2>(rows, maps, mapped, first, static_cast<Lane<T>*>(out), n);
  };
  s.merge_float_rows[3] = [](const float* const* rows, const RowMap* maps, bool mapped, bool first, void* out,
                             std::int64_t n) {
    MergeFloatRows<T, 3>(rows, maps, mapped, first, static_cast<Lane<T>*>(out), n);
  };
  s.merge_float_rows[4] = [](const float* const* rows, const RowMap* maps, bool mapped, bool first, void* out,
                             std::int64_t n) {
    MergeFloatRows<T, 4>(rows, maps, mapped, first, static_cast<Lane<T>*>(out), n);
  };
  s.out_size = sizeof(T);
  return s;
}

Stages StagesFor(DType in, DType out) {
  Stages s{};
  switch (in) {
    case DType::uint8: WithInput<std::uint8_t>(s); break;
    case DType::int8: WithInput<std::int8_t>(s); break;
    case DType::uint16: WithInput<std::uint16_t>(s); break;
    case DType::int16: WithInput<std::int16_t>(s); break;
    case DType::float16: WithInput<float16>(s); break;
    case DType::bfloat16: WithInput<bfloat16>(s); break;
    default: WithInput<float>(s); break;
  }
  switch (out) {
    case DType::float16: WithOutput<float16>(s); break;
    case DType::bfloat16: WithOutput<bfloat16>(s); break;
    case DType::uint8: WithOutput<std::uint8_t>(s); break;
    case DType::int8: WithOutput<std::int8_t>(s); break;
    default: WithOutput<float>(s); break;
  }
  return s;
}

void ExecuteConvert(const ConvertSchedule& s, const void* in_data, void* out_data) {
  const Stages stages = StagesFor(s.map.in, s.map.out);
  const auto* in = static_cast<const unsigned char*>(in_data);
  auto* out = static_cast<unsigned char*>(out_data);
  const auto in_size = static_cast<std::int64_t>(stages.in_size);
  const auto out_size = static_cast<std::int64_t>(stages.out_size);
  const ConvertLoop& pixel = s.pixel;
  const ConvertLoop& channel = s.channel;

  parallel_for(s.items, s.chunk_items, s.parallel, [&](std::int64_t begin, std::int64_t end) {
    HWY_ALIGN float buffers[kMaxConvertChannels][kConvertBlock];
    for (std::int64_t item = begin; item < end; ++item) {
      // Where the item lies: outer position (one division per loop; an item is a whole block).
      std::int64_t rest = item / s.blocks;
      const std::int64_t p0 = (item % s.blocks) * kConvertBlock;
      std::int64_t in_offset = p0 * pixel.in_stride, out_offset = p0 * pixel.out_stride,
                   param = p0 * pixel.param_stride;
      for (int i = s.outer_rank - 1; i >= 0; --i) {
        const ConvertLoop& loop = s.outer[static_cast<std::size_t>(i)];
        const std::int64_t index = rest % loop.extent;
        rest /= loop.extent;
        in_offset += loop.in_offset(index);
        out_offset += index * loop.out_stride;
        param += index * loop.param_stride;
      }
      const std::int64_t n = std::min(kConvertBlock, pixel.extent - p0);
      switch (s.kernel) {
        case ConvertKernel::rows:
          stages.load_row(in + in_offset * in_size, pixel.in_stride, n, buffers[0]);
          MapRow(s.map, buffers[0], n, param, pixel.param_stride);
          stages.store_row(buffers[0], out + out_offset * out_size, pixel.out_stride, n, s.stream);
          break;
        case ConvertKernel::split_channels: {
          float* dst[kMaxConvertChannels];
          for (std::int64_t k = 0; k < s.channels; ++k)
            dst[s.channel_position[static_cast<std::size_t>(k)]] = buffers[k];
          stages.load_split[s.channels](in + (in_offset + s.channel_base) * in_size, n, dst);
          for (std::int64_t k = 0; k < s.channels; ++k) {
            MapRow(s.map, buffers[k], n, param + k * channel.param_stride, pixel.param_stride);
            stages.store_row(buffers[k], out + (out_offset + k * channel.out_stride) * out_size, pixel.out_stride, n,
                             s.stream);
          }
          break;
        }
        case ConvertKernel::merge_channels: {
          const float* src[kMaxConvertChannels];
          if (s.map.in == DType::float32 && pixel.in_stride == 1 && pixel.param_stride == 0) {
            RowMap maps[kMaxConvertChannels];
            for (std::int64_t k = 0; k < s.channels; ++k) {
              src[k] = reinterpret_cast<const float*>(in) + in_offset + channel.in_offset(k);
              if (s.map.scale != nullptr)
                maps[k] = {s.map.scale[param + k * channel.param_stride],
                           s.map.offset[param + k * channel.param_stride]};
            }
            stages.merge_float_rows[s.channels](src, maps, s.map.scale != nullptr, s.map.offset_first,
                                                out + out_offset * out_size, n);
            break;
          }
          for (std::int64_t k = 0; k < s.channels; ++k) {
            stages.load_row(in + (in_offset + channel.in_offset(k)) * in_size, pixel.in_stride, n, buffers[k]);
            MapRow(s.map, buffers[k], n, param + k * channel.param_stride, pixel.param_stride);
            src[k] = buffers[k];
          }
          stages.store_merge[s.channels](src, out + out_offset * out_size, n);
          break;
        }
      }
    }
    if (s.stream) hwy::FlushStream();
  });
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(ExecuteConvert);

void execute_convert(const ConvertSchedule& schedule, const void* in, void* out) {
  if (schedule.total == 0) return;
  HWY_DYNAMIC_DISPATCH(ExecuteConvert)(schedule, in, out);
}

}  // namespace einops::detail
#endif
