// LibTorch: out.copy_(x.view(...).permute(...)), at::sum_out / amax_out / mean_out with out=,
// out.copy_(x.view(...).expand(...)), all into preallocated outputs. The only file that includes
// <torch/torch.h> (it takes ~25 s to compile).
#include <torch/torch.h>

#include <benchmark/benchmark.h>

#include "baselines.hpp"
#include "buffers.hpp"

namespace bench {
namespace {

c10::ScalarType torch_dtype(einops::DType dtype) {
  switch (dtype) {
    case einops::DType::float32: return torch::kFloat32;
    case einops::DType::float64: return torch::kFloat64;
    case einops::DType::float16: return torch::kFloat16;
    case einops::DType::bfloat16: return torch::kBFloat16;
    case einops::DType::int8: return torch::kInt8;
    default: return torch::kFloat32;
  }
}

void run_torch(benchmark::State& state, const Case& c, int threads) {
  at::set_num_threads(threads);
  const einops::AnyTensor input = make_input(c);
  const auto options = torch::TensorOptions().dtype(torch_dtype(c.dtype));
  const torch::Tensor x = torch::from_blob(input.data(), c.input_shape, options).view(c.view);
  torch::Tensor out = torch::zeros(c.output_view(), options);
  const std::vector<std::int64_t> axes = c.axes;
  for (auto _ : state) {
    switch (c.kind) {
      case Kind::permute: out.copy_(x.permute(c.permutation)); break;
      case Kind::repeat: out.copy_(x.expand(c.expand)); break;
      case Kind::reduce:
        if (c.reduction == "sum")
          at::sum_out(out, x, axes);
        else if (c.reduction == "max")
          at::amax_out(out, x, axes);
        else
          at::mean_out(out, x, axes);
        break;
    }
    benchmark::DoNotOptimize(out.data_ptr());
    benchmark::ClobberMemory();
  }
}

void run_torch_allocating(benchmark::State& state, const Case& c, int threads) {
  at::set_num_threads(threads);
  const einops::AnyTensor input = make_input(c);
  const auto options = torch::TensorOptions().dtype(torch_dtype(c.dtype));
  const torch::Tensor x = torch::from_blob(input.data(), c.input_shape, options).view(c.view);
  for (auto _ : state) {
    const torch::Tensor y = x.permute(c.permutation).contiguous();
    benchmark::DoNotOptimize(y.data_ptr());
    benchmark::ClobberMemory();
  }
}

}  // namespace

void register_torch_allocating(const Case& c, int threads) {
  configure(benchmark::RegisterBenchmark(benchmark_name("torch-alloc", c, threads).c_str(), run_torch_allocating, c,
                                         threads));
}

void register_torch(const Case& c, int threads) {
  configure(benchmark::RegisterBenchmark(benchmark_name("torch", c, threads).c_str(), run_torch, c, threads));
}

}  // namespace bench
