// Concurrency under load: many threads calling rearrange/reduce/repeat at once on shared inputs,
// mixing cached keys, new pattern texts and new shapes, every result checked against the naive
// reference; and einops called from inside einops (a user reduction), which must not deadlock.
//
// EINOPS_STRESS_CALLS sets the calls per thread (default 100,000); the ThreadSanitizer stage of
// scripts/test runs fewer, as does its ASan stage: the sanitizers slow every call 10x (TSan) or 4x.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "reference.hpp"

namespace {

using einops::AnyTensor;
using einops::DType;
using einops::Tensor;
using einops::TensorView;
using einops_test::Kind;
using einops_test::Problem;

constexpr int kThreads = 16;

int calls_per_thread() {
  if (const char* text = std::getenv("EINOPS_STRESS_CALLS")) {
    const int calls = std::atoi(text);
    if (calls > 0) return calls;
  }
  return 100000;
}

/// Fails the whole test program if `body` does not finish in time: a deadlocked call cannot be
/// interrupted, and hanging until the CTest timeout would hide which test it was.
void run_with_deadline(std::chrono::seconds limit, const std::function<void()>& body) {
  std::promise<void> finished;
  std::future<void> done = finished.get_future();
  std::thread worker([&] {
    body();
    finished.set_value();
  });
  if (done.wait_for(limit) == std::future_status::timeout) {
    std::fprintf(stderr, "FATAL: not finished after %lld s: a deadlock?\n", static_cast<long long>(limit.count()));
    std::fflush(stderr);
    std::_Exit(3);
  }
  worker.join();
}

/// Collects failures from every thread; keeps the first message.
class Failures {
 public:
  void add(const std::string& message) {
    if (count_.fetch_add(1) == 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      first_ = message;
    }
  }
  std::int64_t count() const { return count_.load(); }
  std::string first() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

 private:
  std::atomic<std::int64_t> count_{0};
  mutable std::mutex mutex_;
  std::string first_;
};

std::vector<double> values_of(const AnyTensor& y) {
  std::vector<double> out;
  if (y.dtype() == DType::int32)
    for (std::int32_t v : y.as<std::int32_t>().to_vector()) out.push_back(v);
  else if (y.dtype() == DType::int64)
    for (std::int64_t v : y.as<std::int64_t>().to_vector()) out.push_back(static_cast<double>(v));
  return out;
}

/// One transform on a shared strided input, with its reference result.
struct Case {
  Kind kind = Kind::rearrange;
  std::string reduction;  // reduce only
  Problem problem;
  std::string pattern;
  std::vector<std::int32_t> buffer;
  TensorView<const std::int32_t> input;
  einops::Shape expected_shape;
  std::vector<double> expected;
};

/// Values -3..3: sums and products of a few of them are exact in double and in int64.
std::int32_t value_at(std::size_t i) { return static_cast<std::int32_t>((i * 37 + 11) % 7) - 3; }

std::vector<Case> make_cases(int count) {
  std::mt19937 rng(20240611);
  const char* reductions[] = {"sum", "max", "min", "prod"};
  std::vector<Case> cases(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    Case& c = cases[static_cast<std::size_t>(i)];
    c.kind = static_cast<Kind>(i % 3);
    do {  // small inputs and outputs: the test is about concurrency, not bandwidth
      c.problem = einops_test::random_problem(rng, c.kind);
    } while (einops_test::element_count(c.problem.input_shape()) > 256 ||
             einops_test::element_count(c.problem.output_shape()) > 1024);
    c.pattern = c.problem.pattern();
    const einops::Shape shape = c.problem.input_shape();
    const einops_test::Layout layout = einops_test::random_layout(rng, shape);
    c.buffer.resize(static_cast<std::size_t>(layout.buffer_size));
    for (std::size_t k = 0; k < c.buffer.size(); ++k) c.buffer[k] = value_at(k);
    c.input = TensorView<const std::int32_t>(c.buffer.data() + layout.origin, shape, layout.strides);
    c.expected_shape = c.problem.output_shape();
    const std::int32_t* origin = c.buffer.data() + layout.origin;
    if (c.kind == Kind::reduce) {
      c.reduction = reductions[(i / 3) % 4];
      // Products of more than 20 values of magnitude 3 leave the exact range of double.
      const std::int64_t group = einops_test::element_count(shape) / einops_test::element_count(c.expected_shape);
      if (c.reduction == "prod" && group > 20) c.reduction = "sum";
      c.expected = einops_test::reference_reduce(c.problem, origin, layout.strides, c.reduction);
    } else {
      for (std::int32_t v : einops_test::reference_copy(c.problem, origin, layout.strides)) c.expected.push_back(v);
    }
  }
  return cases;
}

/// The case's pattern and lengths with every axis renamed: a new cache key, the same result.
std::string renamed(std::string text, const std::string& prefix) {
  for (std::size_t at = text.find("ax"); at != std::string::npos; at = text.find("ax", at + prefix.size()))
    text.replace(at, 2, prefix);
  return text;
}

AnyTensor run_case(const Case& c, const std::string& pattern, const einops::AxisLengths& lengths) {
  switch (c.kind) {
    case Kind::rearrange: return einops::rearrange(c.input, pattern, lengths);
    case Kind::repeat: return einops::repeat(c.input, pattern, lengths);
    case Kind::reduce: return einops::reduce(c.input, pattern, c.reduction, lengths);
  }
  return {};
}

void check_case(const Case& c, const AnyTensor& y, Failures& failures, const std::string& pattern) {
  const auto shape = y.shape();
  if (!std::equal(shape.begin(), shape.end(), c.expected_shape.begin(), c.expected_shape.end()) ||
      values_of(y) != c.expected)
    failures.add("wrong result for " + pattern);
}

TEST(Stress, SixteenThreadsMixingCachedAndNewCallsOnSharedInputs) {
  const std::vector<Case> cases = make_cases(36);
  // A shared 2-D input for the calls that bring new shapes.
  constexpr std::int64_t kRows = 4, kCols = 4;
  std::vector<std::int32_t> base(static_cast<std::size_t>(kRows * kCols));
  for (std::size_t k = 0; k < base.size(); ++k) base[k] = static_cast<std::int32_t>(k);
  const int calls = calls_per_thread();
  Failures failures;
  std::atomic<std::int64_t> done{0};

  const auto worker = [&](int thread) {
    std::mt19937 rng(static_cast<unsigned>(thread) * 7919u + 1u);
    for (int call = 0; call < calls; ++call) {
      const auto roll = rng() % 100;
      try {
        if (roll < 60) {  // a hot key: parsed and planned long ago
          const Case& c = cases[rng() % cases.size()];
          check_case(c, run_case(c, c.pattern, c.problem.lengths()), failures, c.pattern);
        } else if (roll < 85) {  // a pattern text never seen before: parse, plan, cache churn
          const Case& c = cases[rng() % cases.size()];
          const std::string prefix = "t" + std::to_string(thread) + "c" + std::to_string(call) + "x";
          einops::AxisLengths lengths;
          for (const auto& [name, length] : c.problem.given) lengths.add(renamed(name, prefix), length);
          const std::string pattern = renamed(c.pattern, prefix);
          check_case(c, run_case(c, pattern, lengths), failures, pattern);
        } else if (roll < 95) {  // a new shape: a sub-block of a shared input, repeated r times
          const std::int64_t rows = 1 + static_cast<std::int64_t>(rng() % kRows);
          const std::int64_t cols = 1 + static_cast<std::int64_t>(rng() % kCols);
          const std::int64_t r = 1 + static_cast<std::int64_t>(rng() % 200);
          const TensorView<const std::int32_t> block(base.data(), {rows, cols}, {kCols, 1});
          const Tensor<std::int32_t> y = einops::repeat(block, "a b -> b r a", {{"r", r}});
          bool ok = y.shape()[0] == cols && y.shape()[1] == r && y.shape()[2] == rows;
          for (std::int64_t b = 0; ok && b < cols; ++b)
            for (std::int64_t k = 0; ok && k < r; ++k)
              for (std::int64_t a = 0; ok && a < rows; ++a) ok = y.at({b, k, a}) == a * kCols + b;
          if (!ok) failures.add("wrong repeat of a " + std::to_string(rows) + "x" + std::to_string(cols) + " block");
        } else {  // a user reduction on a shared input
          const TensorView<const std::int32_t> block(base.data(), {kRows, kCols});
          const Tensor<std::int64_t> sums = einops::reduce(block, "a b -> b", [](std::span<const std::int32_t> v) {
            std::int64_t total = 0;
            for (std::int32_t x : v) total += x;
            return total;
          });
          for (std::int64_t b = 0; b < kCols; ++b)
            if (sums.at({b}) != kCols * kRows * (kRows - 1) / 2 + kRows * b) failures.add("wrong user reduction");
        }
      } catch (const std::exception& error) {
        failures.add(std::string("unexpected exception: ") + error.what());
      }
      done.fetch_add(1, std::memory_order_relaxed);
    }
  };

  const auto start = std::chrono::steady_clock::now();
  run_with_deadline(std::chrono::seconds(1200), [&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
    for (std::thread& t : threads) t.join();
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(done.load(), std::int64_t{kThreads} * calls);
  EXPECT_EQ(failures.count(), 0) << failures.first();
  EXPECT_LE(einops::detail::plan_cache_size(), einops::detail::plan_cache_capacity());
  EXPECT_LE(einops::detail::pattern_cache_size(), einops::detail::pattern_cache_capacity());
  std::printf("[ stress   ] %d threads x %d calls in %.2f s\n", kThreads, calls, seconds);
}

/// A tensor large enough that the kernels split it across the thread pool.
Tensor<float> large_input() { return Tensor<float>::arange({512, 1024}); }

bool large_results_ok(const Tensor<float>& large) {
  const Tensor<float> t = einops::rearrange(large, "a b -> b a");
  const Tensor<float> row_max = einops::reduce(large, "a b -> a", "max");
  return t.at({1023, 511}) == large.at({511, 1023}) && t.at({3, 2}) == large.at({2, 3}) &&
         row_max.at({7}) == large.at({7, 1023});
}

TEST(Stress, StorageHandlesCopiedAndDroppedOnManyThreadsFreeTheirOwnerOnce) {
  struct Owner {
    std::atomic<int>* destroyed;
    explicit Owner(std::atomic<int>* counter) : destroyed(counter) {}
    Owner(Owner&& other) noexcept : destroyed(std::exchange(other.destroyed, nullptr)) {}
    Owner(const Owner&) = delete;
    Owner& operator=(const Owner&) = delete;
    Owner& operator=(Owner&&) = delete;
    ~Owner() {
      if (destroyed != nullptr) destroyed->fetch_add(1);
    }
  };
  constexpr int kCopies = 20000;
  std::atomic<int> destroyed{0};
  {
    const einops::Storage shared(Owner{&destroyed});
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&shared] {
        for (int i = 0; i < kCopies; ++i) {
          einops::Storage copy = shared;
          einops::Storage moved = std::move(copy);
          EXPECT_TRUE(moved == shared);
        }
      });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(shared.use_count(), 1);
    EXPECT_EQ(destroyed.load(), 0);
  }
  EXPECT_EQ(destroyed.load(), 1);
}

TEST(Stress, EinopsInsideAUserReductionDoesNotDeadlock) {
  const Tensor<float> large = large_input();
  const auto small = Tensor<float>::arange({4, 3});
  Failures failures;
  run_with_deadline(std::chrono::seconds(300), [&] {
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        for (int round = 0; round < 3; ++round) {
          // The callable runs inside reduce and calls rearrange and reduce (threaded kernels).
          const Tensor<float> y = einops::reduce(small, "a b -> a", [&](std::span<const float> v) {
            if (!large_results_ok(large)) failures.add("wrong result inside a user reduction");
            return v[0] + v[1] + v[2];
          });
          if (y.at({3}) != 9 + 10 + 11) failures.add("wrong user reduction");
        }
      });
    for (std::thread& t : threads) t.join();
  });
  EXPECT_EQ(failures.count(), 0) << failures.first();
}

TEST(Stress, LargeCallsFromManyThreadsWhileTheThreadCountChanges) {
  const Tensor<float> large = large_input();
  Failures failures;
  std::atomic<bool> stop{false};
  run_with_deadline(std::chrono::seconds(300), [&] {
    std::thread changer([&] {
      for (int n = 1; !stop.load(); n = n % 4 + 1) {
        einops::set_num_threads(n);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        for (int round = 0; round < 8; ++round)
          if (!large_results_ok(large)) failures.add("wrong large result");
      });
    for (std::thread& t : threads) t.join();
    stop = true;
    changer.join();
  });
  einops::set_num_threads(0);
  EXPECT_EQ(failures.count(), 0) << failures.first();
}

}  // namespace
