// float16 and bfloat16 special values (NaN, infinities, the largest finite value, the smallest
// subnormal, -0) through every kernel path that widens or narrows them, on every SIMD target this
// CPU runs and the portable one: each special value at each position of a tensor (first element,
// inside a vector, the middle, the start of the tail, the last element), through every reduction
// (inner, outer and window modes), the copies and repeats that move their bits, and the einsum
// routes, against the same call on float32 narrowed once.
// Fillers are 1 and 2, so every float32 sum and product is exact whatever the order of the
// arithmetic: results must be bit-identical (NaN: NaN).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>

namespace {

using einops::bfloat16;
using einops::float16;
using einops::Tensor;

/// Runs the test body once per SIMD target (restoring automatic dispatch afterwards).
class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { einops::detail::force_simd_target(GetParam()); }
  void TearDown() override { einops::detail::force_simd_target(""); }
};

std::string target_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

constexpr std::int64_t kRows = 12;
/// More than two 512-bit vectors of float lanes, plus a tail that no vector length divides.
constexpr std::int64_t kColumns = 134;
constexpr std::int64_t kTailStart = 128;

/// Positions of the special value: first, inside the first vector, the middle, the last full
/// vector's end, the tail's first element, the last element.
const std::vector<std::pair<std::int64_t, std::int64_t>> kPositions = {
    {0, 0}, {0, 7}, {5, 67}, {7, kTailStart - 1}, {3, kTailStart}, {kRows - 1, kColumns - 1}};

template <class Half>
struct Specials;
template <>
struct Specials<float16> {
  static constexpr std::uint16_t kBits[] = {0x7e00, 0xfe01, 0x7d00 /* signalling */, 0x7c00, 0xfc00, 0x7bff, 0x0001,
                                            0x83ff, 0x8000};
};
template <>
struct Specials<bfloat16> {
  static constexpr std::uint16_t kBits[] = {0x7fc0, 0xffc1, 0x7f81 /* signalling */, 0x7f80, 0xff80, 0x7f7f, 0x0001,
                                            0x807f, 0x8000};
};

template <class Half>
std::vector<Half> fillers(std::int64_t count) {
  std::vector<Half> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    values[static_cast<std::size_t>(i)] = Half(static_cast<float>(1 + (i * 7 / 3) % 2));
  return values;
}

template <class Half>
Tensor<float> widened(const Tensor<Half>& x) {
  std::vector<float> values(static_cast<std::size_t>(x.size()));
  for (std::int64_t i = 0; i < x.size(); ++i) values[static_cast<std::size_t>(i)] = static_cast<float>(x.data()[i]);
  return Tensor<float>({x.shape().begin(), x.shape().end()}, values);
}

bool bits_agree(float16 got, float expected) {
  return std::isnan(expected) ? std::isnan(static_cast<float>(got)) : got.bits == float16(expected).bits;
}
bool bits_agree(bfloat16 got, float expected) {
  return std::isnan(expected) ? std::isnan(static_cast<float>(got)) : got.bits == bfloat16(expected).bits;
}

/// `got` (16-bit floats) equals `reference` (float32) narrowed once, element by element.
template <class Half>
void expect_narrowed(const Tensor<Half>& got, const Tensor<float>& reference, const std::string& what) {
  ASSERT_EQ(got.size(), reference.size()) << what;
  for (std::int64_t i = 0; i < got.size(); ++i)
    ASSERT_TRUE(bits_agree(got.data()[i], reference.data()[i]))
        << what << ", element " << i << ": got 0x" << std::hex << got.data()[i].bits << " ("
        << static_cast<float>(got.data()[i]) << "), expected " << reference.data()[i];
}

/// Bit moves (copies and repeats) keep every pattern exactly, NaN payloads included.
template <class Half>
void expect_same_bits(const Tensor<Half>& got, const Tensor<Half>& expected, const std::string& what) {
  ASSERT_EQ(got.size(), expected.size()) << what;
  for (std::int64_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got.data()[i].bits, expected.data()[i].bits) << what << ", element " << i;
}

template <class Half>
void check_reductions(const Tensor<Half>& x, const Tensor<float>& x32, const std::string& where) {
  const std::pair<const char*, einops::AxisLengths> patterns[] = {{"h w -> h", {}},
                                                                  {"h w -> w", {}},
                                                                  {"h w -> ", {}},
                                                                  {"(h h2) (w w2) -> h w", {{"h2", 2}, {"w2", 2}}},
                                                                  {"(h h2) w -> h w", {{"h2", 2}}}};
  for (const auto& [pattern, lengths] : patterns) {
    for (const char* op : {"min", "max", "sum", "mean", "prod"}) {
      const Tensor<Half> got = einops::reduce(x, einops::runtime(pattern), op, lengths);
      const Tensor<float> expected = einops::reduce(x32, einops::runtime(pattern), op, lengths);
      expect_narrowed(got, expected, where + ", " + op + " over '" + pattern + "'");
    }
    for (const char* op : {"any", "all"}) {
      const Tensor<bool> got = einops::reduce(x, einops::runtime(pattern), op, lengths);
      const Tensor<bool> expected = einops::reduce(x32, einops::runtime(pattern), op, lengths);
      ASSERT_EQ(got.size(), expected.size());
      for (std::int64_t i = 0; i < got.size(); ++i)
        ASSERT_EQ(got.data()[i], expected.data()[i])
            << where << ", " << op << " over '" << pattern << "', element " << i;
    }
  }
}

template <class Half>
void check_moves(const Tensor<Half>& x, const std::string& where) {
  const Tensor<Half> t = einops::rearrange(x, "h w -> w h");
  const Tensor<Half> back = einops::rearrange(t, "w h -> h w");
  expect_same_bits(back, x, where + ", transposed and back");
  const Tensor<Half> r = einops::repeat(x, "h w -> h w 3");
  const Tensor<Half> first = einops::reduce(r, "h w c -> h w", "max");  // exact: equal copies
  const Tensor<Half> picked = einops::rearrange(einops::rearrange(r, "h w c -> c h w"), "c h w -> (c h) w");
  for (std::int64_t i = 0; i < x.size(); ++i)
    ASSERT_EQ(picked.data()[i].bits, x.data()[i].bits) << where << ", repeated, element " << i;
  for (std::int64_t i = 0; i < x.size(); ++i)
    if (!std::isnan(static_cast<float>(x.data()[i]))) {
      ASSERT_EQ(first.data()[i].bits, x.data()[i].bits) << where << ", max of copies";
    }
}

template <class Half>
void check_einsum(const Tensor<Half>& x, const Tensor<float>& x32, const std::string& where) {
  const auto ones = Tensor<Half>({kColumns}, fillers<Half>(kColumns));
  const auto ones32 = widened(ones);
  const auto column = Tensor<Half>({kColumns, 3}, fillers<Half>(kColumns * 3));
  const auto column32 = widened(column);
  expect_narrowed(Tensor<Half>(einops::einsum(x, ones, "h w, w -> h")), einops::einsum(x32, ones32, "h w, w -> h"),
                  where + ", matrix-vector");
  expect_narrowed(Tensor<Half>(einops::einsum(x, x, "h w, h w -> h w")), einops::einsum(x32, x32, "h w, h w -> h w"),
                  where + ", elementwise");
  expect_narrowed(Tensor<Half>(einops::einsum(x, x, "h w, h w -> h")), einops::einsum(x32, x32, "h w, h w -> h"),
                  where + ", row dots");
  expect_narrowed(Tensor<Half>(einops::einsum(x, column, "h w, w k -> h k")),
                  einops::einsum(x32, column32, "h w, w k -> h k"), where + ", matrix product");
}

template <class Half>
void check_every_special() {
  for (const std::uint16_t special : Specials<Half>::kBits) {
    for (const auto& [row, column] : kPositions) {
      auto values = fillers<Half>(kRows * kColumns);
      values[static_cast<std::size_t>(row * kColumns + column)] = Half::from_bits(special);
      const Tensor<Half> x({kRows, kColumns}, values);
      const Tensor<float> x32 = widened(x);
      std::string where = "0x";
      for (int shift = 12; shift >= 0; shift -= 4) where += "0123456789abcdef"[(special >> shift) & 0xf];
      where += " at (" + std::to_string(row) + ", " + std::to_string(column) + ")";
      check_reductions(x, x32, where);
      check_moves(x, where);
      check_einsum(x, x32, where);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_P(EveryTarget, Float16SpecialValuesSurviveEveryPath) { check_every_special<float16>(); }
TEST_P(EveryTarget, Bfloat16SpecialValuesSurviveEveryPath) { check_every_special<bfloat16>(); }

/// Every 16-bit pattern widened by a reduction of one element (the kernels' widening and
/// narrowing, exhaustively): min and max return it unchanged, a sum returns its float16 value.
template <class Half>
void check_every_pattern() {
  constexpr std::int64_t kPatterns = 1 << 16;
  std::vector<Half> values(kPatterns);
  for (std::int64_t i = 0; i < kPatterns; ++i)
    values[static_cast<std::size_t>(i)] = Half::from_bits(static_cast<std::uint16_t>(i));
  const Tensor<Half> x({kPatterns / 64, 64, 1}, values);
  const Tensor<float> x32 = widened(x);
  for (const char* op : {"max", "min", "sum", "mean"}) {
    expect_narrowed(Tensor<Half>(einops::reduce(x, "a b c -> a b", op)), einops::reduce(x32, "a b c -> a b", op),
                    std::string("every pattern, ") + op + " of one");
    const Tensor<Half> pairs = einops::reduce(x, "(a 2) b c -> a b", op);
    expect_narrowed(pairs, einops::reduce(x32, "(a 2) b c -> a b", op),
                    std::string("every pattern, ") + op + " of pairs");
  }
}

TEST_P(EveryTarget, Float16EveryPatternWidensExactly) { check_every_pattern<float16>(); }
TEST_P(EveryTarget, Bfloat16EveryPatternWidensExactly) { check_every_pattern<bfloat16>(); }

INSTANTIATE_TEST_SUITE_P(Targets, EveryTarget, ::testing::ValuesIn(einops::detail::simd_targets()), target_name);

}  // namespace
