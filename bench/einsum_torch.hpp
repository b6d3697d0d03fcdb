// LibTorch's `torch::einsum` on bench_einsum's data (built when LibTorch is found): the baseline of
// the streaming rows. LibTorch's headers stay in einsum_torch.cpp, compiled without the project's
// warnings.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace bench {

/// One `torch::einsum(equation, {a, b})` over two borrowed buffers (not copied; they must outlive
/// this object), in the element type `float64 ? double : float`.
class TorchEinsum {
 public:
  /// `pattern` in einops' spelling ("b n d, d -> b n"); its axis names must be single letters.
  TorchEinsum(std::string_view pattern, bool float64, const void* a, const std::vector<std::int64_t>& a_shape,
              const void* b, const std::vector<std::int64_t>& b_shape, int threads);
  ~TorchEinsum();
  TorchEinsum(const TorchEinsum&) = delete;
  TorchEinsum& operator=(const TorchEinsum&) = delete;

  /// Runs the contraction once (a new result each call, as torch::einsum returns one).
  void run();
  /// The last result's elements, converted to double, for the check against einops.
  std::vector<double> result() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace bench
