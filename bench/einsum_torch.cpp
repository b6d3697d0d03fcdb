#include "einsum_torch.hpp"

#include <torch/torch.h>

#include <string>

namespace bench {

struct TorchEinsum::State {
  std::string equation;
  torch::Tensor a, b, out;
};

namespace {

/// einops' spelling to torch's: spaces dropped, ", " and " -> " become "," and "->".
std::string torch_equation(std::string_view pattern) {
  std::string equation;
  for (char c : pattern)
    if (c != ' ') equation += c;
  return equation;
}

torch::Tensor borrow(const void* data, const std::vector<std::int64_t>& shape, bool float64) {
  return torch::from_blob(const_cast<void*>(data), shape, float64 ? torch::kFloat64 : torch::kFloat32);
}

}  // namespace

TorchEinsum::TorchEinsum(std::string_view pattern, bool float64, const void* a,
                         const std::vector<std::int64_t>& a_shape, const void* b,
                         const std::vector<std::int64_t>& b_shape, int threads)
    : state_(std::make_unique<State>()) {
  at::set_num_threads(threads);
  state_->equation = torch_equation(pattern);
  state_->a = borrow(a, a_shape, float64);
  state_->b = borrow(b, b_shape, float64);
}

TorchEinsum::~TorchEinsum() = default;

void TorchEinsum::run() { state_->out = torch::einsum(state_->equation, {state_->a, state_->b}); }

std::vector<double> TorchEinsum::result() const {
  const torch::Tensor values = state_->out.contiguous().to(torch::kFloat64);
  const double* data = values.data_ptr<double>();
  return std::vector<double>(data, data + values.numel());
}

}  // namespace bench
