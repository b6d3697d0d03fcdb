// einops.layers.EinMix without a framework: a linear layer written as an einsum pattern, on the
// built-in tensor (and through it on any strided tensor: `mix(einops::view(eigen_tensor))`).
//
//   einops::EinMix mix("b t c -> b t d", "c d", "d", {{"c", 48}, {"d", 32}});  // weight, bias shapes
//   einops::Tensor<float> y = mix(x);                                         // x: (b, t, 48)
//   mix.set_weight(w);                     // or read and write mix.weight() in place
//
// Construction makes every check einops' EinMix makes (one implementation with the LibTorch layer:
// detail/einmix_structure.hpp) and initialises the parameters as einops does: the weight uniform
// in ±sqrt(3 / fan_in), the bias uniform in ±sqrt(1 / fan_in), from a seeded generator (the same
// seed gives the same values on every platform). A call runs einops' decomposition with the
// library's own operations: pre-rearrange, einsum with the weight, bias add, post-rearrange.
// Parameters are float32 (the default) or float64; an input must hold the parameters' type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "einops/detail/einmix_structure.hpp"
#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/ops.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {

class EinMix {
 public:
  /// The generator's seed when none is given.
  static constexpr std::uint64_t kDefaultSeed = 0;

  /// einops' EinMix(pattern, weight_shape, bias_shape, **axes_lengths); throws EinopsError for
  /// every construction einops rejects, and for parameter types other than float32 and float64.
  EINOPS_API EinMix(std::string pattern, std::string weight_shape, std::optional<std::string> bias_shape = std::nullopt,
                    AxisLengths lengths = {}, DType dtype = DType::float32, std::uint64_t seed = kDefaultSeed);
  /// Copies own their parameters (a deep copy, as torch's clone()).
  EINOPS_API EinMix(const EinMix& other);
  EINOPS_API EinMix& operator=(const EinMix& other);
  EinMix(EinMix&&) noexcept = default;
  EinMix& operator=(EinMix&&) noexcept = default;
  ~EinMix() = default;

  /// The layer applied to `x` (a Tensor<T>, TensorView<T> or AnyTensor of the parameters' type).
  template <TensorInput X>
    requires(!detail::list_input<X>)
  result_of_t<X> operator()(const X& x) const {
    return detail::input_traits<X>::typed(forward(detail::input_traits<X>::single(x)));
  }
  EINOPS_API AnyTensor forward(const detail::TensorRef& x) const;

  /// The parameters. The handles share the layer's storage: writes through them change the layer.
  const AnyTensor& weight() const { return weight_; }
  const std::optional<AnyTensor>& bias() const { return bias_; }
  /// Copies `values` (any strides; the parameter's shape and type) into the parameter; throws
  /// EinopsError for another shape or type, and set_bias for a layer without a bias.
  EINOPS_API void set_weight(const AnyTensor& values);
  EINOPS_API void set_bias(const AnyTensor& values);
  /// Re-initialises the parameters as einops does, from `seed`.
  EINOPS_API void reset(std::uint64_t seed);

  DType dtype() const { return dtype_; }
  const std::string& pattern() const { return pattern_; }
  const std::string& weight_shape() const { return weight_shape_; }
  const std::optional<std::string>& bias_shape() const { return bias_shape_; }
  const AxisLengths& lengths() const { return lengths_; }
  /// einops' repr: `EinMix('b c -> b d', 'c d', 'd', c=3, d=4)`.
  EINOPS_API std::string repr() const;
  /// The decomposition einops computes (patterns, lengths, einsum pattern, shapes, fan-in).
  const detail::EinMixStructure& structure() const { return structure_; }

 private:
  std::string pattern_;
  std::string weight_shape_;
  std::optional<std::string> bias_shape_;
  AxisLengths lengths_;
  DType dtype_;
  detail::EinMixStructure structure_;
  std::string einsum_pattern_;  // structure_.einsum_pattern in the notation of einops::einsum
  AnyTensor weight_;
  std::optional<AnyTensor> bias_;
};

}  // namespace einops
