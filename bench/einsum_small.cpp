// Batched small products (src/einsum/small_product.hpp), the attention shapes of issue 45:
//   scores:  b h q d, b h k d -> b h q k     outputs: b h q k, b h k d -> b h q d
// with q = k in {8, 16, 32, 49, 64}, d in {16, 32, 64}, and tiny ones (q = 4), b·h = 2048 entries,
// one after another in one run, each shape's variants side by side:
//   einsum_into   einops, into a preallocated output (the small-product route);
//   matrix_route  the route these shapes took before (gemm.hpp's batched_gemm: a cblas call per
//                 entry, or the portable loops below kBlasMinWork), on the same strides;
//   tiles         the register tiles (small_product.hpp) on every shape, whichever route
//                 route.hpp picks: the crossover between the two;
//   torch         LibTorch's torch::einsum (when found; its result checked against einops');
//   read_pass     one read of both operands.
// The einsum_into row's counters: GFLOP/s (2·m·n·k per entry), `roofline` the larger of the
// read pass's time (measured just before, on the same buffers) and the multiply-adds at the
// register-only peak (fma_peak.hpp, measured once at start), as a fraction of einsum's time.
#include "einsum_small.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/einsum.hpp"
#include "einops/threads.hpp"
#include "einsum/gemm.hpp"
#include "einsum/small_product.hpp"
#include "fma_peak.hpp"
#ifdef EINOPS_BENCH_TORCH
#include "einsum_torch.hpp"
#endif

namespace bench {
namespace {

/// Batch entries per call (b = 32, h = 64): thousands, as in a layer over a batch of sequences.
constexpr std::int64_t kBatch = 32, kHeads = 64;
/// Read passes timed before each einsum row; the best one counts.
constexpr int kReadPasses = 10;

double peak_flops[2] = {0, 0};  // float, double

enum class Mode { einsum_into, matrix_route, tiles, torch, read_pass };
enum class Kind { scores, outputs };

template <class T>
einops::Tensor<T> filled(const einops::Shape& shape, double scale) {
  einops::Tensor<T> t(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<T>(static_cast<double>(i % 17) * scale - 0.1);
  return t;
}

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

/// The batched product of one call, as the matrix route sees it (row-major operands).
einops::detail::einsum::BatchedGemm problem_of(Kind kind, std::int64_t q, std::int64_t d, const void* x, const void* y,
                                               void* out) {
  einops::detail::einsum::BatchedGemm p;
  p.a = x;
  p.b = y;
  p.c = out;
  if (kind == Kind::scores) {  // Q [q x d] · K^T, K [q x d] read transposed -> [q x q]
    p.m = q, p.n = q, p.k = d;
    p.a_layout = {d, 1};
    p.b_layout = {1, d};
    p.c_layout = {q, 1};
    p.push_batch(kBatch * kHeads, q * d, q * d, q * q);
  } else {  // P [q x q] · V [q x d] -> [q x d]
    p.m = q, p.n = d, p.k = q;
    p.a_layout = {q, 1};
    p.b_layout = {d, 1};
    p.c_layout = {d, 1};
    p.push_batch(kBatch * kHeads, q * q, q * d, q * d);
  }
  return p;
}

template <class T>
void BM_small(benchmark::State& state, Mode mode, Kind kind, std::int64_t q, std::int64_t d) {
  const std::string_view pattern = kind == Kind::scores ? "b h q d, b h k d -> b h q k" : "b h q k, b h k d -> b h q d";
  const auto x =
      filled<T>(kind == Kind::scores ? einops::Shape{kBatch, kHeads, q, d} : einops::Shape{kBatch, kHeads, q, q}, 0.01);
  const auto y = filled<T>({kBatch, kHeads, q, d}, 0.02);
  einops::Tensor<T> out = einops::einsum(x, y, pattern);
  const auto input_bytes = static_cast<std::size_t>(x.size() + y.size()) * sizeof(T);
  const double flops = 2.0 * static_cast<double>(kBatch * kHeads) * static_cast<double>(q * q * d);
  const auto problem = problem_of(kind, q, d, x.data(), y.data(), out.data());
  // The 16-bit floats' matrix route works on float32 copies (as einsum did before the small route).
  const bool half = !std::is_same_v<T, float> && !std::is_same_v<T, double>;
  const auto shape_of = [&](const einops::Tensor<T>& t) {
    return half ? einops::Shape(t.shape().begin(), t.shape().end()) : einops::Shape{1};
  };
  einops::Tensor<float> wide_x(shape_of(x)), wide_y(shape_of(y)), wide_out(shape_of(out));
  const auto wide_problem = problem_of(kind, q, d, wide_x.data(), wide_y.data(), wide_out.data());
#ifdef EINOPS_BENCH_TORCH
  std::unique_ptr<TorchEinsum> torch;
  if (mode == Mode::torch) {
    const auto dims = [](const einops::Tensor<T>& t) {
      return std::vector<std::int64_t>(t.shape().begin(), t.shape().end());
    };
    torch = std::make_unique<TorchEinsum>(pattern, sizeof(T) == sizeof(double), x.data(), dims(x), y.data(), dims(y),
                                          einops::get_num_threads());
    torch->run();
    const std::vector<double> expected = torch->result();
    const double tolerance = sizeof(T) == sizeof(double) ? 1e-9 : 1e-3;
    bool equal = expected.size() == static_cast<std::size_t>(out.size());
    for (std::size_t i = 0; equal && i < expected.size(); ++i)
      equal = std::abs(static_cast<double>(out.data()[i]) - expected[i]) <=
              tolerance * std::max(1.0, std::abs(expected[i]));
    if (!equal) {
      state.SkipWithError("torch::einsum's result differs from einops'");
      return;
    }
  }
#endif
  double read_seconds = 1e30;
  if (mode == Mode::einsum_into)
    for (int pass = 0; pass < kReadPasses; ++pass) {
      const auto start = std::chrono::steady_clock::now();
      std::uint64_t seen = read_pass(x.data(), static_cast<std::size_t>(x.size()) * sizeof(T)) |
                           read_pass(y.data(), static_cast<std::size_t>(y.size()) * sizeof(T));
      benchmark::DoNotOptimize(seen);
      read_seconds =
          std::min(read_seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  for (auto _ : state) {
    switch (mode) {
      case Mode::einsum_into: einops::einsum_into({x, y}, out, pattern); break;
      case Mode::matrix_route:
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          einops::detail::einsum::batched_gemm(einops::dtype_of<T>::value, problem);
        } else {  // the 16-bit floats before: widened copies, the float32 product, rounded once
          for (std::int64_t i = 0; i < x.size(); ++i) wide_x.data()[i] = static_cast<float>(x.data()[i]);
          for (std::int64_t i = 0; i < y.size(); ++i) wide_y.data()[i] = static_cast<float>(y.data()[i]);
          einops::detail::einsum::batched_gemm(einops::DType::float32, wide_problem);
          for (std::int64_t i = 0; i < out.size(); ++i) out.data()[i] = static_cast<T>(wide_out.data()[i]);
        }
        break;
      case Mode::tiles: einops::detail::einsum::small_batched_product(einops::dtype_of<T>::value, problem); break;
      case Mode::torch:
#ifdef EINOPS_BENCH_TORCH
        torch->run();
#endif
        break;
      case Mode::read_pass: {
        std::uint64_t seen = read_pass(x.data(), static_cast<std::size_t>(x.size()) * sizeof(T)) |
                             read_pass(y.data(), static_cast<std::size_t>(y.size()) * sizeof(T));
        benchmark::DoNotOptimize(seen);
        break;
      }
    }
    benchmark::ClobberMemory();
  }
  const auto iterations = static_cast<double>(state.iterations());
  if (mode == Mode::read_pass) {
    state.counters["GB/s"] =
        benchmark::Counter(static_cast<double>(input_bytes) * iterations / 1e9, benchmark::Counter::kIsRate);
    return;
  }
  state.counters["GFLOP/s"] = benchmark::Counter(flops * iterations / 1e9, benchmark::Counter::kIsRate);
  if (mode == Mode::einsum_into) {
    const double peak = peak_flops[sizeof(T) == sizeof(double) ? 1 : 0];
    const double roofline_seconds = std::max(read_seconds, flops / peak);
    // kIsRate divides by the elapsed time: roofline seconds per call over seconds per call.
    state.counters["roofline"] = benchmark::Counter(roofline_seconds * iterations, benchmark::Counter::kIsRate);
  }
}

}  // namespace

void register_small_products() {
  peak_flops[0] = fma_peak_flops(false);
  peak_flops[1] = fma_peak_flops(true);
  std::printf("register-only multiply-add peak, one thread: %.1f GFLOP/s float, %.1f GFLOP/s double\n",
              peak_flops[0] / 1e9, peak_flops[1] / 1e9);
  struct Variant {
    const char* name;
    Mode mode;
  };
  const Variant variants[] = {{"einsum_into", Mode::einsum_into},
                              {"matrix_route", Mode::matrix_route},
                              {"tiles", Mode::tiles},
#ifdef EINOPS_BENCH_TORCH
                              {"torch", Mode::torch},
#endif
                              {"read_pass", Mode::read_pass}};
  const auto add = [&](const char* type, Kind kind, std::int64_t q, std::int64_t d, const Variant& v) {
    const std::string name = std::string("small/") + (kind == Kind::scores ? "scores/" : "outputs/") + type + "/q" +
                             std::to_string(q) + "/d" + std::to_string(d) + "/" + v.name;
    const std::string t(type);
    benchmark::internal::Benchmark* bench =
        t == "float32"   ? benchmark::RegisterBenchmark(name.c_str(), BM_small<float>, v.mode, kind, q, d)
        : t == "float64" ? benchmark::RegisterBenchmark(name.c_str(), BM_small<double>, v.mode, kind, q, d)
                         : benchmark::RegisterBenchmark(name.c_str(), BM_small<einops::float16>, v.mode, kind, q, d);
    bench->Unit(benchmark::kMicrosecond)->UseRealTime();
  };
  for (Kind kind : {Kind::scores, Kind::outputs})
    for (std::int64_t q : {8, 16, 32, 49, 64})
      for (std::int64_t d : {16, 32, 64})
        for (const Variant& v : variants) add("float32", kind, q, d, v);
  // Tiny products (below kBlasMinWork: the portable loops before), float32 and float64.
  for (const char* type : {"float32", "float64"})
    for (Kind kind : {Kind::scores, Kind::outputs})
      for (std::int64_t d : {4, 8, 16})
        for (const Variant& v : variants) add(type, kind, 4, d, v);
  // The other element types: float64 on three shapes, float16 (whose matrix route is float32
  // copies, the float32 product and one rounding; LibTorch's CPU einsum has no row of it here) on
  // every shape.
  for (Kind kind : {Kind::scores, Kind::outputs}) {
    for (std::int64_t q : {8, 16, 49})
      for (const Variant& v : variants) add("float64", kind, q, q == 8 ? 16 : 32, v);
    for (std::int64_t q : {8, 16, 32, 49, 64})
      for (std::int64_t d : {16, 32, 64}) {
        add("float16", kind, q, d, variants[0]);
        add("float16", kind, q, d, variants[1]);
        add("float16", kind, q, d, variants[sizeof(variants) / sizeof(variants[0]) - 1]);
      }
  }
}

}  // namespace bench
