// The platform layer (einops/detail/platform.hpp, src/platform.hpp): the checked arithmetic of the
// builtins against the standard C++ fallback, the parsers of cgroup files and decimal settings,
// and the OS queries' basic promises.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <einops/detail/platform.hpp>

#include "platform.hpp"

namespace {

using einops::detail::parse_cgroup_cfs_quota;
using einops::detail::parse_cgroup_cpu_max;
using einops::detail::parse_cgroup_v2_path;
using einops::detail::parse_decimal;

/// Values around every edge of T: 0, +-1, +-2, the extremes and their neighbours, the square root
/// of the extremes (where products start to overflow).
template <class T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {T{0},
                           T{1},
                           T{2},
                           T{3},
                           L::max(),
                           static_cast<T>(L::max() - 1),
                           static_cast<T>(L::max() / 2),
                           static_cast<T>(L::max() / 2 + 1)};
  T root = 1;
  while (root <= L::max() / root / 2) root = static_cast<T>(root * 2);
  for (T r : {root, static_cast<T>(root - 1), static_cast<T>(root + 1), static_cast<T>(root * 2)}) values.push_back(r);
  if constexpr (L::is_signed) {
    const std::size_t n = values.size();
    for (std::size_t i = 1; i < n; ++i) values.push_back(static_cast<T>(-values[i]));
    values.push_back(L::min());
    values.push_back(static_cast<T>(L::min() + 1));
    values.push_back(static_cast<T>(L::min() / 2));
  }
  return values;
}

/// For every pair of edge values: the checked operations (the builtins here) and the portable
/// fallback agree on overflow and on the wrapped result, and a result that fits is exact.
template <class T>
void expect_checked_arithmetic_agrees() {
  for (T a : edge_values<T>())
    for (T b : edge_values<T>()) {
      T builtin = 0, portable = 0;
      const bool add_overflow = einops::detail::checked_add(a, b, builtin);
      EXPECT_EQ(add_overflow, einops::detail::portable::checked_add(a, b, portable)) << +a << " + " << +b;
      EXPECT_EQ(builtin, portable) << +a << " + " << +b;
      const bool sub_overflow = einops::detail::checked_sub(a, b, builtin);
      EXPECT_EQ(sub_overflow, einops::detail::portable::checked_sub(a, b, portable)) << +a << " - " << +b;
      EXPECT_EQ(builtin, portable) << +a << " - " << +b;
      const bool mul_overflow = einops::detail::checked_mul(a, b, builtin);
      EXPECT_EQ(mul_overflow, einops::detail::portable::checked_mul(a, b, portable)) << +a << " * " << +b;
      EXPECT_EQ(builtin, portable) << +a << " * " << +b;
      if constexpr (sizeof(T) < sizeof(std::int32_t) || std::is_same_v<T, std::int32_t>) {  // exact, in int64
        const auto wide_a = static_cast<std::int64_t>(a), wide_b = static_cast<std::int64_t>(b);
        const auto fits = [](std::int64_t x) {
          return x >= std::int64_t{std::numeric_limits<T>::min()} && x <= std::int64_t{std::numeric_limits<T>::max()};
        };
        EXPECT_EQ(add_overflow, !fits(wide_a + wide_b)) << +a << " + " << +b;
        EXPECT_EQ(sub_overflow, !fits(wide_a - wide_b)) << +a << " - " << +b;
        EXPECT_EQ(mul_overflow, !fits(wide_a * wide_b)) << +a << " * " << +b;
      }
    }
}

TEST(CheckedArithmetic, BuiltinsAndPortableFallbackAgree) {
  expect_checked_arithmetic_agrees<std::int8_t>();
  expect_checked_arithmetic_agrees<std::uint8_t>();
  expect_checked_arithmetic_agrees<std::int16_t>();
  expect_checked_arithmetic_agrees<std::uint16_t>();
  expect_checked_arithmetic_agrees<std::int32_t>();
  expect_checked_arithmetic_agrees<std::uint32_t>();
  expect_checked_arithmetic_agrees<std::int64_t>();
  expect_checked_arithmetic_agrees<std::uint64_t>();
}

TEST(CheckedArithmetic, KnownCases) {
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::int64_t r = 0;
  EXPECT_FALSE(einops::detail::checked_mul(std::int64_t{3037000499}, std::int64_t{3037000499}, r));
  EXPECT_EQ(r, std::int64_t{9223372030926249001});
  EXPECT_TRUE(einops::detail::checked_mul(std::int64_t{3037000500}, std::int64_t{3037000500}, r));
  EXPECT_TRUE(einops::detail::checked_mul(std::int64_t{-1}, kMin, r));
  EXPECT_FALSE(einops::detail::checked_mul(std::int64_t{-1}, kMax, r));
  EXPECT_EQ(r, -kMax);
  EXPECT_TRUE(einops::detail::checked_add(kMax, std::int64_t{1}, r));
  EXPECT_EQ(r, kMin);  // wrapped, as the builtins leave it
  EXPECT_TRUE(einops::detail::checked_sub(kMin, std::int64_t{1}, r));
  EXPECT_FALSE(einops::detail::checked_sub(std::int64_t{-1}, kMax, r));
  EXPECT_EQ(r, kMin);
  std::size_t u = 0;
  EXPECT_TRUE(einops::detail::checked_sub(std::size_t{1}, std::size_t{2}, u));
  EXPECT_TRUE(einops::detail::checked_mul(std::size_t{1} << 32, std::size_t{1} << 32, u));
  static_assert([] {  // usable in constant expressions, as the public headers may need
    std::int64_t out = 0;
    return !einops::detail::checked_mul(std::int64_t{6}, std::int64_t{7}, out) && out == 42;
  }());
}

TEST(CpuMax, QuotaOverPeriodRoundedUp) {
  EXPECT_EQ(parse_cgroup_cpu_max("150000 100000\n"), 2);
  EXPECT_EQ(parse_cgroup_cpu_max("150000 100000"), 2);
  EXPECT_EQ(parse_cgroup_cpu_max("200000 100000\n"), 2);
  EXPECT_EQ(parse_cgroup_cpu_max("200001 100000\n"), 3);
  EXPECT_EQ(parse_cgroup_cpu_max("50000 100000\n"), 1);  // half a CPU: still one thread
  EXPECT_EQ(parse_cgroup_cpu_max("1000 1000000\n"), 1);
  EXPECT_EQ(parse_cgroup_cpu_max("0 100000\n"), 1);
  EXPECT_EQ(parse_cgroup_cpu_max("9223372036854775807 1\n"), std::numeric_limits<int>::max());
}

TEST(CpuMax, NoLimitOrMalformedIsNone) {
  EXPECT_EQ(parse_cgroup_cpu_max("max 100000\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_cpu_max("max 100000"), std::nullopt);
  for (const char* text : {"", "\n", "150000", "150000 0", "150000 -100000", "-150000 100000", "max", "abc 100000",
                           "150000 100000 7", "150000  100000", "1.5 1", "150000 99999999999999999999"})
    EXPECT_EQ(parse_cgroup_cpu_max(text), std::nullopt) << '"' << text << '"';
}

TEST(CfsQuota, QuotaOverPeriodRoundedUp) {
  EXPECT_EQ(parse_cgroup_cfs_quota("150000\n", "100000\n"), 2);
  EXPECT_EQ(parse_cgroup_cfs_quota("400000\n", "100000\n"), 4);
  EXPECT_EQ(parse_cgroup_cfs_quota("-1\n", "100000\n"), std::nullopt);  // no limit
  EXPECT_EQ(parse_cgroup_cfs_quota("150000\n", "0\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_cfs_quota("x\n", "100000\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_cfs_quota("150000\n", ""), std::nullopt);
}

TEST(CgroupPath, TheUnifiedHierarchyLine) {
  EXPECT_EQ(parse_cgroup_v2_path("0::/\n"), "/");
  EXPECT_EQ(parse_cgroup_v2_path("0::/user.slice/user-1000.slice/session-2.scope\n"),
            "/user.slice/user-1000.slice/session-2.scope");
  EXPECT_EQ(parse_cgroup_v2_path("12:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n0::/docker/abc"),
            "/docker/abc");
  EXPECT_EQ(parse_cgroup_v2_path("12:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n"), std::nullopt);
  EXPECT_EQ(parse_cgroup_v2_path(""), std::nullopt);
  EXPECT_EQ(parse_cgroup_v2_path("0::\n"), std::nullopt);
}

TEST(Decimal, DigitsWithinInt64Only) {
  EXPECT_EQ(parse_decimal("0"), 0);
  EXPECT_EQ(parse_decimal("3"), 3);
  EXPECT_EQ(parse_decimal("007"), 7);
  EXPECT_EQ(parse_decimal("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
  for (const char* text : {"", " ", "-1", "+3", " 3", "3 ", "3\n", "3x", "x3", "abc", "1e3", "0x10", "3.0",
                           "9223372036854775808", "99999999999999999999999"})
    EXPECT_EQ(parse_decimal(text), std::nullopt) << '"' << text << '"';
  EXPECT_EQ(parse_decimal(std::string_view("12\0"
                                           "3",
                                           4)),
            std::nullopt);
}

TEST(Platform, AvailableCpusWithinTheHardware) {
  const int cpus = einops::detail::available_cpus();
  EXPECT_GE(cpus, 1);
  if (const unsigned hardware = std::thread::hardware_concurrency(); hardware != 0) {
    EXPECT_LE(static_cast<unsigned>(cpus), hardware);
  }
}

TEST(Platform, PhysicalMemoryIsKnownOnLinux) {
#if defined(__linux__)
  const std::optional<std::size_t> bytes = einops::detail::physical_memory_bytes();
  ASSERT_TRUE(bytes.has_value());
  EXPECT_GE(*bytes, std::size_t{64} << 20);
#else
  GTEST_SKIP() << "the memory size is optional elsewhere";
#endif
}

TEST(Platform, PagesAreAlignedWritableAndZeroed) {
  for (const std::size_t bytes : {std::size_t{4096}, std::size_t{3} << 20, (std::size_t{5} << 20) + 4096}) {
    void* p = einops::detail::allocate_pages(bytes, true);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % einops::detail::kPageAllocationAlignment, 0u) << bytes;
    const auto* bytes_read = static_cast<const unsigned char*>(p);
    bool zero = true;
    for (std::size_t i = 0; i < bytes; i += 512) zero = zero && bytes_read[i] == 0;
    EXPECT_TRUE(zero && bytes_read[bytes - 1] == 0) << bytes;
    std::memset(p, 0xAB, bytes);  // every byte writable
    EXPECT_EQ(static_cast<unsigned char*>(p)[bytes - 1], 0xAB);
    einops::detail::free_pages(p, bytes);
  }
}

TEST(Platform, EnvironmentVariable) {
  EXPECT_EQ(einops::detail::environment_variable("EINOPS_TEST_SURELY_NOT_SET_5F3A"), std::nullopt);
  const std::optional<std::string> path = einops::detail::environment_variable("PATH");
  if (path) {
    EXPECT_EQ(*path, std::getenv("PATH"));
  }
}

}  // namespace
