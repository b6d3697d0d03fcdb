// einops on Eigen and xtensor tensors next to those libraries' own operations, in the same run:
//   b c h w -> b h w c   (Eigen: shuffle, xtensor: transpose)
//   b c h w -> b c, sum  (Eigen: sum over two axes, xtensor: xt::sum)
// Every variant returns a new tensor of the library's own type (the allocation is timed on both
// sides), from float32 inputs of 32 x 64 x 56 x 56 (25.7 MB); memcpy of the same bytes is the
// bandwidth reference. einops runs on one thread (as Eigen and xtensor do without a device or
// TBB) and, in the *_threads variants, on the default pool.
#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

#include <einops/eigen.hpp>
#include <einops/threads.hpp>
#include <einops/xtensor.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xreducer.hpp>

namespace {

constexpr Eigen::Index kB = 32, kC = 64, kH = 56, kW = 56;
constexpr std::size_t kCount = static_cast<std::size_t>(kB * kC * kH * kW);
constexpr std::size_t kBytes = kCount * sizeof(float);

template <int Layout>
const Eigen::Tensor<float, 4, Layout>& eigen_input() {
  static const Eigen::Tensor<float, 4, Layout> x = [] {
    Eigen::Tensor<float, 4, Layout> t(kB, kC, kH, kW);
    for (std::size_t i = 0; i < kCount; ++i) t.data()[i] = static_cast<float>(i % 1009) * 0.25F;
    return t;
  }();
  return x;
}

template <xt::layout_type Layout>
const xt::xtensor<float, 4, Layout>& xtensor_input() {
  static const xt::xtensor<float, 4, Layout> x = [] {
    auto t =
        xt::xtensor<float, 4, Layout>::from_shape({std::size_t{kB}, std::size_t{kC}, std::size_t{kH}, std::size_t{kW}});
    for (std::size_t i = 0; i < kCount; ++i) t.data()[i] = static_cast<float>(i % 1009) * 0.25F;
    return t;
  }();
  return x;
}

void set_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kBytes));
}

/// Every case's reporting: wall time (the threaded cases), in milliseconds.
void in_real_milliseconds(benchmark::internal::Benchmark* b) { b->Unit(benchmark::kMillisecond)->UseRealTime(); }

/// One thread for einops unless `threads` (the default pool); restored afterwards.
struct EinopsThreads {
  explicit EinopsThreads(bool threads) { einops::set_num_threads(threads ? 0 : 1); }
  ~EinopsThreads() { einops::set_num_threads(0); }
  EinopsThreads(const EinopsThreads&) = delete;
  EinopsThreads& operator=(const EinopsThreads&) = delete;
};

void memcpy_reference(benchmark::State& state) {
  std::vector<float> in(kCount, 1.0F), out(kCount);
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), kBytes);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  set_bytes(state);
}
BENCHMARK(memcpy_reference)->Apply(in_real_milliseconds);

// ---- Eigen ---------------------------------------------------------------------------------------

template <int Layout, bool Threads>
void eigen_einops_permute(benchmark::State& state) {
  const auto& x = eigen_input<Layout>();
  const EinopsThreads threads(Threads);
  for (auto _ : state) {
    Eigen::Tensor<float, 4, Layout> y = einops::rearrange<"b c h w -> b h w c">(x);
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <int Layout>
void eigen_shuffle(benchmark::State& state) {
  const auto& x = eigen_input<Layout>();
  for (auto _ : state) {
    Eigen::Tensor<float, 4, Layout> y = x.shuffle(std::array<int, 4>{0, 2, 3, 1});
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <int Layout, bool Threads>
void eigen_einops_sum(benchmark::State& state) {
  const auto& x = eigen_input<Layout>();
  const EinopsThreads threads(Threads);
  for (auto _ : state) {
    Eigen::Tensor<float, 2, Layout> y = einops::reduce<"b c h w -> b c">(x, "sum");
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <int Layout>
void eigen_sum(benchmark::State& state) {
  const auto& x = eigen_input<Layout>();
  for (auto _ : state) {
    Eigen::Tensor<float, 2, Layout> y = x.sum(std::array<int, 2>{2, 3});
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}

BENCHMARK(eigen_einops_permute<Eigen::ColMajor, false>)
    ->Name("eigen_colmajor/permute/einops")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_permute<Eigen::ColMajor, true>)
    ->Name("eigen_colmajor/permute/einops_threads")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_shuffle<Eigen::ColMajor>)->Name("eigen_colmajor/permute/eigen_shuffle")->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_permute<Eigen::RowMajor, false>)
    ->Name("eigen_rowmajor/permute/einops")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_permute<Eigen::RowMajor, true>)
    ->Name("eigen_rowmajor/permute/einops_threads")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_shuffle<Eigen::RowMajor>)->Name("eigen_rowmajor/permute/eigen_shuffle")->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_sum<Eigen::ColMajor, false>)->Name("eigen_colmajor/sum/einops")->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_sum<Eigen::ColMajor, true>)
    ->Name("eigen_colmajor/sum/einops_threads")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_sum<Eigen::ColMajor>)->Name("eigen_colmajor/sum/eigen_sum")->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_sum<Eigen::RowMajor, false>)->Name("eigen_rowmajor/sum/einops")->Apply(in_real_milliseconds);
BENCHMARK(eigen_einops_sum<Eigen::RowMajor, true>)
    ->Name("eigen_rowmajor/sum/einops_threads")
    ->Apply(in_real_milliseconds);
BENCHMARK(eigen_sum<Eigen::RowMajor>)->Name("eigen_rowmajor/sum/eigen_sum")->Apply(in_real_milliseconds);

// ---- xtensor -------------------------------------------------------------------------------------

template <xt::layout_type Layout, bool Threads>
void xtensor_einops_permute(benchmark::State& state) {
  const auto& x = xtensor_input<Layout>();
  const EinopsThreads threads(Threads);
  for (auto _ : state) {
    xt::xtensor<float, 4, Layout> y = einops::rearrange<"b c h w -> b h w c">(x);
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <xt::layout_type Layout>
void xtensor_transpose(benchmark::State& state) {
  const auto& x = xtensor_input<Layout>();
  for (auto _ : state) {
    xt::xtensor<float, 4, Layout> y = xt::transpose(x, {0, 2, 3, 1});
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <xt::layout_type Layout, bool Threads>
void xtensor_einops_sum(benchmark::State& state) {
  const auto& x = xtensor_input<Layout>();
  const EinopsThreads threads(Threads);
  for (auto _ : state) {
    xt::xtensor<float, 2, Layout> y = einops::reduce<"b c h w -> b c">(x, "sum");
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}
template <xt::layout_type Layout>
void xtensor_sum(benchmark::State& state) {
  const auto& x = xtensor_input<Layout>();
  for (auto _ : state) {
    xt::xtensor<float, 2, Layout> y = xt::sum(x, {2, 3});
    benchmark::DoNotOptimize(y.data());
  }
  set_bytes(state);
}

constexpr auto kRow = xt::layout_type::row_major;
constexpr auto kCol = xt::layout_type::column_major;
BENCHMARK(xtensor_einops_permute<kRow, false>)->Name("xtensor_row_major/permute/einops")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_einops_permute<kRow, true>)
    ->Name("xtensor_row_major/permute/einops_threads")
    ->Apply(in_real_milliseconds);
BENCHMARK(xtensor_transpose<kRow>)->Name("xtensor_row_major/permute/xt_transpose")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_einops_permute<kCol, false>)
    ->Name("xtensor_column_major/permute/einops")
    ->Apply(in_real_milliseconds);
BENCHMARK(xtensor_transpose<kCol>)->Name("xtensor_column_major/permute/xt_transpose")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_einops_sum<kRow, false>)->Name("xtensor_row_major/sum/einops")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_einops_sum<kRow, true>)->Name("xtensor_row_major/sum/einops_threads")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_sum<kRow>)->Name("xtensor_row_major/sum/xt_sum")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_einops_sum<kCol, false>)->Name("xtensor_column_major/sum/einops")->Apply(in_real_milliseconds);
BENCHMARK(xtensor_sum<kCol>)->Name("xtensor_column_major/sum/xt_sum")->Apply(in_real_milliseconds);

}  // namespace

BENCHMARK_MAIN();
