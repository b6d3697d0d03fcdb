// Kernel benchmarks: every case of cases.cpp with einops (into preallocated outputs), the
// reference pass (memcpy of the output's bytes, or a read of the input), and LibTorch and Eigen
// where they were found; at 1 and 2 threads. scripts/bench turns the JSON output into a table.
// The float32 permutations of the "warm" group also run through einops::TensorView on caller
// memory that is not line-aligned ("einops-view16").
//
// Benchmark names: "<implementation>|<case label>|<dtype>|<threads>", and "|<group>" for the cases
// of a summary group of their own ("channels", "patchify", "pooling", "warm": a filter on these words
// selects them).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <immintrin.h>
#include <string>
#include <vector>

#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "baselines.hpp"
#include "buffers.hpp"
#include "cases.hpp"
#include "einops/detail/kernels.hpp"
#include "kernels/parallel.hpp"

namespace bench {
namespace {

/// Splits [0, bytes) into one piece per thread and runs `pass(begin, end)` on each, on the
/// same thread pool the einops kernels use.
template <class Pass>
void split_pass(std::int64_t bytes, int threads, Pass pass) {
  const std::int64_t piece = (bytes / threads + 63) / 64 * 64;
  einops::detail::parallel_for(bytes, piece, threads > 1,
                               [&](std::int64_t begin, std::int64_t end) { pass(begin, end); });
}

/// Reads every byte once: 64-bit integer sums in four independent vector accumulators. Baseline
/// x86-64 code (two 128-bit adds per 256-bit step) read at half the speed of the einops kernels
/// here, so CPUs with AVX2 take read_pass_avx2.
std::uint64_t read_pass_baseline(const std::byte* data, std::int64_t begin, std::int64_t end) {
  using Words = std::uint64_t __attribute__((vector_size(32)));
  Words a{}, b{}, c{}, d{};
  std::int64_t i = begin;
  for (; i + 128 <= end; i += 128) {
    Words w[4];
    std::memcpy(w, data + i, sizeof(w));
    a += w[0];
    b += w[1];
    c += w[2];
    d += w[3];
  }
  Words total = a + b + c + d;
  std::uint64_t sum = total[0] + total[1] + total[2] + total[3];
  for (; i < end; ++i) sum += static_cast<std::uint64_t>(data[i]);
  return sum;
}

__attribute__((target("avx2"))) std::uint64_t read_pass_avx2(const std::byte* data, std::int64_t begin,
                                                             std::int64_t end) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  std::int64_t i = begin;
  for (; i + 128 <= end; i += 128) {
    const auto* p = reinterpret_cast<const __m256i*>(data + i);
    a = _mm256_add_epi64(a, _mm256_loadu_si256(p));
    b = _mm256_add_epi64(b, _mm256_loadu_si256(p + 1));
    c = _mm256_add_epi64(c, _mm256_loadu_si256(p + 2));
    d = _mm256_add_epi64(d, _mm256_loadu_si256(p + 3));
  }
  alignas(32) std::uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                     _mm256_add_epi64(_mm256_add_epi64(a, b), _mm256_add_epi64(c, d)));
  std::uint64_t sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  for (; i < end; ++i) sum += static_cast<std::uint64_t>(data[i]);
  return sum;
}

std::uint64_t read_pass(const std::byte* data, std::int64_t begin, std::int64_t end) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2 ? read_pass_avx2(data, begin, end) : read_pass_baseline(data, begin, end);
}

void reference(benchmark::State& state, const Case& c, int threads) {
  einops::set_num_threads(threads);
  const std::int64_t bytes = c.reference_bytes();
  Buffer source(bytes), target(bytes);
  source.fill_pattern();
  target.fill_pattern();
  for (auto _ : state) {
    if (c.kind == Kind::reduce) {
      std::uint64_t sums[2] = {0, 0};
      split_pass(bytes, threads, [&](std::int64_t begin, std::int64_t end) {
        sums[begin == 0 ? 0 : 1] += read_pass(source.data(), begin, end);
      });
      benchmark::DoNotOptimize(sums);
    } else {
      split_pass(bytes, threads, [&](std::int64_t begin, std::int64_t end) {
        std::memcpy(target.data() + begin, source.data() + begin, static_cast<std::size_t>(end - begin));
      });
    }
    benchmark::ClobberMemory();
  }
}

void count_bytes(benchmark::State& state, const Case& c) {
  state.counters["traffic_bytes"] = static_cast<double>(c.traffic_bytes());
  state.counters["reference_bytes"] = static_cast<double>(c.reference_bytes());
}

void run_einops(benchmark::State& state, const Case& c, int threads) {
  einops::set_num_threads(threads);
  const einops::AnyTensor x = make_input(c);
  const einops::AnyTensor out = make_output(c);
  const einops::AxisLengths lengths = c.axis_lengths();
  for (auto _ : state) {
    run_case(c, x, out, lengths);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_bytes(state, c);
}

/// The same call through einops::TensorView on caller memory that starts 16 bytes past a cache
/// line, as malloc's blocks do (glibc aligns to 16 bytes; large blocks start 16 bytes into a page):
/// the row "einops-view16". AnyTensor buffers are line-aligned, so the "einops" row never sees
/// loads or stores that cross lines.
void run_einops_view16(benchmark::State& state, const Case& c, int threads) {
  einops::set_num_threads(threads);
  const einops::AnyTensor x = make_input(c);
  const einops::AnyTensor out = make_output(c);
  constexpr std::int64_t kOffset = 16 / sizeof(float);
  const Buffer input_memory((x.size() + kOffset) * 4), output_memory((out.size() + kOffset) * 4);
  auto* input = reinterpret_cast<float*>(input_memory.data()) + kOffset;
  auto* output = reinterpret_cast<float*>(output_memory.data()) + kOffset;
  std::memcpy(input, x.data(), static_cast<std::size_t>(x.size()) * 4);
  const einops::TensorView<const float> view_in(input, einops::Shape(x.shape().begin(), x.shape().end()));
  const einops::TensorView<float> view_out(output, einops::Shape(out.shape().begin(), out.shape().end()));
  const einops::AxisLengths lengths = c.axis_lengths();
  for (auto _ : state) {
    einops::rearrange_into(view_in, view_out, c.pattern, lengths);
    benchmark::DoNotOptimize(output);
    benchmark::ClobberMemory();
  }
  count_bytes(state, c);
}

/// The allocating form with a contiguous result, `y = einops::contiguous(einops::rearrange(x, ...))`
/// (a pure permutation alone returns a strided view, as torch's permute), with the buffer cache on
/// or off. LibTorch's counterpart is `x.permute(...).contiguous()`.
void run_einops_allocating(benchmark::State& state, const Case& c, int threads, bool cache) {
  einops::set_num_threads(threads);
  einops::set_buffer_cache_enabled(cache);
  const einops::AnyTensor x = make_input(c);
  const einops::AxisLengths lengths = c.axis_lengths();
  for (auto _ : state) {
    const einops::AnyTensor y = einops::contiguous(einops::rearrange(x, c.pattern, lengths));
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  einops::set_buffer_cache_enabled(true);
  count_bytes(state, c);
}

}  // namespace

std::string benchmark_name(const std::string& implementation, const Case& c, int threads) {
  return implementation + "|" + c.label() + "|" + std::string(einops::dtype_name(c.dtype)) + "|" +
         std::to_string(threads) + (c.group.empty() ? "" : "|" + c.group);
}

void configure(benchmark::internal::Benchmark* b, const Case& c) {
  b->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(c.group.empty() ? 0.3 : 0.1);
}

}  // namespace bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  // EINOPS_BENCH_SIMD=AVX2 (say) measures the kernels compiled for an older instruction set on
  // this CPU; the chosen set is named in the benchmark context (JSON "context").
  if (const char* target = std::getenv("EINOPS_BENCH_SIMD")) einops::detail::force_simd_target(target);
  benchmark::AddCustomContext("einops_simd_target", einops::detail::simd_target());
  for (const bench::Case& c : bench::cases())
    for (int threads : {1, 2}) {
      bench::configure(benchmark::RegisterBenchmark(bench::benchmark_name("reference", c, threads).c_str(),
                                                    bench::reference, c, threads),
                       c);
      bench::configure(benchmark::RegisterBenchmark(bench::benchmark_name("einops", c, threads).c_str(),
                                                    bench::run_einops, c, threads),
                       c);
      bench::register_baselines(c, threads);
      if (c.group == "warm" && c.kind == bench::Kind::permute && c.dtype == einops::DType::float32)
        bench::configure(benchmark::RegisterBenchmark(bench::benchmark_name("einops-view16", c, threads).c_str(),
                                                      bench::run_einops_view16, c, threads),
                         c);
      // The allocating forms for the float32 permutations outside the named groups (those time
      // the kernels into preallocated outputs only, which keeps the run short).
      if (c.kind == bench::Kind::permute && c.dtype == einops::DType::float32 && c.group.empty()) {
        bench::configure(benchmark::RegisterBenchmark(bench::benchmark_name("einops-alloc", c, threads).c_str(),
                                                      bench::run_einops_allocating, c, threads, true),
                         c);
        bench::configure(benchmark::RegisterBenchmark(bench::benchmark_name("einops-alloc-nocache", c, threads).c_str(),
                                                      bench::run_einops_allocating, c, threads, false),
                         c);
        bench::register_allocating_baselines(c, threads);
      }
    }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
