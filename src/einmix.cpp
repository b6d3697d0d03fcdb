// EinMix on the built-in tensor (einmix.hpp): einops' decomposition run with the library's own
// rearrange and einsum, and einops' initialisation from a portable generator.
#include "einops/einmix.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "einops/detail/kernels.hpp"
#include "einops/einsum.hpp"
#include "einops/error.hpp"
#include "odometer.hpp"

namespace einops {
namespace {

/// einops' bounds of the uniform initialisation (einops.layers._einmix): the weight's keeps the
/// output's variance that of the input, the bias's is as torch.nn.Linear's.
constexpr double kWeightVarianceScale = 3.0;
constexpr double kBiasVarianceScale = 1.0;
/// Bits of a generator output that make one double in [0, 1).
constexpr int kMantissaBits = 53;

std::string label(const std::string& pattern, const std::string& weight_shape,
                  const std::optional<std::string>& bias_shape) {
  return "EinMix('" + pattern + "', '" + weight_shape + "'" + (bias_shape ? ", '" + *bias_shape + "'" : std::string()) +
         ")";
}

/// A uniform double in [-bound, bound): std::uniform_real_distribution's algorithm differs between
/// standard libraries, this one does not (mt19937_64's output sequence is fixed by the standard).
double uniform(std::mt19937_64& generator, double bound) {
  const double unit = static_cast<double>(generator() >> (64 - kMantissaBits)) * std::ldexp(1.0, -kMantissaBits);
  return (2.0 * unit - 1.0) * bound;
}

void fill_uniform(AnyTensor& tensor, std::mt19937_64& generator, double bound) {
  const auto count = static_cast<std::size_t>(tensor.size());
  if (tensor.dtype() == DType::float64) {
    auto* data = static_cast<double*>(tensor.data());
    for (std::size_t i = 0; i < count; ++i) data[i] = uniform(generator, bound);
  } else {
    auto* data = static_cast<float*>(tensor.data());
    for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<float>(uniform(generator, bound));
  }
}

/// A row-major copy of `x` with storage of its own.
AnyTensor owned_copy(const AnyTensor& x) {
  AnyTensor out(x.dtype(), Shape(x.shape().begin(), x.shape().end()));
  detail::copy_layout(dtype_size(x.dtype()), x.shape(), x.data(), x.strides(), out.data(), out.strides());
  return out;
}

/// y + bias, numpy's broadcasting: the bias's axes align with y's last ones (einops puts every bias
/// axis after the ellipsis), its unit axes broadcast. A new row-major tensor.
template <class T>
void add_bias(const AnyTensor& y, const AnyTensor& bias, AnyTensor& out) {
  const std::size_t rank = y.rank();
  const std::size_t offset = rank - bias.rank();
  std::vector<std::int64_t> bias_strides(rank, 0);
  for (std::size_t d = 0; d < bias.rank(); ++d)
    if (bias.shape()[d] != 1) bias_strides[offset + d] = bias.strides()[d];
  const auto* in = static_cast<const T*>(y.data());
  const auto* b = static_cast<const T*>(bias.data());
  auto* target = static_cast<T*>(out.data());
  std::vector<std::int64_t> index(rank, 0);
  std::int64_t in_at = 0;
  std::int64_t bias_at = 0;
  const auto extent = [&](int d) { return y.shape()[static_cast<std::size_t>(d)]; };
  const auto move = [&](int d, std::int64_t steps) {
    in_at += steps * y.strides()[static_cast<std::size_t>(d)];
    bias_at += steps * bias_strides[static_cast<std::size_t>(d)];
  };
  for (std::int64_t n = 0, count = y.size(); n < count; ++n) {
    target[n] = in[in_at] + b[bias_at];
    detail::odometer_step(static_cast<int>(rank), index.data(), extent, move);
  }
}

}  // namespace

EinMix::EinMix(std::string pattern, std::string weight_shape, std::optional<std::string> bias_shape,
               AxisLengths lengths, DType dtype, std::uint64_t seed)
    : pattern_(std::move(pattern)),
      weight_shape_(std::move(weight_shape)),
      bias_shape_(std::move(bias_shape)),
      lengths_(std::move(lengths)),
      dtype_(dtype),
      structure_(detail::einmix_structure(pattern_, weight_shape_, bias_shape_, lengths_)),
      einsum_pattern_(detail::spaced_einsum_pattern(structure_.einsum_pattern)) {
  if (dtype_ != DType::float32 && dtype_ != DType::float64)
    throw EinopsError("Error while constructing " + label(pattern_, weight_shape_, bias_shape_) +
                      ".\n EinMix's parameters are float32 or float64, not " + std::string(dtype_name(dtype_)));
  weight_ = AnyTensor(dtype_, structure_.weight_shape);
  if (structure_.bias_shape) bias_ = AnyTensor(dtype_, *structure_.bias_shape);
  reset(seed);
}

EinMix::EinMix(const EinMix& other)
    : pattern_(other.pattern_),
      weight_shape_(other.weight_shape_),
      bias_shape_(other.bias_shape_),
      lengths_(other.lengths_),
      dtype_(other.dtype_),
      structure_(other.structure_),
      einsum_pattern_(other.einsum_pattern_),
      weight_(owned_copy(other.weight_)) {
  if (other.bias_) bias_ = owned_copy(*other.bias_);
}

EinMix& EinMix::operator=(const EinMix& other) {
  if (this != &other) *this = EinMix(other);
  return *this;
}

void EinMix::reset(std::uint64_t seed) {
  std::mt19937_64 generator(seed);
  const double fan_in = static_cast<double>(structure_.fan_in);
  fill_uniform(weight_, generator, std::sqrt(kWeightVarianceScale / fan_in));
  if (bias_) fill_uniform(*bias_, generator, std::sqrt(kBiasVarianceScale / fan_in));
}

namespace {

void set_parameter(AnyTensor& parameter, const AnyTensor& values, std::string_view name, const std::string& layer) {
  const bool same_shape =
      std::equal(values.shape().begin(), values.shape().end(), parameter.shape().begin(), parameter.shape().end());
  if (values.dtype() != parameter.dtype() || !same_shape)
    throw EinopsError(layer + ": the " + std::string(name) + " is " + detail::format_shape(parameter.shape()) + " " +
                      std::string(dtype_name(parameter.dtype())) + ", the values given are " +
                      detail::format_shape(values.shape()) + " " + std::string(dtype_name(values.dtype())));
  detail::copy_layout(dtype_size(values.dtype()), values.shape(), values.data(), values.strides(), parameter.data(),
                      parameter.strides());
}

}  // namespace

void EinMix::set_weight(const AnyTensor& values) {
  set_parameter(weight_, values, "weight", label(pattern_, weight_shape_, bias_shape_));
}

void EinMix::set_bias(const AnyTensor& values) {
  if (!bias_) throw EinopsError(label(pattern_, weight_shape_, bias_shape_) + " has no bias (no bias shape was given)");
  set_parameter(*bias_, values, "bias", label(pattern_, weight_shape_, bias_shape_));
}

AnyTensor EinMix::forward(const detail::TensorRef& x) const {
  if (x.dtype != dtype_)
    throw EinopsError(label(pattern_, weight_shape_, bias_shape_) + " holds " + std::string(dtype_name(dtype_)) +
                      " parameters; the input tensor " + detail::format_shape(x.shape) + " holds " +
                      std::string(dtype_name(x.dtype)));
  AnyTensor y(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, Shape(x.shape.begin(), x.shape.end()),
              Shape(x.strides.begin(), x.strides.end()));
  try {  // the steps' errors name their own patterns; this names the layer and its input too
    if (structure_.pre_rearrange)
      y = detail::rearrange(y, PatternRef(*structure_.pre_rearrange), structure_.pre_lengths);
    const std::array<AnyTensor, 2> operands{y, weight_};
    y = einsum(std::span<const AnyTensor>(operands), einsum_pattern<>(einsum_pattern_));
  } catch (const EinopsError& error) {
    throw EinopsError(label(pattern_, weight_shape_, bias_shape_) + " cannot mix an input tensor of shape " +
                      detail::format_shape(x.shape) + ":\n" + error.what());
  }
  if (bias_) {
    const bool fits = bias_->rank() <= y.rank() && [&] {
      const std::size_t offset = y.rank() - bias_->rank();
      for (std::size_t d = 0; d < bias_->rank(); ++d)
        if (bias_->shape()[d] != 1 && bias_->shape()[d] != y.shape()[offset + d]) return false;
      return true;
    }();
    if (!fits)
      throw EinopsError(label(pattern_, weight_shape_, bias_shape_) + ": the bias " +
                        detail::format_shape(bias_->shape()) + " does not broadcast to the einsum's result " +
                        detail::format_shape(y.shape()) + " (input tensor shape: " + detail::format_shape(x.shape) +
                        ")");
    AnyTensor sum(dtype_, Shape(y.shape().begin(), y.shape().end()));
    if (dtype_ == DType::float64) add_bias<double>(y, *bias_, sum);
    else add_bias<float>(y, *bias_, sum);
    y = std::move(sum);
  }
  if (structure_.post_rearrange) y = detail::rearrange(y, PatternRef(*structure_.post_rearrange), AxisLengths{});
  return y;
}

std::string EinMix::repr() const {
  std::string text = "EinMix('" + pattern_ + "', '" + weight_shape_ + "'";
  if (bias_shape_) text += ", '" + *bias_shape_ + "'";
  for (const auto& [name, length] : lengths_.entries()) text += ", " + name + "=" + std::to_string(length);
  return text + ")";
}

}  // namespace einops
