// einops' parallel loops on a host application's pool (einops::set_parallel_for): the host loop
// is used, receives each chunk once, and gives results bit-identical to the built-in pool's for
// any thread count; an empty loop restores the built-in pool. Host loops here: std::thread,
// chunks in reverse order on one thread, and (built with OpenMP) an `omp parallel for`.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <einops/einops.hpp>
#include <einops/threads.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using Body = std::function<void(std::int64_t)>;

/// Calls of the host loop, and indices it ran, across all loops of a test.
std::atomic<std::int64_t> host_calls{0};
std::atomic<std::int64_t> host_indices{0};

/// Runs the indices on `threads` std::threads (the caller one of them), claimed from a counter.
einops::ParallelFor std_thread_loop(int threads) {
  return [threads](std::int64_t count, const Body& body) {
    ++host_calls;
    std::atomic<std::int64_t> next{0};
    const auto work = [&] {
      for (std::int64_t i = next++; i < count; i = next++) {
        body(i);
        ++host_indices;
      }
    };
    std::vector<std::thread> helpers;
    for (int t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
    for (std::thread& helper : helpers) helper.join();
  };
}

/// Runs the indices on the calling thread, last first.
einops::ParallelFor reverse_loop() {
  return [](std::int64_t count, const Body& body) {
    ++host_calls;
    for (std::int64_t i = count - 1; i >= 0; --i) {
      body(i);
      ++host_indices;
    }
  };
}

#ifdef _OPENMP
einops::ParallelFor openmp_loop(int threads) {
  return [threads](std::int64_t count, const Body& body) {
    ++host_calls;
#pragma omp parallel for schedule(dynamic) num_threads(threads)
    for (std::int64_t i = 0; i < count; ++i) {
      body(i);
      ++host_indices;
    }
  };
}
#endif

class HostPool : public ::testing::Test {
 protected:
  void SetUp() override {
    host_calls = 0;
    host_indices = 0;
  }
  void TearDown() override {
    einops::set_parallel_for(nullptr);
    einops::set_num_threads(0);
  }
};

struct Case {
  std::vector<std::int64_t> shape;
  const char* pattern;
  const char* reduction;  // empty: a rearrange
};

/// Large float reductions and copies: every kernel family that splits its work into chunks.
std::vector<Case> cases(std::int64_t n) {
  return {
      {{n}, "a -> ", "sum"},                          // one output, cut into pieces
      {{2, n / 2}, "a b -> a", "sum"},                // few outputs, inner mode
      {{n / 64, 64}, "a b -> b", "mean"},             // few outputs, outer mode
      {{32, 64, n / 2048}, "b c hw -> b hw", "sum"},  // outer mode, many outputs
      {{100, 20000}, "a b -> b", "sum"},              // outer mode, two tiles
      {{5, 4000, 16}, "a b c -> b a", "mean"},        // inner mode, chunks cut the b loop
      {{n / 3 / 512, 512, 3}, "h w c -> c h w", ""},  // short-axis copy
      {{16, 16, n / 256}, "a b c -> c b a", ""},      // a permuted copy
  };
}

std::vector<float> random_input(std::size_t size) {
  std::mt19937_64 rng(7);
  std::vector<float> x(size);
  for (float& v : x) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  return x;
}

std::vector<float> run(const std::vector<float>& x, const Case& c) {
  const einops::TensorView<const float> view(x.data(), c.shape);
  const einops::Tensor<float> result = std::string(c.reduction).empty()
                                           ? einops::rearrange(view, einops::runtime(c.pattern))
                                           : einops::reduce(view, einops::runtime(c.pattern), c.reduction).as<float>();
  return result.to_vector();
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST_F(HostPool, ResultsAreBitIdenticalToTheBuiltInPool) {
  const std::vector<float> x = random_input(std::size_t{3} << 20);
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  std::map<std::string, std::int64_t> calls_per_loop;  // some problems run as one chunk: no loop
  for (const Case& c : cases(n)) {
    einops::set_num_threads(1);
    const std::vector<float> serial = run(x, c);
    for (int threads : {2, 3, 8}) {
      einops::set_num_threads(threads);
      EXPECT_TRUE(same_bits(serial, run(x, c))) << c.pattern << ": built-in pool, " << threads << " threads";
    }
    einops::set_num_threads(8);  // the hook runs where the built-in pool would use threads
    std::vector<std::pair<std::string, einops::ParallelFor>> loops = {{"reverse order", reverse_loop()}};
    for (int threads : {1, 2, 3, 8})
      loops.emplace_back(std::to_string(threads) + " std::threads", std_thread_loop(threads));
#ifdef _OPENMP
    for (int threads : {1, 2, 3, 8})
      loops.emplace_back(std::to_string(threads) + " OpenMP threads", openmp_loop(threads));
#endif
    for (const auto& [name, loop] : loops) {
      einops::set_parallel_for(loop);
      host_calls = 0;
      EXPECT_TRUE(same_bits(serial, run(x, c))) << c.pattern << ": host loop, " << name;
      calls_per_loop[name] += host_calls.load();
    }
    einops::set_parallel_for(nullptr);
  }
  for (const auto& [name, calls] : calls_per_loop) EXPECT_GE(calls, 4) << "the host loop was not used (" << name << ")";
}

TEST_F(HostPool, EachChunkRunsOnceAndCoversTheWork) {
  // A reduction whose every output element is written by exactly one chunk: a missed or repeated
  // index would leave a wrong value or run more indices than the loop was given.
  std::int64_t given = 0;
  einops::set_parallel_for([&](std::int64_t count, const Body& body) {
    given += count;
    std_thread_loop(3)(count, body);
  });
  einops::set_num_threads(4);
  const auto x = einops::Tensor<float>::arange({2048, 2048});
  const std::vector<float> hosted = einops::reduce(x, "a b -> a", "sum").as<float>().to_vector();
  EXPECT_GT(given, 1);
  EXPECT_EQ(host_indices.load(), given);
  einops::set_parallel_for(nullptr);
  einops::set_num_threads(1);
  EXPECT_TRUE(same_bits(hosted, einops::reduce(x, "a b -> a", "sum").as<float>().to_vector()));
}

TEST_F(HostPool, NotCalledForSmallWorkOrOneThread) {
  einops::set_parallel_for(std_thread_loop(2));
  einops::set_num_threads(4);
  (void)einops::reduce(einops::Tensor<float>::arange({30, 40}), "a b -> a", "sum");  // below the threshold
  EXPECT_EQ(host_calls.load(), 0);
  einops::set_num_threads(1);  // one thread: everything on the calling thread
  (void)einops::reduce(einops::Tensor<float>::arange({2048, 2048}), "a b -> a", "sum");
  EXPECT_EQ(host_calls.load(), 0);
}

TEST_F(HostPool, EmptyLoopRestoresTheBuiltInPool) {
  EXPECT_FALSE(einops::has_host_parallel_for());
  einops::set_parallel_for(std_thread_loop(2));
  EXPECT_TRUE(einops::has_host_parallel_for());
  einops::set_num_threads(4);
  const auto x = einops::Tensor<float>::arange({2048, 2048});
  const std::vector<float> hosted = einops::reduce(x, "a b -> a", "sum").as<float>().to_vector();
  const std::int64_t calls = host_calls.load();
  EXPECT_GT(calls, 0);
  einops::set_parallel_for(nullptr);
  EXPECT_FALSE(einops::has_host_parallel_for());
  const std::vector<float> built_in = einops::reduce(x, "a b -> a", "sum").as<float>().to_vector();
  EXPECT_EQ(host_calls.load(), calls);
  EXPECT_TRUE(same_bits(hosted, built_in));
}

}  // namespace
