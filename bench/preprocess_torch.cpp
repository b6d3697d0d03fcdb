// See preprocess_torch.hpp.
#include "preprocess_torch.hpp"

#include <torch/torch.h>

namespace bench {

void torch_preprocess(benchmark::State& state, const TorchCase& c, const float* mean, const float* std) {
  torch::NoGradGuard no_grad;
  at::set_num_threads(c.threads);
  const auto m = torch::from_blob(const_cast<float*>(mean), {1, 3, 1, 1}, torch::kFloat).clone();
  const auto s = torch::from_blob(const_cast<float*>(std), {1, 3, 1, 1}, torch::kFloat).clone();
  std::int64_t out_bytes = std::int64_t{c.batch} * c.height * c.width * 3;
  if (!c.reverse) {
    const auto x =
        torch::randint(0, 255, {c.batch, c.height, c.width, 3}, c.float_input ? torch::kFloat : torch::kUInt8);
    auto out = torch::empty({c.batch, 3, c.height, c.width}, torch::kFloat);
    out_bytes *= 4;
    for (auto _ : state) {
      out.copy_(x.permute({0, 3, 1, 2}));
      out.sub_(m).div_(s);
      benchmark::ClobberMemory();
    }
  } else {
    const auto x = torch::randn({c.batch, 3, c.height, c.width}, torch::kFloat);
    auto tmp = torch::empty_like(x);
    auto out = torch::empty({c.batch, c.height, c.width, 3}, torch::kUInt8);
    for (auto _ : state) {
      at::mul_out(tmp, x, s);
      tmp.add_(m).round_().clamp_(0, 255);
      out.copy_(tmp.permute({0, 2, 3, 1}));
      benchmark::ClobberMemory();
    }
  }
  state.counters["GB/s"] = benchmark::Counter(static_cast<double>(out_bytes) * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
}

}  // namespace bench
