// Window mode (src/kernels/window_reduce_simd.cpp): non-overlapping pooling windows in NCHW and
// NHWC layouts against a reference that takes the scalar path's steps (ReduceOp, rows outermost
// first), compared bit for bit: every reduction, every element type, windows of 1 to 5 (and the
// modes beyond), lines of 1 to 17 pixels, 1 to 17 channels, odd outer lengths, padded and
// negative strides, for every SIMD target; NaN in min/max; any thread count; and that the
// pooling patterns choose the window kernel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "kernels/reduce_ops.hpp"
#include "kernels/reduce_schedule.hpp"

namespace {

using einops::DType;
using einops::Reduction;
using einops::detail::ReduceMode;
using einops::detail::ReduceOp;
using einops::detail::Walk;

constexpr Reduction kReductions[] = {Reduction::sum, Reduction::mean, Reduction::prod, Reduction::min,
                                     Reduction::max, Reduction::any,  Reduction::all};

class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { einops::detail::force_simd_target(GetParam()); }
  void TearDown() override { einops::detail::force_simd_target(""); }
};

std::string target_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

/// A pooling problem: `outer` lines of `rows` output rows of `pixels` pixels of `channels`
/// channels (NHWC) or one element (NCHW, channels == 1 and not nhwc), windows kh x kw.
struct Pooling {
  bool nhwc = false;
  std::int64_t outer = 1, out_rows = 1, pixels = 1, channels = 1, kh = 2, kw = 2;
  std::int64_t row_padding = 0, outer_padding = 0;
  bool negative_rows = false, negative_outer = false, negative_pixels = false;

  // Input strides and extent (elements), with the offset of element 0.
  std::int64_t s_channel() const { return 1; }
  std::int64_t s_pixel() const { return (negative_pixels ? -1 : 1) * (nhwc ? channels : 1); }
  std::int64_t row_length() const { return pixels * kw * (nhwc ? channels : 1) + row_padding; }
  std::int64_t s_row() const { return (negative_rows ? -1 : 1) * row_length(); }
  std::int64_t plane() const { return out_rows * kh * row_length() + outer_padding; }
  std::int64_t s_outer() const { return (negative_outer ? -1 : 1) * plane(); }
  std::int64_t size() const { return outer * plane() + 1; }
  std::int64_t base() const {
    std::int64_t b = 0;
    if (negative_outer) b += plane() * (outer - 1);
    if (negative_rows) b += row_length() * (out_rows * kh - 1);
    if (negative_pixels) b += (nhwc ? channels : 1) * (pixels * kw - 1);
    return b;
  }
  std::int64_t outputs() const { return outer * out_rows * pixels * (nhwc ? channels : 1); }

  /// As the plan gives it: output axes b h w (c), reduced axes h2 w2, then merged.
  Walk walk() const {
    Walk w;
    const std::int64_t c = nhwc ? channels : 1;
    w.push_output(outer, s_outer(), out_rows * pixels * c);
    w.push_output(out_rows, kh * s_row(), pixels * c);
    w.push_output(pixels, kw * s_pixel(), c);
    if (nhwc) w.push_output(channels, s_channel(), 1);
    w.push_reduced(kh, s_row());
    w.push_reduced(kw, s_pixel());
    w.merge();
    return w;
  }
};

template <class T>
T sample(std::mt19937_64& rng, bool with_nan) {
  if constexpr (std::is_same_v<T, bool>) {
    return rng() % 3 != 0;
  } else if constexpr (einops::is_floating_element_v<T>) {
    const auto pick = rng() % 64;
    if (with_nan && pick == 0) return static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    if (with_nan && pick == 1) return static_cast<T>(-std::numeric_limits<float>::quiet_NaN());
    if (pick == 2) return static_cast<T>(-0.0f);
    if (pick == 3) return static_cast<T>(0.0f);
    if (pick == 4) return static_cast<T>(std::numeric_limits<float>::infinity());
    if (pick < 12) return static_cast<T>(static_cast<float>(rng() % 5) - 2.0f);  // ties for min/max
    return static_cast<T>(std::uniform_real_distribution<double>(-2.0, 2.0)(rng));
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(rng());  // sums wrap around
  } else {
    return rng() % 4 == 0 ? static_cast<T>(0) : static_cast<T>(rng());
  }
}

template <class O>
double as_double(O v) {
  if constexpr (std::is_same_v<O, bool>) {
    unsigned char byte = 0;
    std::memcpy(&byte, &v, 1);
    return byte;
  } else {
    return static_cast<double>(static_cast<std::conditional_t<einops::is_floating_element_v<O>, double, O>>(v));
  }
}

/// The scalar path's result for one output: ReduceOp's steps in the reduced loops' order.
template <Reduction R, class T>
typename ReduceOp<R, T>::Out scalar_output(const T* first, const Pooling& p) {
  using Op = ReduceOp<R, T>;
  if (p.kh * p.kw == 1) return Op::finish(Op::convert(*first), 1);
  typename Op::Acc acc = Op::identity();
  for (std::int64_t r = 0; r < p.kh; ++r)
    for (std::int64_t j = 0; j < p.kw; ++j) acc = Op::combine(acc, Op::convert(first[r * p.s_row() + j * p.s_pixel()]));
  return Op::finish(acc, p.kh * p.kw);
}

template <Reduction R, class T>
void check_reduction(const Pooling& p, const T* in, const std::string& context) {
  using Out = typename ReduceOp<R, T>::Out;
  if constexpr (R == Reduction::mean && !einops::is_floating_element_v<T>) return;
  const std::int64_t n = p.outputs();
  const auto size = static_cast<std::size_t>(n) + 1;                     // one past the outputs, never written
  const std::unique_ptr<Out[]> got(new Out[size]), want(new Out[size]);  // (not vector<bool>)
  std::memset(static_cast<void*>(got.get()), 0x5a, size * sizeof(Out));  // poison
  std::memcpy(static_cast<void*>(want.get()), got.get(), size * sizeof(Out));
  einops::detail::reduce_strided(einops::dtype_v<T>, R, in, got.get(), p.walk());
  // Bit for bit where window mode or the scalar path runs (shapes window mode does not take may
  // run another mode, in its own order).
  const ReduceMode mode = einops::detail::make_reduce_schedule(einops::dtype_v<T>, R, p.walk()).mode;
  const bool same_steps = mode == ReduceMode::window || mode == ReduceMode::scalar;
  const std::int64_t c = p.nhwc ? p.channels : 1;
  std::int64_t o = 0;
  for (std::int64_t b = 0; b < p.outer; ++b)
    for (std::int64_t y = 0; y < p.out_rows; ++y)
      for (std::int64_t x = 0; x < p.pixels; ++x)
        for (std::int64_t ch = 0; ch < c; ++ch, ++o)
          want[static_cast<std::size_t>(o)] = scalar_output<R>(
              in + b * p.s_outer() + y * p.kh * p.s_row() + x * p.kw * p.s_pixel() + ch * p.s_channel(), p);
  for (std::size_t i = 0; i < size; ++i) {
    if constexpr ((R == Reduction::sum || R == Reduction::mean || R == Reduction::prod) &&
                  einops::is_floating_element_v<T>) {
      // Arithmetic on NaN leaves its sign and payload to the compiler's operand order (and a NaN
      // product is evaluated again exactly): NaN either way.
      if (std::isnan(as_double(got[i])) && std::isnan(as_double(want[i]))) continue;
    }
    if (!same_steps) {  // another mode's order (vectors): equal up to rounding, signs of zero aside
      const double g = as_double(got[i]), w = as_double(want[i]);
      if (!std::isfinite(w)) continue;  // (those modes' own tests cover infinities and NaN)
      const double tolerance = (sizeof(Out) == 2 ? 5e-2 : 1e-4) * (1.0 + std::fabs(w));
      ASSERT_TRUE(g == w || std::fabs(g - w) <= tolerance)
          << context << " " << einops::reduction_name(R) << " output " << i << ": got " << g << ", want " << w;
      continue;
    }
    ASSERT_EQ(0, std::memcmp(&got[i], &want[i], sizeof(Out)))
        << context << " " << einops::reduction_name(R) << " output " << i << " of " << n << ": got "
        << as_double(got[i]) << ", want " << as_double(want[i]);
  }
}

template <class T>
void check_pooling(const Pooling& p, std::mt19937_64& rng, const std::string& context) {
  const std::unique_ptr<T[]> buffer(new T[static_cast<std::size_t>(p.size())]);
  const bool with_nan = rng() % 2 == 0;
  for (std::int64_t i = 0; i < p.size(); ++i) buffer[static_cast<std::size_t>(i)] = sample<T>(rng, with_nan);
  const T* in = buffer.get() + p.base();
  check_reduction<Reduction::sum>(p, in, context);
  check_reduction<Reduction::mean>(p, in, context);
  check_reduction<Reduction::prod>(p, in, context);
  check_reduction<Reduction::min>(p, in, context);
  check_reduction<Reduction::max>(p, in, context);
  check_reduction<Reduction::any>(p, in, context);
  check_reduction<Reduction::all>(p, in, context);
}

template <class F>
void for_each_dtype(std::mt19937_64& rng, F&& f) {
  switch (rng() % 13) {
    case 0: return f(bool{});
    case 1: return f(std::int8_t{});
    case 2: return f(std::int16_t{});
    case 3: return f(std::int32_t{});
    case 4: return f(std::int64_t{});
    case 5: return f(std::uint8_t{});
    case 6: return f(std::uint16_t{});
    case 7: return f(std::uint32_t{});
    case 8: return f(std::uint64_t{});
    case 9: return f(double{});
    case 10: return f(einops::float16{});
    case 11: return f(einops::bfloat16{});
    default: return f(float{});
  }
}

/// check_pooling for each element type Ts in turn, the context naming the type.
template <class... Ts>
void check_pooling_each(const Pooling& p, std::mt19937_64& rng, const std::string& context) {
  (check_pooling<Ts>(p, rng, context + " " + std::string(einops::dtype_name(einops::dtype_v<Ts>))), ...);
}

std::string describe(const Pooling& p) {
  return std::string(p.nhwc ? "NHWC" : "NCHW") + " outer " + std::to_string(p.outer) + " rows " +
         std::to_string(p.out_rows) + " pixels " + std::to_string(p.pixels) + " channels " +
         std::to_string(p.channels) + " window " + std::to_string(p.kh) + "x" + std::to_string(p.kw) +
         (p.negative_rows ? " -rows" : "") + (p.negative_outer ? " -outer" : "") +
         (p.negative_pixels ? " -pixels" : "") + " padding " + std::to_string(p.row_padding) + "/" +
         std::to_string(p.outer_padding);
}

Pooling random_pooling(std::mt19937_64& rng) {
  static const std::int64_t kOuter[] = {1, 2, 3, 31, 33, 65};
  Pooling p;
  p.nhwc = rng() % 2 == 0;
  p.outer = kOuter[rng() % std::size(kOuter)];
  p.out_rows = 1 + static_cast<std::int64_t>(rng() % 3);
  p.pixels = 1 + static_cast<std::int64_t>(rng() % 17);
  p.channels = p.nhwc ? 1 + static_cast<std::int64_t>(rng() % 17) : 1;
  if (p.nhwc && rng() % 4 == 0) p.channels = 64;
  p.kh = 1 + static_cast<std::int64_t>(rng() % 5);
  p.kw = 1 + static_cast<std::int64_t>(rng() % 5);
  if (rng() % 8 == 0) p.kw = 6 + static_cast<std::int64_t>(rng() % 12);  // beyond the interleaved windows
  p.row_padding = rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 5) : 0;
  p.outer_padding = rng() % 4 == 0 ? static_cast<std::int64_t>(rng() % 5) : 0;
  p.negative_rows = rng() % 5 == 0;
  p.negative_outer = rng() % 5 == 0;
  p.negative_pixels = rng() % 9 == 0;
  return p;
}

TEST_P(EveryTarget, WindowsMatchTheScalarPathBitForBit) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 600; ++trial) {
    const Pooling p = random_pooling(rng);
    const std::string context = "trial " + std::to_string(trial) + " " + describe(p);
    for_each_dtype(rng, [&](auto tag) {
      using T = decltype(tag);
      check_pooling_each<T>(p, rng, context);
    });
    if (HasFatalFailure()) return;
  }
}

TEST_P(EveryTarget, EveryDtypeOnTheBoundaries) {
  // Lines of 1 to 17 pixels (shorter than, as long as, and past a vector), 2x2 to 4x4 windows.
  std::mt19937_64 rng(7);
  for (const bool nhwc : {false, true})
    for (const std::int64_t channels : {1, 3, 4, 64})
      for (std::int64_t pixels = 1; pixels <= 17; pixels += nhwc ? 4 : 1)
        for (const std::int64_t k : {2, 3, 4}) {
          if (!nhwc && channels != 1) continue;
          Pooling p;
          p.nhwc = nhwc;
          p.channels = channels;
          p.outer = 3;
          p.out_rows = 2;
          p.pixels = pixels;
          p.kh = p.kw = k;
          check_pooling_each<float, einops::float16, einops::bfloat16, double, std::uint8_t, std::int8_t, std::int16_t,
                             std::uint32_t, std::int64_t, bool>(p, rng, describe(p));
          if (HasFatalFailure()) return;
        }
}

TEST_P(EveryTarget, ThreeChannelPlanesAroundTheirVectors) {
  // 3-channel pixels with windows of 2 and 4 along the row split into channel planes: lines of
  // whole vectors of output pixels (8, 16 or 32 lanes), one more, one fewer, and window rows 1 to 3.
  std::mt19937_64 rng(11);
  for (const std::int64_t pixels : {7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 65})
    for (const std::int64_t kw : {2, 4})
      for (const std::int64_t kh : {1, 2, 3}) {
        Pooling p;
        p.nhwc = true;
        p.channels = 3;
        p.outer = 2;
        p.out_rows = 2;
        p.pixels = pixels;
        p.kh = kh;
        p.kw = kw;
        p.negative_pixels = pixels % 2 == 1 && kh == 3;
        p.row_padding = kh == 2 ? 5 : 0;
        check_pooling_each<float, einops::float16, einops::bfloat16, double, std::uint8_t, std::int16_t, std::int64_t,
                           bool>(p, rng, describe(p));
        if (HasFatalFailure()) return;
      }
}

TEST_P(EveryTarget, NaNWinsMinAndMaxWhereverItSits) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const bool nhwc : {false, true})
    for (std::int64_t at = 0; at < 4; ++at) {  // the NaN's place in its 2x2 window
      Pooling p;
      p.nhwc = nhwc;
      p.channels = nhwc ? 3 : 1;
      p.outer = 2;
      p.out_rows = 3;
      p.pixels = 13;
      std::vector<float> in(static_cast<std::size_t>(p.size()), 1.5f);
      const std::int64_t c = nhwc ? p.channels : 1;
      // Output (1, 2, 5, channel c - 1): its window's element `at`.
      const std::int64_t nan_at = p.s_outer() + 2 * 2 * p.s_row() + 5 * 2 * p.s_pixel() + (c - 1) +
                                  (at / 2) * p.s_row() + (at % 2) * p.s_pixel();
      in[static_cast<std::size_t>(nan_at)] = nan;
      const std::int64_t nan_output = ((1 * 3 + 2) * 13 + 5) * c + (c - 1);
      for (const Reduction r : {Reduction::min, Reduction::max}) {
        std::vector<float> out(static_cast<std::size_t>(p.outputs()));
        einops::detail::reduce_strided(DType::float32, r, in.data(), out.data(), p.walk());
        for (std::int64_t o = 0; o < p.outputs(); ++o)
          ASSERT_EQ(std::isnan(out[static_cast<std::size_t>(o)]), o == nan_output)
              << (nhwc ? "NHWC " : "NCHW ") << einops::reduction_name(r) << " at " << at << " output " << o;
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Windows, EveryTarget, ::testing::ValuesIn(einops::detail::simd_targets()), target_name);

TEST(WindowMode, ChosenForPoolingPatterns) {
  const DType types[] = {DType::float32, DType::float16, DType::bfloat16, DType::float64, DType::uint8,
                         DType::int8,    DType::int16,   DType::int32,    DType::uint64,  DType::boolean};
  for (const DType type : types)
    for (const Reduction r : kReductions) {
      if (r == Reduction::mean && !einops::is_floating(type)) continue;
      if (r == Reduction::prod && !einops::is_floating(type)) continue;  // 64-bit lanes cannot multiply
      for (const std::int64_t k : {2, 3, 4}) {
        Pooling nchw;
        nchw.outer = 32 * 64;
        nchw.out_rows = nchw.pixels = 56 / k;
        nchw.kh = nchw.kw = k;
        const auto schedule = einops::detail::make_reduce_schedule(type, r, nchw.walk());
        EXPECT_EQ(schedule.mode, ReduceMode::window) << einops::dtype_name(type) << " " << einops::reduction_name(r);
        EXPECT_EQ(einops::detail::describe_reduce(type, r, nchw.walk()),
                  std::to_string(k) + "x" + std::to_string(k) + " windows reduced in registers (NCHW)");
        for (const std::int64_t channels : {1, 3, 4, 64}) {
          Pooling nhwc = nchw;
          nhwc.nhwc = true;
          nhwc.outer = 8;
          nhwc.channels = channels;
          EXPECT_EQ(einops::detail::make_reduce_schedule(type, r, nhwc.walk()).mode, ReduceMode::window)
              << einops::dtype_name(type) << " " << einops::reduction_name(r) << " channels " << channels;
        }
      }
    }
  Pooling nhwc;
  nhwc.nhwc = true;
  nhwc.channels = 3;
  nhwc.out_rows = nhwc.pixels = 112;
  EXPECT_EQ(einops::detail::describe_reduce(DType::uint8, Reduction::max, nhwc.walk()),
            "2x2 windows reduced in registers (NHWC, 3 channels)");
  // Through the public API, on the built-in tensor.
  const auto x = einops::Tensor<float>::arange({2, 3, 8, 12});
  const auto pooled = einops::reduce(x, "b c (h 2) (w 2) -> b c h w", "max").as<float>().to_vector();
  for (std::int64_t i = 0; i < 2 * 3 * 4 * 6; ++i) {
    const std::int64_t plane = i / 24, y = i % 24 / 6, w = i % 6;
    EXPECT_EQ(pooled[static_cast<std::size_t>(i)], static_cast<float>(plane * 96 + (2 * y + 1) * 12 + 2 * w + 1)) << i;
  }
}

TEST(WindowMode, OtherModesDescribeThemselves) {
  Walk inner;
  inner.push_output(64, 40, 1);
  inner.push_reduced(40, 1);
  EXPECT_EQ(einops::detail::describe_reduce(DType::float32, Reduction::sum, inner),
            "inner: vectors along the reduced run");
  Walk outer;
  outer.push_output(40, 1, 1);
  outer.push_reduced(64, 40);
  EXPECT_EQ(einops::detail::describe_reduce(DType::float32, Reduction::sum, outer),
            "outer: vectors across 40 contiguous outputs");
  EXPECT_EQ(einops::detail::describe_reduce(DType::int32, Reduction::sum, outer), "scalar");
}

class Threads : public ::testing::Test {
 protected:
  void TearDown() override { einops::set_num_threads(0); }
};

/// Pooling large enough for threads: bit for bit the same at 1, 2, 3 and 8 threads.
TEST_F(Threads, WindowResultsAreBitIdenticalForAnyThreadCount) {
  std::mt19937_64 rng(3);
  std::vector<float> x(std::size_t{1} << 21);
  for (float& v : x) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  struct Case {
    std::vector<std::int64_t> shape;
    const char* pattern;
  };
  const std::vector<Case> cases = {
      {{16, 32, 64, 64}, "b c (h 2) (w 2) -> b c h w"},
      {{4, 48, 96, 111}, "b c (h 3) (w 3) -> b c h w"},
      {{8, 64, 64, 64}, "b (h 4) (w 4) c -> b h w c"},
      {{2, 64, 5460, 3}, "b (h 2) (w 2) c -> b h w c"},  // lines longer than a task
      {{1, 2, 1048576}, "b h (w 2) -> b h w"},           // one line, cut into pieces
  };
  for (const Case& c : cases)
    for (const char* reduction : {"max", "mean", "sum"}) {
      std::int64_t n = 1;
      for (const std::int64_t e : c.shape) n *= e;
      const einops::TensorView<const float> view(x.data(), c.shape);
      std::vector<std::vector<float>> results;
      for (int threads : {1, 2, 3, 8}) {
        einops::set_num_threads(threads);
        results.push_back(einops::reduce(view, einops::runtime(c.pattern), reduction).as<float>().to_vector());
      }
      for (std::size_t i = 1; i < results.size(); ++i)
        EXPECT_EQ(0, std::memcmp(results[0].data(), results[i].data(), results[0].size() * sizeof(float)))
            << c.pattern << " " << reduction << " differs between 1 and "
            << (i == 1   ? 2
                : i == 2 ? 3
                         : 8)
            << " threads";
      ASSERT_LE(n, static_cast<std::int64_t>(x.size()));
    }
}

}  // namespace
