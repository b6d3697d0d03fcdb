// einsum against the same contraction written as a plain cblas_sgemm loop, in one run; and the
// contractions that are no matrix product (the streaming kernel) against a read pass over their
// inputs, in the same run.
//
//   build-bench/bench/bench_einsum --benchmark_counters_tabular=true
//
// Matrix products: GFLOP/s counts 2·m·n·k per product. Two fair pairs per shape:
//   einsum            vs cblas_alloc: both allocate the result on every call (what a user pays
//                                     for a new tensor: on fresh pages that includes page faults);
//   einsum_into       vs cblas:       both write into a buffer allocated once.
// einsum's figures include its plan lookup and batch loop.
// Streaming (`stream/...`): GB/s counts the bytes moved, read plus written (einsum: both inputs
// and the result). The reference `read_pass` reads the inputs once (an OR of 64-bit words, which
// the compiler vectorises, on one thread); for an elementwise product the reference `copy` is a
// memcpy of the result's bytes. The target: einsum at least 60% of the reference's rate,
// on one thread (EINOPS_NUM_THREADS=1 --benchmark_filter=stream/), and at least 1.5x LibTorch's
// `torch::einsum` on the same data (`torch`, when LibTorch was found; its result is checked against
// einops' before timing). LibTorch runs on as many threads as einops (EINOPS_NUM_THREADS).
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "einops/einsum.hpp"
#include "einops/threads.hpp"
#include "einsum_small.hpp"
#ifdef EINOPS_BENCH_TORCH
#include <algorithm>
#include <cmath>

#include "einsum_torch.hpp"
#endif

namespace {

einops::Tensor<float> filled(const einops::Shape& shape, float scale) {
  einops::Tensor<float> t(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<float>(i % 17) * scale - 1.0f;
  return t;
}

void report(benchmark::State& state, double flops_per_call) {
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops_per_call * static_cast<double>(state.iterations()) / 1e9, benchmark::Counter::kIsRate);
}

/// The cblas_sgemm loop of a batched product; `out` may be fresh memory.
void sgemm_loop(std::int64_t batch, int m, int n, int k, CBLAS_TRANSPOSE transpose_b, const float* a, const float* b,
                float* out) {
  const int ldb = transpose_b == CblasNoTrans ? n : k;
  for (std::int64_t i = 0; i < batch; ++i)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, transpose_b, m, n, k, 1.0f, a + i * m * k, k, b + i * k * n, ldb, 0.0f,
                out + i * m * n, n);
}

enum class Mode { einsum, einsum_into, cblas, cblas_alloc };

/// One contraction `pattern` of x and y, or the same as a cblas loop, timed in `mode`.
void run(benchmark::State& state, Mode mode, const einops::Tensor<float>& x, const einops::Tensor<float>& y,
         std::string_view pattern, const einops::Shape& out_shape, std::int64_t batch, int m, int n, int k,
         CBLAS_TRANSPOSE transpose_b) {
  einops::Tensor<float> out(out_shape);
  for (auto _ : state) {
    switch (mode) {
      case Mode::einsum: {
        auto fresh = einops::einsum(x, y, pattern);
        benchmark::DoNotOptimize(fresh.data());
        break;
      }
      case Mode::einsum_into: einops::einsum_into({x, y}, out, pattern); break;
      case Mode::cblas: sgemm_loop(batch, m, n, k, transpose_b, x.data(), y.data(), out.data()); break;
      case Mode::cblas_alloc: {
        std::unique_ptr<float[]> fresh(new float[static_cast<std::size_t>(batch * m * n)]);
        sgemm_loop(batch, m, n, k, transpose_b, x.data(), y.data(), fresh.get());
        benchmark::DoNotOptimize(fresh.get());
        break;
      }
    }
    benchmark::ClobberMemory();
  }
  report(state, 2.0 * static_cast<double>(batch) * m * n * k);
}

// b i k, b k j -> b i j with b = range(0), i = j = k = range(1).
void BM_batched_matmul(benchmark::State& state, Mode mode) {
  const std::int64_t b = state.range(0), n = state.range(1);
  const auto x = filled({b, n, n}, 0.01f), y = filled({b, n, n}, 0.02f);
  const int size = static_cast<int>(n);
  run(state, mode, x, y, "b i k, b k j -> b i j", {b, n, n}, b, size, size, size, CblasNoTrans);
}

// b h q d, b h k d -> b h q k with b = h = 8, q = k = range(0), d = range(1).
void BM_attention_scores(benchmark::State& state, Mode mode) {
  const std::int64_t b = 8, h = 8, q = state.range(0), d = state.range(1);
  const auto queries = filled({b, h, q, d}, 0.01f), keys = filled({b, h, q, d}, 0.02f);
  const int rows = static_cast<int>(q), depth = static_cast<int>(d);
  run(state, mode, queries, keys, "b h q d, b h k d -> b h q k", {b, h, q, q}, b * h, rows, rows, depth, CblasTrans);
}

// ---- contractions without a matrix product --------------------------------------------------------

enum class StreamMode { einsum, einsum_into, read_pass, copy, torch };

template <class T>
einops::Tensor<T> filled_as(const einops::Shape& shape, double scale) {
  einops::Tensor<T> t(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<T>(static_cast<double>(i % 17) * scale - 1.0);
  return t;
}

/// Reads `bytes` bytes (a multiple of 8) once; returns an OR of its words, so the reads stay.
std::uint64_t read_pass(const void* data, std::size_t bytes) {
  const auto* words = static_cast<const std::uint64_t*>(data);
  std::uint64_t acc[4] = {0, 0, 0, 0};
  const std::size_t count = bytes / sizeof(std::uint64_t);
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4)
    for (std::size_t u = 0; u < 4; ++u) acc[u] |= words[i + u];
  for (; i < count; ++i) acc[0] |= words[i];
  return acc[0] | acc[1] | acc[2] | acc[3];
}

/// `pattern` on operands of shapes a_shape, b_shape, or its reference, timed in `mode`.
template <class T>
void BM_stream(benchmark::State& state, StreamMode mode, std::string pattern, einops::Shape a_shape,
               einops::Shape b_shape) {
  const auto a = filled_as<T>(a_shape, 0.01), b = filled_as<T>(b_shape, 0.02);
  const einops::Tensor<T> out = einops::einsum(a, b, pattern);
  const auto input_bytes = static_cast<std::size_t>(a.size() + b.size()) * sizeof(T);
  const auto out_bytes = static_cast<std::size_t>(out.size()) * sizeof(T);
  std::vector<T> source(static_cast<std::size_t>(out.size()), T{1});
#ifdef EINOPS_BENCH_TORCH
  std::unique_ptr<bench::TorchEinsum> torch;
  if (mode == StreamMode::torch) {
    const auto dims = [](const einops::Tensor<T>& t) {
      return std::vector<std::int64_t>(t.shape().begin(), t.shape().end());
    };
    torch = std::make_unique<bench::TorchEinsum>(pattern, sizeof(T) == sizeof(double), a.data(), dims(a), b.data(),
                                                 dims(b), einops::get_num_threads());
    torch->run();
    const std::vector<double> expected = torch->result();
    // Summation orders differ: equal within a relative tolerance of the element type.
    const double tolerance = sizeof(T) == sizeof(double) ? 1e-9 : 1e-3;
    bool equal = expected.size() == static_cast<std::size_t>(out.size());
    for (std::size_t i = 0; equal && i < expected.size(); ++i) {
      const double actual = static_cast<double>(out.data()[i]);
      equal = std::abs(actual - expected[i]) <= tolerance * std::max(1.0, std::abs(expected[i]));
    }
    if (!equal) {
      state.SkipWithError("torch::einsum's result differs from einops'");
      return;
    }
  }
#endif
  for (auto _ : state) {
    switch (mode) {
      case StreamMode::einsum: {
        auto fresh = einops::einsum(a, b, pattern);
        benchmark::DoNotOptimize(fresh.data());
        break;
      }
      case StreamMode::einsum_into: einops::einsum_into({a, b}, out, pattern); break;
      case StreamMode::read_pass: {
        std::uint64_t seen = read_pass(a.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) |
                             read_pass(b.data(), static_cast<std::size_t>(b.size()) * sizeof(T));
        benchmark::DoNotOptimize(seen);
        break;
      }
      case StreamMode::copy: std::memcpy(out.data(), source.data(), out_bytes); break;
      case StreamMode::torch:
#ifdef EINOPS_BENCH_TORCH
        torch->run();
#endif
        break;
    }
    benchmark::ClobberMemory();
  }
  const std::size_t moved = mode == StreamMode::read_pass ? input_bytes
                            : mode == StreamMode::copy    ? 2 * out_bytes
                                                          : input_bytes + out_bytes;
  const double gigabytes = static_cast<double>(moved) * static_cast<double>(state.iterations()) / 1e9;
  state.counters["GB/s"] = benchmark::Counter(gigabytes, benchmark::Counter::kIsRate);
}

/// The shapes, then other common ones (short dots, a weighted sum over tokens, a product
/// summed over the batch, short free axes on both sides), float32 and float64, each with its
/// references in the same run.
void register_streaming() {
  struct Row {
    const char* name;
    const char* pattern;
    einops::Shape a, b;
    bool elementwise;
  };
  const Row rows[] = {
      {"dot", "b n d, b n d -> b n", {32, 1024, 256}, {32, 1024, 256}, false},
      {"heads_dot", "b h i d, b h i d -> b h i", {16, 8, 1024, 64}, {16, 8, 1024, 64}, false},
      {"matvec", "b n d, d -> b n", {32, 1024, 256}, {256}, false},
      {"elementwise", "b n d, b n d -> b n d", {32, 1024, 256}, {32, 1024, 256}, true},
      {"short_dot", "b n d, b n d -> b n", {64, 8192, 16}, {64, 8192, 16}, false},
      {"token_weighted_sum", "b n d, b n -> b d", {32, 1024, 256}, {32, 1024}, false},
      {"batch_summed", "b n d, b n d -> d", {32, 1024, 256}, {32, 1024, 256}, false},
      // Short free axes on both sides, either side of route.hpp's rule: 4 x 4 streams, 8 x 8 is a
      // matrix product.
      {"free_4x4", "b q d, b k d -> b q k", {8192, 4, 128}, {8192, 4, 128}, false},
      {"free_8x8", "b q d, b k d -> b q k", {4096, 8, 128}, {4096, 8, 128}, false},
  };
  const std::vector<std::pair<const char*, StreamMode>> modes = {
      {"einsum", StreamMode::einsum},
      {"einsum_into", StreamMode::einsum_into},
      {"read_pass", StreamMode::read_pass},
#ifdef EINOPS_BENCH_TORCH
      {"torch", StreamMode::torch},
#endif
  };
  for (const Row& row : rows)
    for (const char* type : {"float32", "float64"}) {
      const std::string prefix = std::string("stream/") + row.name + "/" + type + "/";
      const bool single = std::string(type) == "float32";
      for (const auto& [mode_name, mode] : modes) {
        const StreamMode reference_mode = row.elementwise && mode == StreamMode::read_pass ? StreamMode::copy : mode;
        const std::string name = prefix + (reference_mode == StreamMode::copy ? "copy" : mode_name);
        auto* bench = single ? benchmark::RegisterBenchmark(name.c_str(), BM_stream<float>, reference_mode, row.pattern,
                                                            row.a, row.b)
                             : benchmark::RegisterBenchmark(name.c_str(), BM_stream<double>, reference_mode,
                                                            row.pattern, row.a, row.b);
        bench->Unit(benchmark::kMillisecond)->UseRealTime();
      }
    }
}

}  // namespace

int main(int argc, char** argv) {
  const std::pair<const char*, Mode> modes[] = {{"einsum", Mode::einsum},
                                                {"cblas_alloc", Mode::cblas_alloc},
                                                {"einsum_into", Mode::einsum_into},
                                                {"cblas", Mode::cblas}};
  for (const auto& [name, mode] : modes) {
    // The shape, then batches of small products (the portable loops below 8x8x8, then BLAS).
    benchmark::RegisterBenchmark((std::string("batched_matmul/") + name).c_str(), BM_batched_matmul, mode)
        ->Args({32, 256})
        ->Args({16384, 4})
        ->Args({4096, 8})
        ->Args({1024, 16})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  for (const auto& [name, mode] : modes)
    benchmark::RegisterBenchmark((std::string("attention_scores/") + name).c_str(), BM_attention_scores, mode)
        ->Args({512, 64})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  register_streaming();
  bench::register_small_products();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
