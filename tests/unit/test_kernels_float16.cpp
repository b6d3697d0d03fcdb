// float16 and bfloat16: exact widening, round-to-nearest-even narrowing (checked exhaustively at
// every midpoint), and every operation on tensors of them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <einops/einops.hpp>

namespace {

using einops::bfloat16;
using einops::DType;
using einops::float16;
using einops::Tensor;

// Compile-time checks: the conversions are constexpr.
static_assert(float16(1.0f).bits == 0x3c00);
static_assert(float16(-2.0).bits == 0xc000);
static_assert(float16(65504.0f).bits == 0x7bff);
static_assert(float16(65520.0f).bits == 0x7c00);  // halfway to 2^16 rounds to infinity
static_assert(static_cast<float>(float16::from_bits(0x0001)) == 0x1p-24f);
static_assert(bfloat16(1.0f).bits == 0x3f80);
static_assert(static_cast<float>(bfloat16::from_bits(0x4049)) == 3.140625f);
static_assert(einops::dtype_v<float16> == DType::float16 && einops::dtype_v<bfloat16> == DType::bfloat16);
static_assert(einops::dtype_size(DType::float16) == 2 && einops::dtype_size(DType::bfloat16) == 2);
static_assert(einops::is_floating(DType::bfloat16));
static_assert(einops::reduction_result_dtype(einops::Reduction::sum, DType::float16) == DType::float16);

bool is_nan_bits16(std::uint16_t bits, int mantissa_bits) {
  const int exponent_mask = (0xffff >> (mantissa_bits + 1)) << mantissa_bits;
  return (bits & exponent_mask) == exponent_mask && (bits & ((1 << mantissa_bits) - 1)) != 0;
}

template <class Half>
void check_round_trip_and_midpoints(int mantissa_bits) {
  for (std::uint32_t raw = 0; raw <= 0xffff; ++raw) {
    const auto bits = static_cast<std::uint16_t>(raw);
    const float value = Half::from_bits(bits);
    if (is_nan_bits16(bits, mantissa_bits)) {
      EXPECT_TRUE(std::isnan(value)) << raw;
      EXPECT_TRUE(std::isnan(static_cast<float>(Half(value)))) << raw;
      continue;
    }
    ASSERT_EQ(Half(value).bits, bits) << "round trip of 0x" << std::hex << raw;
    ASSERT_EQ(Half(static_cast<double>(value)).bits, bits) << "round trip from double of 0x" << std::hex << raw;
  }
  // Between each pair of neighbours (positive, finite): below the midpoint rounds down, above
  // rounds up, and the midpoint itself goes to the even pattern.
  const std::uint16_t infinity_bits = Half(std::numeric_limits<float>::infinity()).bits;
  for (std::uint16_t low = 0; low < infinity_bits; ++low) {
    const auto high = static_cast<std::uint16_t>(low + 1);
    const double a = static_cast<float>(Half::from_bits(low));
    const double b = high == infinity_bits
                         ? 2.0 * a - static_cast<float>(Half::from_bits(static_cast<std::uint16_t>(low - 1)))
                         : static_cast<double>(static_cast<float>(Half::from_bits(high)));
    const double mid = (a + b) / 2;
    const std::uint16_t even = (low & 1) == 0 ? low : high;
    ASSERT_EQ(Half(mid).bits, even) << "midpoint above 0x" << std::hex << low;
    ASSERT_EQ(Half(static_cast<float>(mid)).bits, even) << "float midpoint above 0x" << std::hex << low;
    ASSERT_EQ(Half(std::nextafter(mid, 0.0)).bits, low) << "just below the midpoint above 0x" << std::hex << low;
    ASSERT_EQ(Half(std::nextafter(mid, 1e300)).bits, high) << "just above the midpoint above 0x" << std::hex << low;
    ASSERT_EQ(Half(-mid).bits, static_cast<std::uint16_t>(even | 0x8000)) << "negative midpoint";
  }
}

template <class Half>
void check_float_path_matches_double_path() {
  // Narrowing a float takes its own path; through double it takes the general one. They agree
  // on every 127th float bit pattern (NaN payloads, subnormals, overflow included) and next to
  // every 16-bit value and midpoint.
  const auto agree = [](float f) { return Half(f).bits == Half(static_cast<double>(f)).bits; };
  for (std::uint64_t raw = 0; raw <= 0xffffffffu; raw += 127) {
    const float f = std::bit_cast<float>(static_cast<std::uint32_t>(raw));
    ASSERT_TRUE(agree(f)) << "float bits 0x" << std::hex << raw;
  }
  for (std::uint32_t raw = 0; raw <= 0xffff; ++raw) {
    const float value = Half::from_bits(static_cast<std::uint16_t>(raw));
    if (std::isnan(value) || std::isinf(value)) continue;
    float f = value;
    for (int step = 0; step < 4; ++step) f = std::nextafter(f, 0.0f);
    for (int step = 0; step < 8; ++step, f = std::nextafter(f, std::numeric_limits<float>::infinity()))
      ASSERT_TRUE(agree(f)) << "near 0x" << std::hex << raw;
    const float next = Half::from_bits(static_cast<std::uint16_t>(raw + 1));
    if (std::isnan(next) || std::isinf(next) || std::signbit(next) != std::signbit(value)) continue;
    const float mid = static_cast<float>((static_cast<double>(value) + next) / 2);
    ASSERT_TRUE(agree(mid) && agree(std::nextafter(mid, 0.0f)) && agree(std::nextafter(mid, 1e30f)))
        << "midpoint 0x" << std::hex << raw;
  }
}

TEST(Float16, FloatPathMatchesDoublePath) { check_float_path_matches_double_path<float16>(); }
TEST(BFloat16, FloatPathMatchesDoublePath) { check_float_path_matches_double_path<bfloat16>(); }

TEST(Float16, RoundTripAndNearestEven) { check_round_trip_and_midpoints<float16>(10); }
TEST(BFloat16, RoundTripAndNearestEven) { check_round_trip_and_midpoints<bfloat16>(7); }

TEST(Float16, SpecialValues) {
  EXPECT_EQ(float16(std::numeric_limits<double>::infinity()).bits, 0x7c00);
  EXPECT_EQ(float16(-std::numeric_limits<float>::infinity()).bits, 0xfc00);
  EXPECT_TRUE(std::isnan(static_cast<float>(float16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(float16(-0.0f).bits, 0x8000);
  EXPECT_EQ(float16(1e-30).bits, 0x0000);
  EXPECT_EQ(float16(0x1p-25).bits, 0x0000);                            // half the smallest subnormal: to even (0)
  EXPECT_EQ(float16(0x1.8p-25).bits, 0x0001);                          // above half: up
  EXPECT_EQ(float16(std::int64_t{2049}).bits, float16(2048.0f).bits);  // integers round too
  EXPECT_EQ(bfloat16(3.0e38f).bits, 0x7f62);
  EXPECT_EQ(bfloat16(std::numeric_limits<float>::max()).bits, 0x7f80);  // rounds up to infinity
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16(std::numeric_limits<double>::quiet_NaN()))));
}

template <class Half>
void check_operations() {
  const auto x = Tensor<Half>::arange({2, 3, 4});
  const Tensor<Half> t = einops::rearrange(x, "a b c -> c b a");
  ASSERT_EQ(t.dtype(), einops::dtype_v<Half>);
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(t.at({c, b, a}).bits, x.at({a, b, c}).bits);

  const Tensor<Half> sums = einops::reduce(x, "a b c -> a", "sum");
  EXPECT_EQ(static_cast<float>(sums.at({0})), 66.0f);
  EXPECT_EQ(static_cast<float>(sums.at({1})), 210.0f);
  const Tensor<Half> means = einops::reduce(x, "a b c -> c", "mean");
  for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(static_cast<float>(means.at({c})), static_cast<float>(c + 10));
  const Tensor<Half> maxes = einops::reduce(x, "a b c -> b", "max");
  EXPECT_EQ(static_cast<float>(maxes.at({2})), 23.0f);
  const Tensor<Half> mins = einops::reduce(x, "a b c -> b", "min");
  EXPECT_EQ(static_cast<float>(mins.at({2})), 8.0f);
  const Tensor<Half> products = einops::reduce(x, "a b c -> a b", "prod");
  EXPECT_EQ(static_cast<float>(products.at({0, 1})), 4.0f * 5 * 6 * 7);
  const Tensor<bool> any = einops::reduce(x, "a b c -> a", "any");
  EXPECT_TRUE(any.at({0}));
  const Tensor<bool> all = einops::reduce(x, "a b c -> a", "all");
  EXPECT_FALSE(all.at({0}));  // holds the zero
  EXPECT_TRUE(all.at({1}));

  const Tensor<Half> r = einops::repeat(x, "a b c -> a b (c 2)");
  EXPECT_EQ(static_cast<float>(r.at({1, 2, 7})), 23.0f);
  const einops::AnyTensor any_tensor(einops::dtype_v<Half>, {3});
  EXPECT_EQ(any_tensor.as<Half>().at({2}).bits, 0);
}

TEST(Float16, EveryOperation) { check_operations<float16>(); }
TEST(BFloat16, EveryOperation) { check_operations<bfloat16>(); }

}  // namespace
