// Helpers shared by the two translation units of test_torch.
#pragma once

#include <ATen/ATen.h>
#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <string>

namespace einops_torch_test {

/// Checks d(sum(f(x) * w))/dx from autograd against central finite differences (double precision,
/// every element of x). Returns the largest absolute difference.
inline double gradient_error(const std::function<at::Tensor(const at::Tensor&)>& f, const at::Tensor& x0) {
  at::Tensor x = x0.detach().clone().to(at::kDouble).requires_grad_(true);
  const at::Tensor y = f(x);
  const at::Tensor w = at::linspace(-1.0, 2.0, y.numel(), at::kDouble).reshape(y.sizes());
  (y * w).sum().backward();
  const at::Tensor analytic = x.grad().detach().clone();
  const double eps = 1e-6;
  at::Tensor flat = x.detach().clone().reshape({-1});
  at::Tensor numeric = at::zeros_like(flat);
  const at::NoGradGuard no_grad;
  for (std::int64_t i = 0; i < flat.numel(); ++i) {
    const double v = flat[i].item<double>();
    flat[i] = v + eps;
    const double up = (f(flat.reshape(x.sizes())) * w).sum().item<double>();
    flat[i] = v - eps;
    const double down = (f(flat.reshape(x.sizes())) * w).sum().item<double>();
    flat[i] = v;
    numeric[i] = (up - down) / (2 * eps);
  }
  return (analytic.reshape({-1}) - numeric).abs().max().item<double>();
}

/// Distinct values (so min and max have one winner per group): a shuffled arange, scaled.
inline at::Tensor distinct(at::IntArrayRef shape, std::uint64_t seed = 7) {
  at::manual_seed(seed);
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return (at::randperm(n, at::kLong).to(at::kDouble) / static_cast<double>(n) + 0.5).reshape(shape);
}

}  // namespace einops_torch_test
