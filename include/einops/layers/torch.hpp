// einops' layers for LibTorch: Rearrange, Reduce, EinMix and CheckShape as torch::nn modules.
//
//   #include <einops/layers/torch.hpp>
//   torch::nn::Sequential model(
//       einops::layers::torch::CheckShape("b 3 h w"),
//       einops::layers::torch::Rearrange("b c (h h2) (w w2) -> b h w (c h2 w2)", {{"h2", 2}, {"w2", 2}}),
//       einops::layers::torch::EinMix("b h w c -> b h w d", "c d", "d", {{"c", 12}, {"d", 32}}),
//       einops::layers::torch::Reduce("b h w d -> b d", "mean"));
//
// Each is a module holder (like torch::nn::Linear) over a Cloneable module: usable in
// torch::nn::Sequential, named_parameters(), to(device/dtype), clone(), torch::save/torch::load.
// Patterns and lengths are checked when the layer is made, as einops does (EinMix: every check of
// einops' EinMix); printing gives einops' repr, e.g. `Rearrange('b c h w -> b (c h w)')`.
//
// EinMix holds `weight` (uniform in ±sqrt(3/fan_in)) and, with a bias shape, `bias` (uniform in
// ±sqrt(1/fan_in)), and runs einops' decomposition: pre-rearrange, einsum, bias, post-rearrange.
#pragma once

#include <torch/nn/cloneable.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <array>
#include <cmath>
#include <memory>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "einops/detail/einmix_structure.hpp"
#include "einops/detail/layer_checks.hpp"
#include "einops/torch.hpp"

namespace einops::layers::torch {
namespace detail {

using einops::detail::check_layer_pattern;
using einops::detail::check_shape_layer_pattern;

/// einops' repr of a layer: `Name('pattern', 'argument', ..., name=length, ...)`; a null argument
/// (EinMix without a bias) is left out.
inline void print_layer(std::ostream& stream, std::string_view name, const std::string& pattern,
                        const AxisLengths& lengths, std::initializer_list<const std::string*> arguments = {}) {
  stream << name << "('" << pattern << "'";
  for (const std::string* argument : arguments)
    if (argument != nullptr) stream << ", '" << *argument << "'";
  for (const auto& [axis, length] : lengths.entries()) stream << ", " << axis << '=' << length;
  stream << ')';
}

}  // namespace detail

/// einops.layers.torch.Rearrange.
class RearrangeImpl : public ::torch::nn::Cloneable<RearrangeImpl> {
 public:
  explicit RearrangeImpl(std::string pattern, AxisLengths lengths = {})
      : pattern_(std::move(pattern)), lengths_(std::move(lengths)) {
    detail::check_layer_pattern("Rearrange", Operation::rearrange, pattern_, lengths_);
  }
  void reset() override {}
  at::Tensor forward(const at::Tensor& x) { return einops::rearrange(x, runtime(pattern_), lengths_); }
  void pretty_print(std::ostream& stream) const override {
    detail::print_layer(stream, "Rearrange", pattern_, lengths_);
  }
  const std::string& pattern() const { return pattern_; }
  const AxisLengths& lengths() const { return lengths_; }

 private:
  std::string pattern_;
  AxisLengths lengths_;
};
/// The module holder (what TORCH_MODULE(Rearrange) would declare; that macro cannot be used inside a
/// namespace named torch).
class Rearrange : public ::torch::nn::ModuleHolder<RearrangeImpl> {
 public:
  using ::torch::nn::ModuleHolder<RearrangeImpl>::ModuleHolder;
  using Impl = RearrangeImpl;
  // Spelled out so that axis lengths may be a braced list: {{"h2", 2}}.
  explicit Rearrange(std::string pattern, AxisLengths lengths = {})
      : ModuleHolder(std::make_shared<RearrangeImpl>(std::move(pattern), std::move(lengths))) {}
};

/// einops.layers.torch.Reduce: "min", "max", "sum", "mean", "prod", "any", "all".
class ReduceImpl : public ::torch::nn::Cloneable<ReduceImpl> {
 public:
  ReduceImpl(std::string pattern, std::string reduction, AxisLengths lengths = {})
      : pattern_(std::move(pattern)), reduction_(std::move(reduction)), lengths_(std::move(lengths)) {
    detail::check_layer_pattern("Reduce", Operation::reduce, pattern_, lengths_);
    parse_reduction(reduction_, pattern_);  // throws EinopsError for an unknown reduction
  }
  void reset() override {}
  at::Tensor forward(const at::Tensor& x) { return einops::reduce(x, runtime(pattern_), reduction_, lengths_); }
  void pretty_print(std::ostream& stream) const override {
    detail::print_layer(stream, "Reduce", pattern_, lengths_, {&reduction_});
  }
  const std::string& pattern() const { return pattern_; }
  const std::string& reduction() const { return reduction_; }
  const AxisLengths& lengths() const { return lengths_; }

 private:
  std::string pattern_;
  std::string reduction_;
  AxisLengths lengths_;
};
class Reduce : public ::torch::nn::ModuleHolder<ReduceImpl> {
 public:
  using ::torch::nn::ModuleHolder<ReduceImpl>::ModuleHolder;
  using Impl = ReduceImpl;
  // Spelled out so that axis lengths may be a braced list: {{"h2", 2}}.
  Reduce(std::string pattern, std::string reduction, AxisLengths lengths = {})
      : ModuleHolder(std::make_shared<ReduceImpl>(std::move(pattern), std::move(reduction), std::move(lengths))) {}
};

/// A shape assertion as a layer: `CheckShape("b t c", {{"c", 3}})` passes its input through
/// unchanged and throws einops::check_shape's EinopsError when the shape does not fit.
class CheckShapeImpl : public ::torch::nn::Cloneable<CheckShapeImpl> {
 public:
  explicit CheckShapeImpl(std::string pattern, AxisLengths lengths = {})
      : pattern_(std::move(pattern)), lengths_(std::move(lengths)) {
    detail::check_shape_layer_pattern(pattern_, lengths_);
  }
  void reset() override {}
  at::Tensor forward(const at::Tensor& x) {
    (void)einops::check_shape(x, runtime(pattern_), lengths_);
    return x;
  }
  void pretty_print(std::ostream& stream) const override {
    detail::print_layer(stream, "CheckShape", pattern_, lengths_);
  }
  const std::string& pattern() const { return pattern_; }
  const AxisLengths& lengths() const { return lengths_; }

 private:
  std::string pattern_;
  AxisLengths lengths_;
};
class CheckShape : public ::torch::nn::ModuleHolder<CheckShapeImpl> {
 public:
  using ::torch::nn::ModuleHolder<CheckShapeImpl>::ModuleHolder;
  using Impl = CheckShapeImpl;
  // Spelled out so that axis lengths may be a braced list: {{"c", 3}}.
  explicit CheckShape(std::string pattern, AxisLengths lengths = {})
      : ModuleHolder(std::make_shared<CheckShapeImpl>(std::move(pattern), std::move(lengths))) {}
};

/// einops.layers.torch.EinMix: a linear layer written as an einsum pattern.
class EinMixImpl : public ::torch::nn::Cloneable<EinMixImpl> {
 public:
  EinMixImpl(std::string pattern, std::string weight_shape, std::optional<std::string> bias_shape = std::nullopt,
             AxisLengths lengths = {})
      : pattern_(std::move(pattern)),
        weight_shape_(std::move(weight_shape)),
        bias_shape_(std::move(bias_shape)),
        lengths_(std::move(lengths)),
        structure_(einops::detail::einmix_structure(pattern_, weight_shape_, bias_shape_, lengths_)) {
    reset();
  }

  /// (Re)creates the parameters with einops' initialisation.
  void reset() override {
    const double fan_in = static_cast<double>(structure_.fan_in);
    weight = register_parameter("weight", ::torch::empty(structure_.weight_shape));
    const ::torch::NoGradGuard no_grad;
    const double weight_bound = std::sqrt(3.0 / fan_in);
    weight.uniform_(-weight_bound, weight_bound);
    if (structure_.bias_shape) {
      bias = register_parameter("bias", ::torch::empty(*structure_.bias_shape));
      const double bias_bound = std::sqrt(1.0 / fan_in);
      bias.uniform_(-bias_bound, bias_bound);
    }
  }

  at::Tensor forward(const at::Tensor& x) {
    at::Tensor y = x;
    if (structure_.pre_rearrange) y = einops::rearrange(y, runtime(*structure_.pre_rearrange), structure_.pre_lengths);
    const std::array<at::Tensor, 2> operands{y, weight};
    y = einops::detail::run_ops_einsum(structure_.einsum_pattern, std::span<const at::Tensor>(operands), pattern_);
    if (bias.defined()) y = y + bias;
    if (structure_.post_rearrange) y = einops::rearrange(y, runtime(*structure_.post_rearrange), AxisLengths{});
    return y;
  }

  void pretty_print(std::ostream& stream) const override {
    detail::print_layer(stream, "EinMix", pattern_, lengths_, {&weight_shape_, bias_shape_ ? &*bias_shape_ : nullptr});
  }

  const std::string& pattern() const { return pattern_; }
  /// The decomposition einops computes (patterns, lengths, shapes, fan-in).
  const einops::detail::EinMixStructure& structure() const { return structure_; }

  at::Tensor weight;
  at::Tensor bias;  // undefined without a bias shape

 private:
  std::string pattern_;
  std::string weight_shape_;
  std::optional<std::string> bias_shape_;
  AxisLengths lengths_;
  einops::detail::EinMixStructure structure_;
};
class EinMix : public ::torch::nn::ModuleHolder<EinMixImpl> {
 public:
  using ::torch::nn::ModuleHolder<EinMixImpl>::ModuleHolder;
  using Impl = EinMixImpl;
  // Spelled out so that axis lengths may be a braced list: {{"h2", 2}}.
  EinMix(std::string pattern, std::string weight_shape, std::optional<std::string> bias_shape = std::nullopt,
         AxisLengths lengths = {})
      : ModuleHolder(std::make_shared<EinMixImpl>(std::move(pattern), std::move(weight_shape), std::move(bias_shape),
                                                  std::move(lengths))) {}
};

}  // namespace einops::layers::torch
