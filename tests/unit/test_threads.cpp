// The thread settings (einops/threads.hpp): the rules of EINOPS_NUM_THREADS and
// EINOPS_SPIN_WAIT_US, set_num_threads over the default, the spin wait's setting, and parallel
// work that still gives the right results when idle workers sleep at once (spin wait 0).
// The default's process-wide reading of the environment and the affinity mask is checked by
// running print_num_threads (CMakeLists.txt: thread_default_* tests).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include <einops/einops.hpp>

#include "kernels/parallel.hpp"
#include "kernels/thread_settings.hpp"
#include "platform.hpp"

namespace {

using std::chrono::microseconds;

class ThreadSettings : public ::testing::Test {
 protected:
  void TearDown() override {
    einops::set_num_threads(0);
    einops::set_spin_wait(einops::kDefaultSpinWait);
  }
};

TEST(ThreadCountSetting, PositiveDecimalIntegersOnly) {
  using einops::detail::thread_count_setting;
  EXPECT_EQ(thread_count_setting("1"), 1);
  EXPECT_EQ(thread_count_setting("3"), 3);
  EXPECT_EQ(thread_count_setting("03"), 3);
  EXPECT_EQ(thread_count_setting("256"), einops::kMaxThreads);
  EXPECT_EQ(thread_count_setting("1000"), einops::kMaxThreads);  // clamped, not ignored
  EXPECT_EQ(thread_count_setting("9223372036854775807"), einops::kMaxThreads);
  for (const char* text : {"", "0", "00", "-1", "-3", "+3", " 3", "3 ", "3\n", "abc", "3abc", "3.5", "0x4",
                           "9223372036854775808", "99999999999999999999999"})
    EXPECT_EQ(thread_count_setting(text), std::nullopt) << '"' << text << '"';
}

TEST(SpinWaitSetting, NonNegativeDecimalIntegersOnly) {
  using einops::detail::spin_wait_setting;
  EXPECT_EQ(spin_wait_setting("0"), microseconds{0});
  EXPECT_EQ(spin_wait_setting("50"), microseconds{50});
  EXPECT_EQ(spin_wait_setting("99999999999"), einops::kMaxSpinWait);
  for (const char* text : {"", "-1", "+5", " 5", "5us", "abc", "1e3", "99999999999999999999999"})
    EXPECT_EQ(spin_wait_setting(text), std::nullopt) << '"' << text << '"';
}

TEST_F(ThreadSettings, SetNumThreadsWinsAndZeroRestoresTheDefault) {
  const int initial = einops::get_num_threads();
  EXPECT_GE(initial, 1);
  EXPECT_LE(initial, einops::kMaxThreads);
  if (!einops::detail::environment_variable(einops::detail::kNumThreadsVariable)) {
    EXPECT_LE(initial, einops::detail::available_cpus());
  }
  einops::set_num_threads(initial + 2);
  EXPECT_EQ(einops::get_num_threads(), initial + 2);
  einops::set_num_threads(einops::kMaxThreads + 1);
  EXPECT_EQ(einops::get_num_threads(), einops::kMaxThreads);
  einops::set_num_threads(0);
  EXPECT_EQ(einops::get_num_threads(), initial);
  einops::set_num_threads(5);
  einops::set_num_threads(-4);
  EXPECT_EQ(einops::get_num_threads(), initial);
}

TEST_F(ThreadSettings, SpinWaitRoundTrips) {
  if (!einops::detail::environment_variable(einops::detail::kSpinWaitVariable)) {
    EXPECT_EQ(einops::get_spin_wait(), einops::kDefaultSpinWait);
  }
  for (const microseconds wait :
       {microseconds{0}, microseconds{1}, microseconds{200}, microseconds{12345}, einops::kMaxSpinWait}) {
    einops::set_spin_wait(wait);
    EXPECT_EQ(einops::get_spin_wait(), wait);
  }
  einops::set_spin_wait(microseconds{-5});
  EXPECT_EQ(einops::get_spin_wait(), microseconds{0});
  einops::set_spin_wait(einops::kMaxSpinWait + microseconds{1});
  EXPECT_EQ(einops::get_spin_wait(), einops::kMaxSpinWait);
}

/// Many parallel_for calls back to back with workers that sleep between them (spin 0) and with
/// the default spin: every chunk runs exactly once each time, and the sums agree.
TEST_F(ThreadSettings, ParallelForWithoutSpinningRunsEveryChunkOnce) {
  constexpr std::int64_t kCount = 1 << 16, kChunk = 1 << 10, kCalls = 200;
  einops::set_num_threads(4);
  std::vector<std::atomic<int>> runs(static_cast<std::size_t>(kCount / kChunk));
  for (const microseconds spin : {microseconds{0}, einops::kDefaultSpinWait}) {
    einops::set_spin_wait(spin);
    for (std::int64_t call = 0; call < kCalls; ++call) {
      for (auto& r : runs) r.store(0);
      std::atomic<std::int64_t> sum{0};
      einops::detail::parallel_for(kCount, kChunk, true, [&](std::int64_t begin, std::int64_t end) {
        runs[static_cast<std::size_t>(begin / kChunk)].fetch_add(1);
        std::int64_t local = 0;
        for (std::int64_t i = begin; i < end; ++i) local += i;
        sum.fetch_add(local);
      });
      for (std::size_t c = 0; c < runs.size(); ++c)
        ASSERT_EQ(runs[c].load(), 1) << "chunk " << c << ", spin " << spin.count();
      ASSERT_EQ(sum.load(), kCount * (kCount - 1) / 2) << "spin " << spin.count();
    }
  }
}

/// A large reduction and a large transpose on 3 threads: the same bits with workers that sleep
/// at once as with the default spin, and as on one thread.
TEST_F(ThreadSettings, ReduceAndRearrangeWithoutSpinningMatchTheDefault) {
  const auto x = einops::Tensor<float>::arange({512, 2048});
  einops::set_num_threads(1);
  // Runtime patterns: clang 16 cannot parse literal ones at compile time with libstdc++ 12.
  const auto columns = einops::runtime("a b -> b");
  const auto transpose = einops::runtime("a b -> b a");
  const std::vector<float> sum_one = einops::reduce(x, columns, "sum").as<float>().to_vector();
  const std::vector<float> transposed_one = einops::rearrange(x, transpose).to_vector();
  einops::set_num_threads(3);
  for (const microseconds spin : {microseconds{0}, einops::kDefaultSpinWait}) {
    einops::set_spin_wait(spin);
    for (int repeat = 0; repeat < 5; ++repeat) {
      EXPECT_EQ(einops::reduce(x, columns, "sum").as<float>().to_vector(), sum_one) << "spin " << spin.count();
      EXPECT_EQ(einops::rearrange(x, transpose).to_vector(), transposed_one) << "spin " << spin.count();
    }
  }
}

}  // namespace
