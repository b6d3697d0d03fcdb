// Per-call cost on a tiny tensor: a literal pattern, a cached run-time string, and a hand-written
// loop doing the same copy ([2,3,4,5] float, "b c h w -> b h w c", into a preallocated output).
#include <benchmark/benchmark.h>
#include <einops/einops.hpp>

#include <string>

namespace {

constexpr std::int64_t B = 2, C = 3, H = 4, W = 5;

struct Data {
  einops::Tensor<float> x = einops::Tensor<float>::arange({B, C, H, W});
  einops::Tensor<float> out = einops::Tensor<float>({B, H, W, C});
};

void literal_pattern(benchmark::State& state) {
  Data d;
  for (auto _ : state) {
    einops::rearrange_into(d.x, d.out, "b c h w -> b h w c");
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(literal_pattern);

void runtime_string(benchmark::State& state) {
  Data d;
  const std::string pattern = "b c h w -> b h w c";
  for (auto _ : state) {
    einops::rearrange_into(d.x, d.out, pattern);
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(runtime_string);

void hand_written_loop(benchmark::State& state) {
  Data d;
  for (auto _ : state) {
    const float* in = d.x.data();
    float* out = d.out.data();
    benchmark::DoNotOptimize(in);
    for (std::int64_t b = 0; b < B; ++b)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t w = 0; w < W; ++w)
          for (std::int64_t c = 0; c < C; ++c) out[((b * H + h) * W + w) * C + c] = in[((b * C + c) * H + h) * W + w];
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(hand_written_loop);

}  // namespace

BENCHMARK_MAIN();
