// LibTorch: out.copy_(x.view(...).permute(...)), at::sum_out / amax_out / mean_out with out=,
// out.copy_(x.view(...).expand(...)), all into preallocated outputs; the pooling cases as a torch
// user writes them, at::max_pool2d (no out= form: it returns a new tensor) and at::avg_pool2d_out
// on the NCHW image, or on the channels_last NCHW view of an NHWC input. Each case's result is
// checked against einops' once before it is timed. The only file that includes <torch/torch.h>
// (it takes ~25 s to compile).
#include <torch/torch.h>

#include <benchmark/benchmark.h>

#include <exception>
#include <map>
#include <string>
#include <vector>

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
    case einops::DType::uint8: return torch::kUInt8;
    case einops::DType::int64: return torch::kInt64;
    default: return torch::kFloat32;
  }
}

/// The input as LibTorch takes it: viewed with elementary axes, or for a pooling case the 4-d
/// image with NCHW logical axes (strided as channels_last when the input is NHWC).
torch::Tensor torch_input(const Case& c, void* data, const torch::TensorOptions& options) {
  const torch::Tensor x = torch::from_blob(data, c.input_shape, options);
  if (c.pool_window == 0) return x.view(c.view);
  return c.channels_last ? x.permute({0, 3, 1, 2}) : x;
}

/// A preallocated result: the output view, or a pooling case's NCHW result in its input's layout.
torch::Tensor torch_output(const Case& c, const torch::TensorOptions& options) {
  const einops::Shape shape = c.output_view();
  if (c.pool_window == 0 || !c.channels_last) return torch::zeros(shape, options);
  return torch::zeros({shape[0], shape[3], shape[1], shape[2]}, options.memory_format(at::MemoryFormat::ChannelsLast));
}

/// One call of the case's work; returns the result (`out`, or max_pool2d's new tensor).
torch::Tensor run_once(const Case& c, const torch::Tensor& x, torch::Tensor& out) {
  if (c.pool_window != 0) {
    const std::vector<std::int64_t> window{c.pool_window, c.pool_window};
    if (c.reduction == "max") return at::max_pool2d(x, window, window);
    at::avg_pool2d_out(out, x, window, window);
    return out;
  }
  switch (c.kind) {
    case Kind::permute: out.copy_(x.permute(c.permutation)); break;
    case Kind::repeat: out.copy_(x.expand(c.expand)); break;
    case Kind::reduce:
      if (c.reduction == "sum") at::sum_out(out, x, c.axes);
      else if (c.reduction == "max") at::amax_out(out, x, c.axes);
      else at::mean_out(out, x, c.axes);
      break;
  }
  return out;
}

/// Empty when LibTorch's result equals einops' on the case's input (exactly, except sums and
/// means: to the dtype's rounding, as the two may add in different orders); else what differs.
std::string check(const Case& c, const einops::AnyTensor& input, const torch::Tensor& x, torch::Tensor& out) {
  const einops::AnyTensor expected = make_output(c);
  run_case(c, input, expected, c.axis_lengths());
  torch::Tensor want =
      torch::from_blob(expected.data(), c.output_view(), torch::TensorOptions().dtype(torch_dtype(expected.dtype())));
  if (c.pool_window != 0 && c.channels_last) want = want.permute({0, 3, 1, 2});
  const torch::Tensor got = run_once(c, x, out).to(torch::kFloat64);
  want = want.to(torch::kFloat64);
  if (got.sizes() != want.sizes()) return "LibTorch's result has another shape than einops'";
  const bool rounded = c.kind == Kind::reduce && (c.reduction == "sum" || c.reduction == "mean");
  const bool half = c.dtype == einops::DType::float16 || c.dtype == einops::DType::bfloat16;
  const bool same = rounded ? torch::allclose(got, want, half ? 1e-2 : 1e-5, 1e-6) : torch::equal(got, want);
  return same ? "" : "LibTorch's result differs from einops'";
}

void run_torch(benchmark::State& state, const Case& c, int threads) {
  at::set_num_threads(threads);
  const einops::AnyTensor input = make_input(c);
  const auto options = torch::TensorOptions().dtype(torch_dtype(c.dtype));
  const torch::Tensor x = torch_input(c, input.data(), options);
  torch::Tensor out = torch_output(c, options);
  static std::map<std::string, std::string> verdicts;  // one check per case and process
  auto [verdict, fresh] = verdicts.try_emplace(c.label() + "|" + std::string(einops::dtype_name(c.dtype)));
  if (fresh) verdict->second = check(c, input, x, out);
  if (!verdict->second.empty()) {
    state.SkipWithError(verdict->second.c_str());
    return;
  }
  for (auto _ : state) {
    const torch::Tensor y = run_once(c, x, out);
    benchmark::DoNotOptimize(y.data_ptr());
    benchmark::ClobberMemory();
  }
}

/// Whether LibTorch implements the case's operation for its dtype on the CPU (its pooling does
/// not for every dtype): one call on a single window.
bool torch_implements(const Case& c) {
  if (c.pool_window == 0) return true;
  const auto options = torch::TensorOptions().dtype(torch_dtype(c.dtype));
  const torch::Tensor x = torch::zeros({1, 1, c.pool_window, c.pool_window}, options);
  torch::Tensor out = torch::zeros({1, 1, 1, 1}, options);
  const std::vector<std::int64_t> window{c.pool_window, c.pool_window};
  try {
    if (c.reduction == "max") (void)at::max_pool2d(x, window, window);
    else at::avg_pool2d_out(out, x, window, window);
  } catch (const std::exception&) {
    return false;
  }
  return true;
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
  configure(
      benchmark::RegisterBenchmark(benchmark_name("torch-alloc", c, threads).c_str(), run_torch_allocating, c, threads),
      c);
}

void register_torch(const Case& c, int threads) {
  if (!torch_implements(c)) return;  // the row's LibTorch column stays empty
  configure(benchmark::RegisterBenchmark(benchmark_name("torch", c, threads).c_str(), run_torch, c, threads), c);
}

}  // namespace bench
