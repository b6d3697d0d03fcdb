// The LibTorch adapter's added time per call: each einops call next to the bare ATen calls that do
// the same steps (the ops the adapter runs), timed in alternating batches in one run, on a tiny
// [2,3,4,5] tensor and on [32,64,56,56]. `added_ns` is the adapter's cost per call: the lookup of
// the call's cached steps (a hash and a comparison) and passing the shapes to ATen.
//
//   bench_torch_overhead --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <einops/torch.hpp>

#include <chrono>
#include <cstdint>
#include <vector>

namespace {

at::Tensor input(std::int64_t size_class) {
  return size_class == 0 ? at::randn({2, 3, 4, 5}) : at::randn({32, 64, 56, 56});
}

/// Times `einops_call` and `aten_call` in alternating batches of 256 calls (so that the load of a
/// shared machine falls on both alike); the counters give each one's time per call and the
/// difference, the adapter's added time.
template <class Einops, class Aten>
void run_pair(benchmark::State& state, Einops&& einops_call, Aten&& aten_call) {
  using clock = std::chrono::steady_clock;
  constexpr int kBatch = 256;
  double einops_ns = 0, aten_ns = 0;
  std::int64_t batches = 0;
  const auto time_batch = [](auto& call) {
    const auto start = clock::now();
    for (int i = 0; i < kBatch; ++i) benchmark::DoNotOptimize(call());
    return std::chrono::duration<double, std::nano>(clock::now() - start).count();
  };
  for (auto _ : state) {
    // Alternate which goes first, so that neither always finds the caches as the other left them.
    if (batches % 2 == 0) {
      einops_ns += time_batch(einops_call);
      aten_ns += time_batch(aten_call);
    } else {
      aten_ns += time_batch(aten_call);
      einops_ns += time_batch(einops_call);
    }
    ++batches;
  }
  const double calls = static_cast<double>(batches) * kBatch;
  state.counters["einops_ns"] = einops_ns / calls;
  state.counters["aten_ns"] = aten_ns / calls;
  state.counters["added_ns"] = (einops_ns - aten_ns) / calls;
}

// b c h w -> b h w c: one permute (a view).
void BM_permute(benchmark::State& state) {
  const at::Tensor x = input(state.range(0));
  run_pair(
      state, [&] { return einops::rearrange(x, "b c h w -> b h w c"); },
      [&] {
        return x.permute({0, 2, 3, 1});
      });
}

// b c h w -> b (c h w): one reshape (a view).
void BM_flatten(benchmark::State& state) {
  const at::Tensor x = input(state.range(0));
  const std::vector<std::int64_t> shape = {x.size(0), x.size(1) * x.size(2) * x.size(3)};
  run_pair(
      state, [&] { return einops::rearrange(x, "b c h w -> b (c h w)"); }, [&] { return x.reshape(shape); });
}

// b c h w -> b c h w r (r = 2): a reshape and an expand (a view).
void BM_repeat(benchmark::State& state) {
  const at::Tensor x = input(state.range(0));
  std::vector<std::int64_t> expanded(x.sizes().begin(), x.sizes().end());
  expanded.push_back(1);
  std::vector<std::int64_t> broadcast = expanded;
  broadcast.back() = 2;
  const einops::AxisLengths lengths{{"r", 2}};  // built once, as a layer holds its lengths
  run_pair(
      state, [&] { return einops::repeat(x, "b c h w -> b c h w r", lengths); },
      [&] { return x.reshape(expanded).expand(broadcast); });
}

// b c (h 2) w -> b c h w with max: a reshape and an amax (pooling along h).
void BM_maxpool(benchmark::State& state) {
  const at::Tensor x = input(state.range(0));
  const std::vector<std::int64_t> shape = {x.size(0), x.size(1), x.size(2) / 2, 2, x.size(3)};
  const std::vector<std::int64_t> axes = {3};
  run_pair(
      state, [&] { return einops::reduce(x, "b c (h 2) w -> b c h w", "max"); },
      [&] { return x.reshape(shape).amax(axes); });
}

// Arg 0: [2,3,4,5]; arg 1: [32,64,56,56].
BENCHMARK(BM_permute)->Arg(0)->Arg(1);
BENCHMARK(BM_flatten)->Arg(0)->Arg(1);
BENCHMARK(BM_repeat)->Arg(0)->Arg(1);
BENCHMARK(BM_maxpool)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
