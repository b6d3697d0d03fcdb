// einsum against the same contraction written as a plain cblas_sgemm loop, in one run.
//
//   build-bench/bench/bench_einsum --benchmark_counters_tabular=true
//
// GFLOP/s counts 2·m·n·k per matrix product. Two fair pairs per shape:
//   einsum            vs cblas_alloc: both allocate the result on every call (what a user pays
//                                     for a new tensor: on fresh pages that includes page faults);
//   einsum_into       vs cblas:       both write into a buffer allocated once.
// einsum's figures include its plan lookup and batch loop.
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "einops/einsum.hpp"

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

}  // namespace

int main(int argc, char** argv) {
  const std::pair<const char*, Mode> modes[] = {
      {"einsum", Mode::einsum}, {"cblas_alloc", Mode::cblas_alloc}, {"einsum_into", Mode::einsum_into}, {"cblas", Mode::cblas}};
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
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
