// SIMD reductions of float32, float64, float16 and bfloat16, compiled once per instruction set
// (Highway) and chosen at run time.
// Assumptions: accumulators are float (double for float64); 16-bit floats are widened exactly;
// `inner`: the innermost reduced loop has stride 1, U vector accumulators take consecutive
// vectors and every kBlockGroups groups their sum joins a pairwise cascade (sums and means);
// `outer`: lanes are neighbouring outputs accumulated in a tile; each pass over the tile adds
// kOuterPassSteps reduced steps (kSequentialPassSteps over rows in sequence), and every
// kBlockSteps steps the tile joins a cascade. x86
// min/max drop NaN: inner mode tracks it in a mask; outer mode notes whether any went by and then
// reduces that tile again with an exact step. Loads are capped at 256 bits (see
// ReduceTag). Tails go through a small identity-filled buffer, never past the end of the input.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "prefetch.hpp"
#include "reduce_ops.hpp"
#include "reduce_schedule.hpp"
#include "simd_dispatch.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/reduce_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "widen_load-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr std::size_t U = 4;               // independent vector accumulators
constexpr std::int64_t kBlockGroups = 16;  // inner: U-vector groups per pairwise block
constexpr std::int64_t kBlockSteps = 64;   // outer: reduced steps per pairwise block
constexpr int kCascadeLevels = 48;         // 2^48 blocks: more than memory can hold

/// Loads are capped at 256 bits even where AVX-512 runs: a caller's tensor is often not 64-byte
/// aligned, and then every 512-bit load splits a cache line. 16-bit floats widen to 512-bit
/// accumulators from 256-bit loads, which halves the conversions.
template <class T, class Acc = FloatCompute<T>>
using ReduceTag = hn::CappedTag<Acc, (is_half_v<T> ? 64 : 32) / sizeof(Acc)>;

/// The reduction on vectors: identity, step, and whether NaN must be tracked on the side. Scalar
/// is its ReduceOp on the accumulator type, which folds lanes and partial results.
template <Reduction R, class DA>
struct VectorOp {
  using V = hn::Vec<DA>;
  using Acc = hn::TFromD<DA>;
  using Scalar = ReduceOp<R, Acc>;
  static constexpr VectorCombine kCombine = Scalar::vector_combine;
  static_assert(kCombine == VectorCombine::add || kCombine == VectorCombine::multiply ||
                    kCombine == VectorCombine::maximum || kCombine == VectorCombine::minimum,
                "the float kernels combine floating accumulators (float_kernel_runs_v)");
  static constexpr bool kExtremum = kCombine == VectorCombine::maximum || kCombine == VectorCombine::minimum;
  static constexpr bool kPairwise = Scalar::pairwise;
  static V identity(DA da) { return hn::Set(da, Scalar::identity()); }
  static V step(V acc, V x) {
    if constexpr (kCombine == VectorCombine::multiply) return hn::Mul(acc, x);
    if constexpr (kCombine == VectorCombine::maximum) return hn::Max(acc, x);
    if constexpr (kCombine == VectorCombine::minimum) return hn::Min(acc, x);
    return hn::Add(acc, x);
  }
};

/// Pairwise cascade of vectors (see Cascade in reduce_ops.hpp).
template <class DA>
struct VectorCascade {
  using V = hn::Vec<DA>;
  using Acc = hn::TFromD<DA>;
  HWY_ALIGN Acc levels[kCascadeLevels][hn::MaxLanes(DA())];
  std::uint64_t occupied = 0;

  void push(DA da, V value) {
    int level = 0;
    for (; (occupied >> level) & 1u; ++level) {
      value = hn::Add(hn::Load(da, levels[level]), value);
      occupied &= ~(std::uint64_t{1} << level);
    }
    hn::Store(value, da, levels[level]);
    occupied |= std::uint64_t{1} << level;
  }
  /// push(value), then total(): the last block joins the cascade and everything is summed. With
  /// nothing pushed before (one block: short runs) it is value + 0, without the memory round trip.
  V close(DA da, V value) {
    if (occupied == 0) return hn::Add(value, hn::Zero(da));
    push(da, value);
    return total(da);
  }
  V total(DA da) const {
    V sum = hn::Zero(da);
    for (int level = 0, top = static_cast<int>(std::bit_width(occupied)); level < top; ++level)
      if ((occupied >> level) & 1u) sum = hn::Add(hn::Load(da, levels[level]), sum);
    return sum;
  }
};

/// Loads `count` (< N) elements through an identity-filled buffer: never reads past the input.
template <class T, class DA>
HWY_INLINE hn::Vec<DA> LoadTail(DA da, const T* p, std::int64_t count, hn::Vec<DA> identity) {
  HWY_ALIGN hn::TFromD<DA> widened[hn::MaxLanes(DA())];
  hn::Store(identity, da, widened);
  for (std::int64_t i = 0; i < count; ++i) widened[i] = static_cast<hn::TFromD<DA>>(p[i]);
  return hn::Load(da, widened);
}

/// inner mode, one output: the innermost reduced loop contiguous, from `base`.
template <Reduction R, class T>
HWY_INLINE FloatCompute<T> InnerReduceOne(const T* base, const Loop* loops, int red_rank) {
  using Acc = FloatCompute<T>;
  const ReduceTag<T> da;
  using Op = VectorOp<R, decltype(da)>;
  using V = hn::Vec<decltype(da)>;
  const auto N = static_cast<std::int64_t>(hn::Lanes(da));
  const V identity = Op::identity(da);
  V acc[U];
  for (auto& a : acc) a = identity;
  V nan_seen = hn::Zero(da);
  VectorCascade<decltype(da)> cascade;
  constexpr std::int64_t kBlockVectors = kBlockGroups * static_cast<std::int64_t>(U);
  std::int64_t vectors_in_block = 0;  // vectors added since the last flush (sums and means)
  const auto flush_block = [&] {
    if constexpr (Op::kPairwise) {
      cascade.push(da, hn::Add(hn::Add(acc[0], acc[1]), hn::Add(acc[2], acc[3])));
      for (auto& a : acc) a = identity;
      vectors_in_block = 0;
    }
  };
  const auto take = [&](std::size_t i, V x) {
    if constexpr (Op::kExtremum) nan_seen = hn::Or(nan_seen, hn::VecFromMask(da, hn::IsNaN(x)));
    acc[i] = Op::step(acc[i], x);
  };

  const int last = red_rank - 1;
  const std::int64_t run = loops[last].extent;
  const std::int64_t group = static_cast<std::int64_t>(U) * N;
  ReducedSteps runs(loops, last);  // the loops around the contiguous innermost one
  for (;;) {
    const T* p = base + runs.offset;
    std::int64_t i = 0;
    while (i + group <= run) {
      std::int64_t groups = (run - i) / group;
      if constexpr (Op::kPairwise)
        groups = std::min(groups, (kBlockVectors - vectors_in_block) / static_cast<std::int64_t>(U));
      for (std::int64_t g = 0; g < groups; ++g, i += group)
        for (std::size_t u = 0; u < U; ++u) take(u, LoadWide(da, p + i + static_cast<std::int64_t>(u) * N));
      vectors_in_block += groups * static_cast<std::int64_t>(U);
      if (vectors_in_block + static_cast<std::int64_t>(U) > kBlockVectors) flush_block();
    }
    for (std::size_t u = 0; i + N <= run; i += N, ++u, ++vectors_in_block) take(u, LoadWide(da, p + i));
    if (i < run) {
      take(U - 1, LoadTail(da, p + i, run - i, identity));
      ++vectors_in_block;
    }
    if (vectors_in_block + static_cast<std::int64_t>(U) > kBlockVectors) flush_block();
    if (!runs.next()) break;
  }

  V folded = acc[0];
  for (std::size_t u = 1; u < U; ++u) folded = Op::step(folded, acc[u]);
  if constexpr (Op::kPairwise) folded = cascade.close(da, folded);
  HWY_ALIGN Acc lanes[hn::MaxLanes(decltype(da)())];
  hn::Store(folded, da, lanes);
  Acc result = lanes[0];
  // (min and max: a NaN in a lane was seen, and decides the result below)
  for (std::int64_t l = 1; l < N; ++l) result = Op::Scalar::combine(result, lanes[l]);
  if constexpr (Op::kExtremum) {
    if (!hn::AllFalse(da, hn::MaskFromVec(nan_seen))) result = std::numeric_limits<Acc>::quiet_NaN();
  }
  return result;
}

/// inner mode: `call.lanes` outputs, `call.lane_stride` elements apart, in one call (each output's
/// arithmetic as alone): short runs would otherwise cost a dispatch each.
template <Reduction R, class T>
void InnerReduce(const FloatReduceCall& call) {
  const T* base = static_cast<const T*>(call.base);
  auto* results = static_cast<FloatCompute<T>*>(call.accumulators);
  for (std::int64_t output = 0; output < call.lanes; ++output)
    results[output] = InnerReduceOne<R, T>(base + output * call.lane_stride, call.red_loops, call.red_rank);
}

/// A fixed tree over rows [kLo, kHi): halves combined recursively.
template <int kLo, int kHi, class Combine, class V>
HWY_INLINE V Tree(Combine combine, const V* x) {
  if constexpr (kHi - kLo == 1) {
    return x[kLo];
  } else {
    constexpr int kMid = (kLo + kHi) / 2;
    return combine(Tree<kLo, kMid>(combine, x), Tree<kMid, kHi>(combine, x));
  }
}

/// An outer pass reads kOuterPassSteps rows far apart, more streams at once than the hardware
/// prefetchers follow well: each row's line this far ahead is prefetched as the row is read (the
/// steadiest distance).
constexpr std::int64_t kRowPrefetchBytes = 512;

/// Prefetches the line kRowPrefetchBytes past `p`, which may lie past the input (a prefetch never
/// faults): the address is formed as an integer, not as a pointer out of bounds.
HWY_INLINE void PrefetchRowAhead(const void* p) {
  hwy::Prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(p) + kRowPrefetchBytes));
}

/// Prefetches into L2 (not L1, which holds the tile) the line `bytes` past `p`: where the next
/// pass reads, which may lie past the input.
HWY_INLINE void PrefetchNextPass(const void* p, std::int64_t bytes) {
  prefetch_to_l2(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
}

/// Steps per pass when the steps follow each other in memory (FloatReduceCall::sequential_steps):
/// the input is then one stream, which the next pass's prefetch keeps ahead of the loads, and one
/// step per pass reads it in order. The tile's own loads and stores then match the input's bytes
/// for 4- and 8-byte elements; 16-bit ones, whose accumulators are twice their size, take two steps.
template <class T>
constexpr int kSequentialPassSteps = is_half_v<T> ? 2 : 1;

/// outer mode, one pass over a tile: kCount reduced steps (rows) are combined in registers in a
/// fixed tree (Tree), before the tile's accumulators are loaded and stored once. Each row's lines
/// are prefetched kRowPrefetchBytes ahead, or with kNextPass where the next pass reads them,
/// `next_pass_bytes` on, into L2. With kWatchNaN, returns whether any loaded element was NaN.
template <int kCount, bool kWatchNaN, bool kNextPass, class T, class DA, class Step>
HWY_INLINE bool AccumulateSteps(DA da, Step step, const T* const* rows, hn::TFromD<DA>* acc, std::int64_t width,
                                hn::Vec<DA> identity, std::int64_t next_pass_bytes) {
  static_assert(kCount >= 1 && kCount <= kOuterPassSteps);
  using V = hn::Vec<DA>;
  const auto N = static_cast<std::int64_t>(hn::Lanes(da));
  // NaN probe: a running sum of everything loaded is NaN if any input was (or, rarely, if
  // infinities of both signs met: then the caller only takes the exact path needlessly).
  V probe = hn::Zero(da);
  const auto add = [](V a, V b) { return hn::Add(a, b); };
  const auto combined = [&](std::int64_t i, auto load) {
    V x[kCount];
    for (int r = 0; r < kCount; ++r) x[r] = load(rows[r] + i);
    if constexpr (kWatchNaN) probe = hn::Add(probe, Tree<0, kCount>(add, x));
    return Tree<0, kCount>(step, x);
  };
  const std::int64_t full = width / N * N;
  std::int64_t i = 0;
  const auto accumulate_vector = [&](std::int64_t at) {
    hn::StoreU(step(hn::LoadU(da, acc + at), combined(at, [&](const T* p) { return LoadWide(da, p); })), da, acc + at);
  };
  // A line of each row at a time, with its prefetch.
  constexpr auto kLineVectors =
      static_cast<std::int64_t>(std::max<std::size_t>(1, 64 / (hn::MaxLanes(DA()) * sizeof(T))));
  for (; i + kLineVectors * N <= full; i += kLineVectors * N) {
    for (int r = 0; r < kCount; ++r) {
      if constexpr (kNextPass) PrefetchNextPass(rows[r] + i, next_pass_bytes);
      else PrefetchRowAhead(rows[r] + i);
    }
    for (std::int64_t v = i; v < i + kLineVectors * N; v += N) accumulate_vector(v);
  }
  for (; i < full; i += N) accumulate_vector(i);
  if (i < width) {  // the last lanes, through a buffer: neither read nor written past the tile
    const std::int64_t rest = width - i;
    HWY_ALIGN hn::TFromD<DA> tail[hn::MaxLanes(DA())];
    hn::Store(step(LoadTail(da, acc + i, rest, identity),
                   combined(i, [&](const T* p) { return LoadTail(da, p, rest, identity); })),
              da, tail);
    std::memcpy(acc + i, tail, static_cast<std::size_t>(rest) * sizeof(tail[0]));
  }
  return kWatchNaN && !hn::AllFalse(da, hn::IsNaN(probe));
}

/// outer mode: `lanes` neighbouring outputs, contiguous in the input, accumulated in place in
/// `call.accumulators` (the tile) while the reduced loops advance. Each pass over the tile reads
/// kOuterPassSteps input rows, combined in registers by a fixed tree before the tile is loaded and
/// stored once (see reduce_schedule.hpp). A shorter last pass (an uneven count of
/// steps) is one pass when it holds 2 or 4 steps, else one pass per step.
template <Reduction R, class T>
void OuterReduce(const FloatReduceCall& call) {
  using Acc = FloatCompute<T>;
  const ReduceTag<T> da;
  using Op = VectorOp<R, decltype(da)>;
  using V = hn::Vec<decltype(da)>;
  const auto N = static_cast<std::int64_t>(hn::Lanes(da));
  const V identity = Op::identity(da);
  const T* base = static_cast<const T*>(call.base);
  Acc* acc = static_cast<Acc*>(call.accumulators);
  const std::int64_t width = call.lanes;
  const Loop* loops = call.red_loops;
  const int rank = call.red_rank;
  std::int64_t reduced = 1;
  for (int d = 0; d < rank; ++d) reduced *= loops[d].extent;
  // Pairwise sums: one tile per cascade level actually needed, kept by the thread between calls
  // (tiles reach 64 KB: a fresh allocation per call would fault its pages in every time). It
  // grows to the largest levels x tile seen: up to 64 KB more per doubling of the steps past 64.
  int levels = 0;
  for (std::int64_t blocks = (reduced + kBlockSteps - 1) / kBlockSteps; blocks > 1; blocks = (blocks + 1) / 2) ++levels;
  static thread_local std::vector<Acc> cascade_storage;
  if constexpr (Op::kPairwise) {
    const auto needed = static_cast<std::size_t>(levels * width);
    if (cascade_storage.size() < needed) cascade_storage.resize(needed);
  }
  Acc* cascade = cascade_storage.data();
  std::uint64_t occupied = 0;
  const auto fill = [&](Acc* tile, V value) {
    std::int64_t j = 0;
    for (; j + N <= width; j += N) hn::StoreU(value, da, tile + j);
    for (; j < width; ++j) tile[j] = hn::GetLane(value);
  };
  // tile := tile + other (a cascade step), whole vectors then single lanes.
  const auto add_into = [&](Acc* tile, const Acc* other) {
    std::int64_t j = 0;
    for (; j + N <= width; j += N) hn::StoreU(hn::Add(hn::LoadU(da, tile + j), hn::LoadU(da, other + j)), da, tile + j);
    for (; j < width; ++j) tile[j] += other[j];
  };

  // min/max take the plain x86 step (which lets NaN go) and only note whether a NaN went by; a
  // tile that saw one is reduced again with the exact step, where NaN wins and stays.
  const auto fast_step = [](V a, V x) { return Op::step(a, x); };
  const auto exact_step = [](V a, V x) {
    return hn::IfThenElse(hn::Or(hn::IsNaN(a), hn::IsNaN(x)), hn::Add(a, x), Op::step(a, x));
  };
  // Returns whether a NaN went by (only watched with kWatchNaN).
  const auto reduce_tile = [&]<bool kWatchNaN>(auto step) {
    bool nan_seen = false;
    fill(acc, identity);
    occupied = 0;
    std::int64_t steps_in_block = 0;
    ReducedSteps steps(loops, rank);
    static_assert(kBlockSteps % kOuterPassSteps == 0 && kBlockSteps % kSequentialPassSteps<T> == 0,
                  "passes must not straddle pairwise blocks");
    const bool sequential = call.sequential_steps;
    const std::int64_t pass_steps = sequential ? kSequentialPassSteps<T> : kOuterPassSteps;
    for (std::int64_t remaining = reduced; remaining > 0;) {
      const std::int64_t group = std::min<std::int64_t>(pass_steps, remaining);
      const T* rows[kOuterPassSteps];
      for (std::int64_t g = 0; g < group; ++g, steps.next()) rows[g] = base + steps.offset;
      // Sequential steps: the next pass's rows start `group` rows on (past the innermost loop's
      // end that prefetch is wasted, once per run of the loop).
      const std::int64_t next_pass_bytes = group * loops[rank - 1].in_stride * static_cast<std::int64_t>(sizeof(T));
      if (sequential && group == 2) {
        nan_seen |= AccumulateSteps<2, kWatchNaN, true, T>(da, step, rows, acc, width, identity, next_pass_bytes);
      } else if (sequential) {
        nan_seen |= AccumulateSteps<1, kWatchNaN, true, T>(da, step, rows, acc, width, identity, next_pass_bytes);
      } else if (group == 8) {
        nan_seen |= AccumulateSteps<8, kWatchNaN, false, T>(da, step, rows, acc, width, identity, 0);
      } else if (group == 4) {
        nan_seen |= AccumulateSteps<4, kWatchNaN, false, T>(da, step, rows, acc, width, identity, 0);
      } else if (group == 2) {
        nan_seen |= AccumulateSteps<2, kWatchNaN, false, T>(da, step, rows, acc, width, identity, 0);
      } else {
        for (std::int64_t g = 0; g < group; ++g)
          nan_seen |= AccumulateSteps<1, kWatchNaN, false, T>(da, step, rows + g, acc, width, identity, 0);
      }
      remaining -= group;
      if constexpr (Op::kPairwise) {
        steps_in_block += group;
        if (steps_in_block == kBlockSteps && remaining > 0) {  // into the cascade, a binary counter
          int level = 0;
          for (; (occupied >> level) & 1u; ++level) {
            add_into(acc, cascade + static_cast<std::size_t>(level) * static_cast<std::size_t>(width));
            occupied &= ~(std::uint64_t{1} << level);
          }
          std::memcpy(cascade + static_cast<std::size_t>(level) * static_cast<std::size_t>(width), acc,
                      static_cast<std::size_t>(width) * sizeof(Acc));
          occupied |= std::uint64_t{1} << level;
          fill(acc, identity);
          steps_in_block = 0;
        }
      }
    }
    if constexpr (Op::kPairwise) {  // the last block, then the levels from low to high
      for (int level = 0; level < levels; ++level)
        if ((occupied >> level) & 1u)
          add_into(acc, cascade + static_cast<std::size_t>(level) * static_cast<std::size_t>(width));
    }
    return nan_seen;
  };
  if constexpr (Op::kExtremum) {
    if (reduce_tile.template operator()<true>(fast_step)) reduce_tile.template operator()<false>(exact_step);
  } else {
    reduce_tile.template operator()<false>(fast_step);
  }
}

template <class T, bool kInner>
void ReduceTyped(const FloatReduceCall& call) {
  visit_reduction(call.reduction, [&](auto reduction) {
    // A mean accumulates as a sum (reduce.cpp's finish divides): one kernel for both, a fifth
    // less code to compile per target. The rest (any/all) take the scalar path.
    constexpr Reduction R = decltype(reduction)::value;
    constexpr Reduction K = ReduceOp<R, T>::accumulates_as;
    if constexpr (float_kernel_runs_v<R, T>) {
      if constexpr (kInner) InnerReduce<K, T>(call);
      else OuterReduce<K, T>(call);
    }
  });
}

template <bool kInner>
void ReduceFloat(const FloatReduceCall& call) {
  visit_floating_dtype(call.type, [&](auto tag) { ReduceTyped<decltype(tag), kInner>(call); });
}

void ReduceFloatInner(const FloatReduceCall& call) { ReduceFloat<true>(call); }
void ReduceFloatOuter(const FloatReduceCall& call) { ReduceFloat<false>(call); }

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(ReduceFloatInner);
HWY_EXPORT(ReduceFloatOuter);

FloatReduceKernel float_reduce_kernel(ReduceMode mode) {
  // The function chosen for this CPU: its address is taken once per call, called once per output.
  choose_simd_target();
  return mode == ReduceMode::inner ? &HWY_DYNAMIC_DISPATCH(ReduceFloatInner) : &HWY_DYNAMIC_DISPATCH(ReduceFloatOuter);
}

}  // namespace einops::detail
#endif
