// Window mode (reduce_schedule.hpp): non-overlapping pooling windows reduced in registers while
// the input streams through once, compiled once per instruction set (Highway) and chosen at run
// time. An output line holds `pixels` pixels of `group` channels; its window rows are read side by
// side, and each output is combined in the scalar path's order (rows outermost first, then the
// window's elements), in ReduceOp's accumulator type, so results are bit-identical to it.
// A line is cut into whole vectors of outputs in one of four ways:
// - interleaved: pixels of 1, 2, 4 or 8 bytes and windows of 2 to 4: LoadInterleaved2/3/4 on
//   lanes as wide as a pixel split the window's elements (NCHW, or NHWC with 2, 4 or 8 channels);
// - direct: groups of at least a vector: plain loads at each element of the window (NHWC);
// - planar: 3 channels (NHWC RGB) and windows of 2 or 4: LoadInterleaved3 splits pixels into
//   channel planes, ConcatEven/ConcatOdd split each plane by window element, and
//   StoreInterleaved3 writes the outputs back as pixels;
// - compact: other small groups: every input position p combines the window starting there, and
//   the positions that start a pixel's window are kept (compressed into place with a mask per
//   phase of the walk, or picked lane by lane where the phases are many).
// Interleaved, direct and planar lines end with an overlapping vector (outputs recomputed
// identically); compact lines, and lines shorter than a vector, end on the scalar path's own steps.
// One file on purpose, though past 600 lines: the four line shapes share the widening, the
// combination (exact or ordered) and the stores, compiled once per instruction set.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "prefetch.hpp"
#include "reduce_ops.hpp"
#include "reduce_schedule.hpp"
#include "simd_dispatch.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/window_reduce_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "half_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// Short lines of 4- and 8-byte elements (NCHW float32 maps) have their window rows
/// prefetched into L2 this many bytes ahead of the line being reduced; the hardware prefetchers
/// alone leave their loads waiting. Lines longer than half of it (NHWC lines of many channels,
/// 3-channel image rows) and narrower elements are left to the hardware prefetchers: a burst of
/// prefetches per long line, or per cheap line of bytes, costs more than it saves.
constexpr std::int64_t kLinePrefetchBytes = 4096;
constexpr std::int64_t kMinPrefetchedElementBytes = 4;
constexpr std::uintptr_t kCacheLineBytes = 64;

/// Most rows of one window: each row holds at least two elements.
constexpr std::int64_t kMaxWindowRows = kMaxWindowElements / 2;

/// Lanes that carry the input: 16-bit floats as their bits, bool as bytes.
template <class T>
using InLane =
    std::conditional_t<is_half_v<T>, std::uint16_t, std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>;

/// any/all: accumulators are truths.
template <Reduction R, class T>
inline constexpr bool kLogical = ReduceOp<R, T>::vector_combine == VectorCombine::logical_or ||
                                 ReduceOp<R, T>::vector_combine == VectorCombine::logical_and;

/// Lanes that carry the accumulators: ReduceOp's accumulator, except bool ones: any/all as
/// all-ones truths as wide as the input lanes, bool min/max as 0/1 bytes.
template <Reduction R, class T, class Acc = typename ReduceOp<R, T>::Acc>
using AccLane = std::conditional_t<kLogical<R, T>, hwy::UnsignedFromSize<sizeof(InLane<T>)>,
                                   std::conditional_t<std::is_same_v<Acc, bool>, std::uint8_t, Acc>>;

/// Loads are capped at 256 bits, as in reduce_simd.cpp (unaligned 512-bit loads split lines).
template <Reduction R, class T>
using WindowTag = hn::CappedTag<AccLane<R, T>, 32 / sizeof(AccLane<R, T>)>;

/// Sums, means and products: their arithmetic quiets a NaN input whichever way it was widened.
template <Reduction R, class T>
inline constexpr bool kArithmetic =
    ReduceOp<R, T>::vector_combine == VectorCombine::add || ReduceOp<R, T>::vector_combine == VectorCombine::multiply;

/// Input lanes to accumulator lanes, as ReduceOp::convert does to one element.
template <Reduction R, class T, class DA>
HWY_INLINE hn::Vec<DA> Widen(DA da, hn::Vec<hn::Rebind<InLane<T>, DA>> x) {
  using A = hn::TFromD<DA>;
  using L = InLane<T>;
  const hn::Rebind<L, DA> dl;
  if constexpr (kLogical<R, T>) {
    // Non-zero is true; NaN too (an unordered "not equal"). A 16-bit float is zero when its
    // bits are, sign aside.
    if constexpr (is_half_v<T>) x = hn::And(x, hn::Set(dl, L{0x7fff}));
    return hn::BitCast(da, hn::VecFromMask(dl, hn::Not(hn::Eq(x, hn::Zero(dl)))));
  } else if constexpr (std::is_same_v<L, A>) {
    return x;
  } else if constexpr (std::is_same_v<T, float16>) {
    // min and max return a NaN input's bits unchanged: they take the exact widening.
    if constexpr (kArithmetic<R, T>) return HalfBitsToFloat(da, x);
    else return HalfBitsToFloatExact(da, x);
  } else if constexpr (std::is_same_v<T, bfloat16>) {
    return Bfloat16BitsToFloat(da, x);
  } else {  // integer and bool sums: 64-bit lanes, sign-extended as the scalar conversion
    static_assert(sizeof(A) == 8);
    using Wide = std::conditional_t<std::is_signed_v<L>, std::int64_t, std::uint64_t>;
    using Mid = std::conditional_t<std::is_signed_v<L>, std::int32_t, std::uint32_t>;
    const hn::Rebind<Wide, DA> dw;
    if constexpr (sizeof(L) == 8) {
      return hn::BitCast(da, x);
    } else if constexpr (sizeof(L) == 4) {
      return hn::BitCast(da, hn::PromoteTo(dw, x));
    } else {
      return hn::BitCast(da, hn::PromoteTo(dw, hn::PromoteTo(hn::Rebind<Mid, DA>(), x)));
    }
  }
}

/// ReduceOp::combine(a, b) lane-wise, for the ReduceOp's vector_combine C: NaN wins min and
/// max, the earlier one first.
template <VectorCombine C, class DA>
HWY_INLINE hn::Vec<DA> Step(hn::Vec<DA> a, hn::Vec<DA> b) {
  using A = hn::TFromD<DA>;
  static_assert(C != VectorCombine::none, "the window kernels run reductions with a vector combine");
  constexpr bool kMax = C == VectorCombine::maximum;
  if constexpr (C == VectorCombine::add) {
    return hn::Add(a, b);
  } else if constexpr (C == VectorCombine::multiply) {
    return hn::Mul(a, b);
  } else if constexpr (C == VectorCombine::logical_or) {
    return hn::Or(a, b);
  } else if constexpr (C == VectorCombine::logical_and) {
    return hn::And(a, b);
  } else if constexpr (std::is_floating_point_v<A>) {
    const auto better = kMax ? hn::Gt(b, a) : hn::Lt(b, a);
    return hn::IfThenElse(hn::Or(better, hn::AndNot(hn::IsNaN(a), hn::IsNaN(b))), b, a);
  } else {
    return kMax ? hn::Max(a, b) : hn::Min(a, b);
  }
}

/// The first element of a window: combined with the identity, except where that gives the
/// element itself bit for bit (min, max, any, all), and so is skipped.
template <VectorCombine C, class DA>
HWY_INLINE hn::Vec<DA> First(DA da, hn::Vec<DA> x) {
  if constexpr (C == VectorCombine::add) return hn::Add(hn::Zero(da), x);  // -0 becomes +0
  if constexpr (C == VectorCombine::multiply) return hn::Mul(hn::Set(da, hn::TFromD<DA>{1}), x);
  return x;
}

/// Floating min and max have a cheaper pass: without NaN, the scalar combine is "take b where b
/// beats a", two instructions instead of six. The sum of every element combined is carried
/// beside it; it is NaN exactly when an input was NaN (or when infinities of both signs met), and
/// then the vector is combined again the exact way.
template <VectorCombine C, class DA>
inline constexpr bool kOrderedPass =
    (C == VectorCombine::minimum || C == VectorCombine::maximum) && std::is_floating_point_v<hn::TFromD<DA>>;

/// One vector's combination, exact (Step) or ordered (see kOrderedPass).
template <VectorCombine C, class DA, bool kOrdered>
struct Combination {
  using V = hn::Vec<DA>;
  V check;

  HWY_INLINE explicit Combination(DA da) : check(hn::Zero(da)) {}

  HWY_INLINE V first(DA da, V x) {
    if constexpr (kOrdered) check = x;
    return First<C>(da, x);
  }
  HWY_INLINE V step(V a, V b) {
    if constexpr (kOrdered) {
      check = hn::Add(check, b);
      return hn::IfThenElse(C == VectorCombine::maximum ? hn::Gt(b, a) : hn::Lt(b, a), b, a);
    } else {
      return Step<C, DA>(a, b);
    }
  }
  /// False when the ordered pass may differ from the exact one.
  HWY_INLINE bool holds() const {
    if constexpr (kOrdered) return hn::AllFalse(DA(), hn::IsNaN(check));
    return true;
  }
};

/// `pass(combination)` with the ordered combination where it applies and holds, else exact.
template <VectorCombine C, class DA, class Pass>
HWY_INLINE hn::Vec<DA> Combined(Pass pass) {
  if constexpr (kOrderedPass<C, DA>) {
    Combination<C, DA, true> ordered{DA()};
    const hn::Vec<DA> v = pass(ordered);
    if (ordered.holds()) return v;
  }
  Combination<C, DA, false> exact{DA()};
  return pass(exact);
}

/// How whole vectors of a line's outputs are formed (see the top of this file).
enum class LineShape { interleaved, direct, planar, compact, scalar };

/// The channel count of the planar shape (see the top of this file), and the narrowest vectors it
/// runs on.
constexpr std::int64_t kPlanarChannels = 3;
constexpr std::size_t kPlanarMinVectorBytes = 16;

/// Lines of windows reduced with accumulator vectors of tag DA (WindowTag, or a narrower one for
/// lines shorter than its vectors).
template <Reduction R, class T, class DA_ = WindowTag<R, T>>
class WindowLines {
 public:
  using Op = ReduceOp<R, T>;
  using Acc = typename Op::Acc;
  using L = InLane<T>;
  using DA = DA_;
  using DL = hn::Rebind<L, DA>;
  using V = hn::Vec<DA>;

  explicit WindowLines(const WindowReduceCall& call)
      : window_(call.window), group_(call.group), outputs_(call.pixels * call.group), divisor_(call.divisor) {
    ReducedSteps steps(call.row_loops, call.row_rank);
    do offsets_[rows_++] = steps.offset;
    while (steps.next());
    const auto pixel_bytes = static_cast<std::size_t>(group_) * sizeof(L);
    if (window_ <= 4 && group_ <= N() && (pixel_bytes == 1 || pixel_bytes == 2 || pixel_bytes == 4 || pixel_bytes == 8))
      shape_ = LineShape::interleaved;
    else if (group_ >= N()) shape_ = LineShape::direct;
    else if (kPlanarLanes && group_ == kPlanarChannels && (window_ == 2 || window_ == 4)) shape_ = LineShape::planar;
    else shape_ = LineShape::compact;
    if (shape_ == LineShape::compact) TabulateKeptLanes();
  }

  /// Prefetches into L2 every cache line of the window rows of the line whose first element is
  /// `in` (which may lie past the input: addresses are integers, and a prefetch never faults).
  HWY_INLINE void Prefetch(const L* in) const {
    const auto first = reinterpret_cast<std::uintptr_t>(in);
    const auto row_bytes = static_cast<std::uintptr_t>(RowBytes());
    for (std::int64_t r = 0; r < rows_; ++r) {
      const std::uintptr_t row = first + static_cast<std::uintptr_t>(offsets_[r]) * sizeof(L);
      for (std::uintptr_t b = 0; b < row_bytes; b += kCacheLineBytes) prefetch_to_l2(row + b);
    }
  }
  /// The bytes of one window row of a line.
  std::int64_t RowBytes() const { return outputs_ * window_ * static_cast<std::int64_t>(sizeof(L)); }
  /// Lines between a line's prefetch and its reduction, or 0 when its lines are not prefetched.
  std::int64_t PrefetchDistance() const {
    const std::int64_t bytes = rows_ * RowBytes();
    if (sizeof(L) < kMinPrefetchedElementBytes || bytes == 0 || 2 * bytes > kLinePrefetchBytes) return 0;
    return kLinePrefetchBytes / bytes;
  }

  /// One line: `in` is its first row's first element, `out` its first accumulator.
  void Run(const L* in, Acc* out) const {
    std::int64_t done = 0;
    if (outputs_ >= N()) {
      switch (shape_) {
        case LineShape::interleaved: done = Interleaved(in, out); break;
        case LineShape::direct: done = Direct(in, out); break;
        case LineShape::planar: done = window_ == 2 ? Planar<2>(in, out) : Planar<4>(in, out); break;
        case LineShape::compact: done = Compact(in, out); break;
        case LineShape::scalar: break;
      }
    }
    for (std::int64_t o = done; o < outputs_; ++o) out[o] = ScalarOutput(in, o);
  }

 private:
  static std::int64_t N() { return static_cast<std::int64_t>(hn::Lanes(DA())); }

  /// The scalar path's steps for output o.
  Acc ScalarOutput(const L* in, std::int64_t o) const {
    const T* first = reinterpret_cast<const T*>(in) + (o / group_) * window_ * group_ + o % group_;
    Acc acc = Op::identity();
    for (std::int64_t r = 0; r < rows_; ++r)
      for (std::int64_t j = 0; j < window_; ++j) acc = Op::combine(acc, Op::convert(first[offsets_[r] + j * group_]));
    if constexpr (std::is_floating_point_v<Acc>) {
      if (divisor_ > 0) acc = acc / static_cast<Acc>(divisor_);
    }
    return acc;
  }

  /// Writes lanes [0, count) of accumulator lanes `v` (a mean's divisor applied first).
  HWY_INLINE void Store(V v, Acc* out, std::int64_t count) const {
    const DA da;
    if constexpr (std::is_floating_point_v<Acc>) {
      if (divisor_ > 0) v = hn::Div(v, hn::Set(da, static_cast<Acc>(divisor_)));
    }
    if constexpr (std::is_same_v<Acc, bool> && sizeof(AccLane<R, T>) == 1) {
      v = hn::And(v, hn::Set(da, std::uint8_t{1}));  // truths become bool's 0/1 bytes
      if (count == N()) return hn::StoreU(v, da, reinterpret_cast<std::uint8_t*>(out));
    } else if constexpr (!std::is_same_v<Acc, bool>) {
      if (count == N()) return hn::StoreU(v, da, out);
    }
    HWY_ALIGN AccLane<R, T> lanes[hn::MaxLanes(DA())];
    hn::Store(v, da, lanes);
    for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<Acc>(lanes[i]);
  }

  /// Combines element `j` of every window row, loaded by load(row, j), in the scalar order.
  template <class Load>
  HWY_INLINE V Combine(std::int64_t window, Load load) const {
    return Combined<Op::vector_combine, DA>([&](auto& combination) {
      const DA da;
      V acc = combination.first(da, load(offsets_[0], 0));
      for (std::int64_t j = 1; j < window; ++j) acc = combination.step(acc, load(offsets_[0], j));
      for (std::int64_t r = 1; r < rows_; ++r)
        for (std::int64_t j = 0; j < window; ++j) acc = combination.step(acc, load(offsets_[r], j));
      return acc;
    });
  }

  template <int kWindow>
  std::int64_t InterleavedWindow(const L* in, Acc* out) const {
    switch (group_ * static_cast<std::int64_t>(sizeof(L))) {
      case 1: return InterleavedPixels<kWindow, std::uint8_t>(in, out);
      case 2: return InterleavedPixels<kWindow, std::uint16_t>(in, out);
      case 4: return InterleavedPixels<kWindow, std::uint32_t>(in, out);
      default: return InterleavedPixels<kWindow, std::uint64_t>(in, out);
    }
  }
  std::int64_t Interleaved(const L* in, Acc* out) const {
    switch (window_) {
      case 2: return InterleavedWindow<2>(in, out);
      case 3: return InterleavedWindow<3>(in, out);
      default: return InterleavedWindow<4>(in, out);
    }
  }

  /// Pixels as lanes: LoadInterleaved splits each row's vectors by window element.
  template <int kWindow, class Pixel>
  std::int64_t InterleavedPixels(const L* in, Acc* out) const {
    if constexpr (sizeof(Pixel) < sizeof(L) || sizeof(Pixel) > hn::MaxLanes(DL()) * sizeof(L)) {
      return 0;  // not a shape of this lane type (the constructor never chooses it)
    } else {
      const DA da;
      const DL dl;
      const hn::Repartition<Pixel, DL> dp;
      using VP = hn::Vec<decltype(dp)>;
      // Output o starts a pixel (o is a multiple of the group), whose window starts at o * window.
      const auto vector_at = [&](std::int64_t o) {
        return Combined<Op::vector_combine, DA>([&](auto& combination) {
          const auto take = [&](V acc, bool first, VP split) {
            const V x = Widen<R, T>(da, hn::BitCast(dl, split));
            return first ? combination.first(da, x) : combination.step(acc, x);
          };
          const auto row = [&](V acc, std::int64_t r) {
            const auto* p = reinterpret_cast<const Pixel*>(in + offsets_[r] + o * kWindow);
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
            // The emulated targets read Pixel-typed memory as C++ objects, which must be aligned:
            // they read an aligned copy of the row's pixels instead.
            alignas(16) Pixel aligned[kWindow * hn::MaxLanes(dp)];
            std::memcpy(aligned, p, sizeof aligned);
            p = aligned;
#endif
            if constexpr (kWindow == 2) {
              VP s0, s1;
              hn::LoadInterleaved2(dp, p, s0, s1);
              return take(take(acc, r == 0, s0), false, s1);
            } else if constexpr (kWindow == 3) {
              VP s0, s1, s2;
              hn::LoadInterleaved3(dp, p, s0, s1, s2);
              return take(take(take(acc, r == 0, s0), false, s1), false, s2);
            } else {
              VP s0, s1, s2, s3;
              hn::LoadInterleaved4(dp, p, s0, s1, s2, s3);
              return take(take(take(take(acc, r == 0, s0), false, s1), false, s2), false, s3);
            }
          };
          V acc = row(hn::Zero(da), 0);
          for (std::int64_t r = 1; r < rows_; ++r) acc = row(acc, r);
          return acc;
        });
      };
      std::int64_t o = 0;
      for (; o + N() <= outputs_; o += N()) Store(vector_at(o), out + o, N());
      if (o < outputs_) Store(vector_at(outputs_ - N()), out + outputs_ - N(), N());
      return outputs_;
    }
  }

  /// Groups of at least a vector: each pixel's channels in vectors, the last one overlapping.
  std::int64_t Direct(const L* in, Acc* out) const {
    const DA da;
    const DL dl;
    const std::int64_t pixels = outputs_ / group_;
    for (std::int64_t x = 0; x < pixels; ++x) {
      const L* pixel = in + x * window_ * group_;
      for (std::int64_t c = 0;; c += N()) {
        c = std::min(c, group_ - N());
        Store(Combine(window_,
                      [&](std::int64_t row, std::int64_t j) {
                        return Widen<R, T>(da, hn::LoadU(dl, pixel + row + j * group_ + c));
                      }),
              out + x * group_ + c, N());
        if (c == group_ - N()) break;
      }
    }
    return outputs_;
  }

  /// Whether the planar shape applies to these lanes: accumulators stored as they are held (not
  /// bool's bytes), as wide as the input (integer sums widen to 64 bits and keep the compact
  /// shape) or floats from 16-bit floats, in whole 128-bit or wider vectors (those that
  /// ConcatEven/ConcatOdd take).
  static constexpr bool kPlanarLanes =
      HWY_TARGET != HWY_SCALAR && std::is_same_v<AccLane<R, T>, Acc> &&
      (sizeof(L) == sizeof(Acc) || is_half_v<T>)&&hn::MaxLanes(DA()) * sizeof(AccLane<R, T>) >= kPlanarMinVectorBytes;

  /// 3-channel pixels, windows of kWindow along the line: N output pixels at a time, each
  /// window row read as kWindow·N pixels split into channel planes, the planes split by window
  /// element. Returns how many outputs it wrote (all, the last vector overlapping), or 0 when the
  /// line has fewer than N output pixels.
  template <int kWindow>
  std::int64_t Planar(const L* in, Acc* out) const {
#if HWY_TARGET == HWY_SCALAR
    (void)in;
    (void)out;
    return 0;  // no such lanes here (kPlanarLanes)
#else
    if constexpr (!kPlanarLanes) {
      return 0;  // the constructor never chooses it
    } else {
      const DA da;
      const DL dl;
      const std::int64_t pixels = outputs_ / kPlanarChannels;
      if (pixels < N()) return 0;
      // Element j of each of N windows, channel c, of the window row at `row`, widened.
      const auto split = [&](std::int64_t row, std::int64_t x, V(&element)[kWindow][kPlanarChannels]) {
        V plane[kWindow][kPlanarChannels];
        const L* first = in + row + x * kWindow * kPlanarChannels;
        for (int part = 0; part < kWindow; ++part) {
          hn::Vec<DL> c0, c1, c2;
          hn::LoadInterleaved3(dl, first + part * N() * kPlanarChannels, c0, c1, c2);
          plane[part][0] = Widen<R, T>(da, c0);
          plane[part][1] = Widen<R, T>(da, c1);
          plane[part][2] = Widen<R, T>(da, c2);
        }
        for (int c = 0; c < kPlanarChannels; ++c) {
          if constexpr (kWindow == 2) {
            element[0][c] = hn::ConcatEven(da, plane[1][c], plane[0][c]);
            element[1][c] = hn::ConcatOdd(da, plane[1][c], plane[0][c]);
          } else {
            const V even_lo = hn::ConcatEven(da, plane[1][c], plane[0][c]),
                    odd_lo = hn::ConcatOdd(da, plane[1][c], plane[0][c]);
            const V even_hi = hn::ConcatEven(da, plane[3][c], plane[2][c]),
                    odd_hi = hn::ConcatOdd(da, plane[3][c], plane[2][c]);
            element[0][c] = hn::ConcatEven(da, even_hi, even_lo);
            element[1][c] = hn::ConcatEven(da, odd_hi, odd_lo);
            element[2][c] = hn::ConcatOdd(da, even_hi, even_lo);
            element[3][c] = hn::ConcatOdd(da, odd_hi, odd_lo);
          }
        }
      };
      const auto block_at = [&](std::int64_t x) {
        V element[kMaxWindowRows][kWindow][kPlanarChannels];
        for (std::int64_t r = 0; r < rows_; ++r) split(offsets_[r], x, element[r]);
        V result[kPlanarChannels];
        for (int c = 0; c < kPlanarChannels; ++c) {
          result[c] = Combined<Op::vector_combine, DA>([&](auto& combination) {
            V acc = combination.first(da, element[0][0][c]);
            for (int j = 1; j < kWindow; ++j) acc = combination.step(acc, element[0][j][c]);
            for (std::int64_t r = 1; r < rows_; ++r)
              for (int j = 0; j < kWindow; ++j) acc = combination.step(acc, element[r][j][c]);
            return acc;
          });
        }
        if constexpr (std::is_floating_point_v<Acc>) {
          if (divisor_ > 0)
            for (V& v : result) v = hn::Div(v, hn::Set(da, static_cast<Acc>(divisor_)));
        }
        hn::StoreInterleaved3(result[0], result[1], result[2], da, out + x * kPlanarChannels);
      };
      std::int64_t x = 0;
      for (; x + N() <= pixels; x += N()) block_at(x);
      if (x < pixels) block_at(pixels - N());
      return outputs_;
    }
#endif
  }

  /// Groups below a vector: each input position p combines the window of elements p + j * group;
  /// positions p with p mod (window * group) < group start a pixel's window and are kept, in
  /// order. Returns how many outputs it wrote (the first ones).
  std::int64_t Compact(const L* in, Acc* out) const {
    if constexpr (std::is_same_v<AccLane<R, T>, Acc>) {
      if (kept_phases_ > 0) return CompactCompressed(in, out);
    }
    const DA da;
    const DL dl;
    const std::int64_t period = window_ * group_;
    const std::int64_t span = outputs_ * window_;  // input elements of a row of the line
    std::int64_t produced = 0;
    std::int64_t phase = 0;  // p mod period
    HWY_ALIGN AccLane<R, T> lanes[hn::MaxLanes(DA())];
    for (std::int64_t p = 0; p + N() + (window_ - 1) * group_ <= span; p += N()) {
      const V v = Combine(window_, [&](std::int64_t row, std::int64_t j) {
        return Widen<R, T>(da, hn::LoadU(dl, in + row + p + j * group_));
      });
      hn::Store(v, da, lanes);
      std::int64_t position = phase;
      for (std::int64_t i = 0; i < N(); ++i) {
        if (position < group_) {
          Acc value = static_cast<Acc>(lanes[i]);
          if constexpr (std::is_floating_point_v<Acc>) {
            if (divisor_ > 0) value = value / static_cast<Acc>(divisor_);
          }
          out[produced++] = value;
        }
        if (++position == period) position = 0;
      }
      phase = position;
    }
    return produced;
  }

  /// The compact walk's vectors start at positions p = 0, N, 2N, ...: their phases p mod
  /// (window * group) repeat with a period, and each phase keeps the same lanes. Records the
  /// kept lanes of each phase as mask bits, or leaves kept_phases_ at 0 when the period is long.
  void TabulateKeptLanes() {
    const std::int64_t period = window_ * group_;
    std::int64_t phase = 0;
    do {
      std::uint64_t bits = 0;
      for (std::int64_t i = 0; i < N(); ++i)
        if ((phase + i) % period < group_) bits |= std::uint64_t{1} << i;
      kept_lanes_[kept_phases_++] = bits;
      phase = (phase + N()) % period;
    } while (phase != 0 && kept_phases_ < kMaxKeptPhases);
    if (phase != 0) kept_phases_ = 0;
  }

  /// Compact with the kept lanes compressed into place (see TabulateKeptLanes).
  std::int64_t CompactCompressed(const L* in, Acc* out) const {
    const DA da;
    const DL dl;
    const std::int64_t span = outputs_ * window_;
    std::int64_t produced = 0;
    std::int64_t phase = 0;
    for (std::int64_t p = 0; p + N() + (window_ - 1) * group_ <= span; p += N()) {
      V v = Combine(window_, [&](std::int64_t row, std::int64_t j) {
        return Widen<R, T>(da, hn::LoadU(dl, in + row + p + j * group_));
      });
      if constexpr (std::is_floating_point_v<Acc>) {
        if (divisor_ > 0) v = hn::Div(v, hn::Set(da, static_cast<Acc>(divisor_)));
      }
      const auto kept = hn::LoadMaskBits(da, reinterpret_cast<const std::uint8_t*>(&kept_lanes_[phase]));
      produced += static_cast<std::int64_t>(hn::CompressBlendedStore(v, kept, da, out + produced));
      if (++phase == kept_phases_) phase = 0;
    }
    return produced;
  }

  /// Most phases TabulateKeptLanes records (a period of up to 64 vectors).
  static constexpr std::int64_t kMaxKeptPhases = 64;

  std::int64_t window_, group_, outputs_, divisor_;
  std::int64_t offsets_[kMaxWindowRows] = {};
  std::int64_t rows_ = 0;
  LineShape shape_ = LineShape::scalar;
  std::uint64_t kept_lanes_[kMaxKeptPhases] = {};
  std::int64_t kept_phases_ = 0;
};

template <Reduction R, class T, class DA>
void ReduceLines(const WindowReduceCall& call) {
  const WindowLines<R, T, DA> lines(call);
  using Acc = typename ReduceOp<R, T>::Acc;
  const auto* in = static_cast<const InLane<T>*>(call.base);
  auto* out = static_cast<Acc*>(call.accumulators);
  const std::int64_t ahead = lines.PrefetchDistance();
  for (std::int64_t line = 0; line < call.lines; ++line) {
    if (ahead > 0 && line + ahead < call.lines) lines.Prefetch(in + (line + ahead) * call.line_in_stride);
    lines.Run(in + line * call.line_in_stride, out + line * call.line_out_stride);
  }
}

/// Lines with fewer outputs than a vector (28 of a 56-wide map, against 32 uint8 lanes) take
/// vectors of half the width, rather than the scalar path for the whole line.
template <Reduction R, class T>
void ReduceWindowsTyped(const WindowReduceCall& call) {
  using DA = WindowTag<R, T>;
  if constexpr (HWY_TARGET != HWY_SCALAR && hn::MaxLanes(DA()) > 1) {
    const std::int64_t outputs = call.pixels * call.group;
    if (outputs < static_cast<std::int64_t>(hn::Lanes(DA()))) return ReduceLines<R, T, hn::Half<DA>>(call);
  }
  ReduceLines<R, T, DA>(call);
}

template <class T>
void ReduceWindowsOf(const WindowReduceCall& call) {
  visit_reduction(call.reduction, [&](auto reduction) {
    // A mean accumulates as a sum and divides by call.divisor. The schedule sends only the
    // reductions these kernels run (window_kernel_runs_v: no integer products).
    constexpr Reduction R = decltype(reduction)::value;
    if constexpr (window_kernel_runs_v<R, T>) ReduceWindowsTyped<ReduceOp<R, T>::accumulates_as, T>(call);
  });
}

void ReduceWindows(const WindowReduceCall& call) {
  visit_dtype(call.type, [&](auto tag) { ReduceWindowsOf<decltype(tag)>(call); });
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(ReduceWindows);

WindowReduceKernel window_reduce_kernel() {
  choose_simd_target();
  return &HWY_DYNAMIC_DISPATCH(ReduceWindows);
}

}  // namespace einops::detail
#endif
