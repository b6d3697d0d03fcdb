// The buffer cache's limit (einops/memory.hpp): the rule of EINOPS_BUFFER_CACHE_MB, the default,
// and set_buffer_cache_limit over it. The process-wide reading of the variable is checked by
// running print_buffer_cache_limit (CMakeLists.txt: buffer_cache_default_* tests).
#include <gtest/gtest.h>

#include <cstddef>
#include <optional>

#include <einops/einops.hpp>
#include <einops/memory.hpp>

#include "kernels/buffer_cache.hpp"

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(BufferCacheSetting, TakesANonNegativeDecimalCountOfMiB) {
  using einops::detail::buffer_cache_limit_setting;
  EXPECT_EQ(buffer_cache_limit_setting("0"), std::optional<std::size_t>(0));
  EXPECT_EQ(buffer_cache_limit_setting("8"), std::optional<std::size_t>(8 * kMiB));
  EXPECT_EQ(buffer_cache_limit_setting("0512"), std::optional<std::size_t>(512 * kMiB));
  EXPECT_EQ(buffer_cache_limit_setting("99999999999"), std::optional<std::size_t>(einops::kMaxBufferCacheMiB * kMiB));
  for (const char* ignored : {"", "-1", "+8", " 8", "8 ", "8MB", "1.5", "abc", "99999999999999999999999"})
    EXPECT_EQ(buffer_cache_limit_setting(ignored), std::nullopt) << '"' << ignored << '"';
}

TEST(BufferCacheSetting, DefaultIsSmall) {
  static_assert(einops::kDefaultBufferCacheLimit == 32 * kMiB);
  if (einops::detail::environment_variable(einops::detail::kBufferCacheVariable))
    GTEST_SKIP() << einops::detail::kBufferCacheVariable << " is set";
  EXPECT_EQ(einops::buffer_cache_limit(), einops::kDefaultBufferCacheLimit);
}

TEST(BufferCacheSetting, CallWinsAndTrims) {
  const std::size_t before = einops::buffer_cache_limit();
  einops::set_buffer_cache_limit(8 * kMiB);
  EXPECT_EQ(einops::buffer_cache_limit(), 8 * kMiB);
  const auto x = einops::Tensor<float>::arange({1024, 1024});  // 4 MiB results
  {
    const auto a = einops::rearrange(x, "a b -> (b a)");
    const auto b = einops::rearrange(x, "a b -> (b a)");
    const auto c = einops::rearrange(x, "a b -> (b a)");
    EXPECT_NE(a.data(), c.data());
  }
  EXPECT_EQ(einops::buffer_cache_bytes(), 8 * kMiB);  // two of three kept, the third went back to the system
  EXPECT_GT(einops::buffer_cache_bytes(), 0u);
  einops::set_buffer_cache_limit(0);
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  einops::set_buffer_cache_limit(before);
}

}  // namespace
