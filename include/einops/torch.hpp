// LibTorch adapter: every einops operation takes and returns torch::Tensor (at::Tensor).
//
//   #include <einops/torch.hpp>
//   torch::Tensor x = torch::randn({8, 3, 32, 32});                            // b c h w
//   auto y = einops::rearrange(x, "b c (h h2) (w w2) -> b (c h2 w2) h w", "h2"_ax = 2, "w2"_ax = 2);
//   auto m = einops::reduce(x, "b c (h 2) (w 2) -> b c h w", "max");          // 2x2 max-pool
//   auto t = einops::repeat(x, "b c h w -> b c h w k", {{"k", 4}});            // an expand: no copy
//   auto [packed, shapes] = einops::pack({a, b}, "b *");
//   auto s = einops::einsum(q, k, "b h i d, b h j d -> b h i j");
//
// The adapter is a tensor_traits specialisation of the kind docs/backends.md describes for any
// library that brings its own ops (einops::TensorOps): einops checks and plans each call as for
// the built-in tensor (a literal by the compiler, a string once), keeps the recipe of its recent
// calls per thread (a repeated call costs a comparison and the torch ops themselves), and runs
// einops' recipe with torch's own ops (reshape/view, permute, amin/amax/sum/mean/prod/any/all,
// expand, cat/narrow, einsum). So autograd, every dtype (half and bfloat16 included) and every
// device keep working, and a result is a view of the input wherever torch can make one (a pure
// permutation or reshape copies nothing, repeat to a new trailing axis is an expand).
//
// Errors are einops::EinopsError with einops' messages; an error raised by torch while running
// the planned ops (an allocation, an unsupported dtype) comes back as an EinopsError too, naming
// the call. `einops::rearrange_view(x, pattern)` promises a view (torch.Tensor.view's semantics) and
// throws where a copy would be needed. The layers (Rearrange, Reduce, EinMix) are in einops/layers/torch.hpp.
//
// Only this header (and the layers) include LibTorch; link einops::torch, which brings LibTorch's
// headers, TORCH_CXX_FLAGS and libraries (Debian: libtorch-dev).
#pragma once

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/backend.hpp"

namespace einops {
namespace detail::torch_adapter {

/// The einops dtype of a torch dtype (nullopt for those einops has no name for: complex, quantized).
inline std::optional<DType> to_dtype(c10::ScalarType type) {
  switch (type) {
    case c10::ScalarType::Bool: return DType::boolean;
    case c10::ScalarType::Char: return DType::int8;
    case c10::ScalarType::Short: return DType::int16;
    case c10::ScalarType::Int: return DType::int32;
    case c10::ScalarType::Long: return DType::int64;
    case c10::ScalarType::Byte: return DType::uint8;
    case c10::ScalarType::Float: return DType::float32;
    case c10::ScalarType::Double: return DType::float64;
    case c10::ScalarType::Half: return DType::float16;
    case c10::ScalarType::BFloat16: return DType::bfloat16;
    default: return std::nullopt;
  }
}

inline at::IntArrayRef int_array(std::span<const std::int64_t> values) { return {values.data(), values.size()}; }

/// torch's words for an exception its ops raised (without the C++ backtrace c10 appends).
inline std::string describe_error(const std::exception& error) {
  if (const auto* torch_error = dynamic_cast<const c10::Error*>(&error))
    return std::string("torch raised: ") + torch_error->what_without_backtrace();
  return std::string("torch raised: ") + error.what();
}

}  // namespace detail::torch_adapter

/// LibTorch's tensors bring their own ops (docs/backends.md, way 2).
template <>
struct tensor_traits<at::Tensor> {
  static at::IntArrayRef shape(const at::Tensor& x) { return x.sizes(); }
  /// The dtype is known at run time: einops refuses the mean of integers as einops does.
  static std::optional<DType> dtype(const at::Tensor& x) { return detail::torch_adapter::to_dtype(x.scalar_type()); }
  static at::Tensor reshape(const at::Tensor& x, std::span<const std::int64_t> shape) {
    return x.reshape(detail::torch_adapter::int_array(shape));
  }
  static at::Tensor permute(const at::Tensor& x, std::span<const std::int64_t> axes) {
    return x.permute(detail::torch_adapter::int_array(axes));
  }
  static at::Tensor reduce(const at::Tensor& x, Reduction reduction, std::span<const std::int64_t> axes) {
    const at::IntArrayRef dims = detail::torch_adapter::int_array(axes);
    switch (reduction) {
      case Reduction::min: return x.amin(dims);
      case Reduction::max: return x.amax(dims);
      case Reduction::sum: return x.sum(dims);
      case Reduction::mean: return x.mean(dims);
      case Reduction::prod:
      case Reduction::any:
      case Reduction::all: {
        // torch reduces these over one dimension at a time: the last first, so the others keep their index.
        at::Tensor y = x;
        for (std::size_t i = axes.size(); i-- > 0;) {
          if (reduction == Reduction::prod) y = y.prod(axes[i]);
          else if (reduction == Reduction::any) y = y.any(axes[i]);
          else y = y.all(axes[i]);
        }
        return y;
      }
    }
    return x;
  }
  static at::Tensor broadcast(const at::Tensor& x, std::span<const std::int64_t> shape) {
    return x.expand(detail::torch_adapter::int_array(shape));
  }
  static at::Tensor concatenate(std::span<const at::Tensor> xs, std::int64_t axis) {
    return at::cat(at::TensorList(xs.data(), xs.size()), axis);
  }
  static at::Tensor slice(const at::Tensor& x, std::int64_t axis, std::int64_t begin, std::int64_t end) {
    return x.narrow(axis, begin, end - begin);
  }
  static at::Tensor einsum(const std::string& compact_pattern, std::span<const at::Tensor> xs) {
    return at::einsum(compact_pattern, at::TensorList(xs.data(), xs.size()));
  }
  static std::string describe_error(const std::exception& error) {
    return detail::torch_adapter::describe_error(error);
  }
};

namespace detail::torch_adapter {

/// rearrange as torch views: every check of rearrange and of the merges the strides allow (torch's
/// view follows the same rule: merged axes must step over each other), then view, permute, view.
inline at::Tensor rearrange_view(const at::Tensor& x, const PatternRef& pattern, const AxisLengths& lengths) {
  const std::span<const std::int64_t> shape(x.sizes().data(), x.sizes().size());
  rearrange_view_layout(shape, std::span<const std::int64_t>(x.strides().data(), x.strides().size()), pattern, lengths);
  const OpsRecipeUse recipe(Operation::rearrange, std::nullopt, shape, to_dtype(x.scalar_type()), pattern, lengths);
  const auto inputs = [&] { return input_shape_line(shape); };
  return with_library_errors<at::Tensor>("rearrange", pattern.text, inputs, [&] {
    at::Tensor y = x;
    if (recipe->reshape_in) y = y.view(int_array(recipe->elementary_shape));
    if (!recipe->permutation.empty()) y = y.permute(int_array(recipe->permutation));
    if (recipe->reshape_out) y = y.view(int_array(recipe->output_shape));
    return y;
  });
}

}  // namespace detail::torch_adapter

/// einops.rearrange that returns a view of x (torch.Tensor.view's semantics: the same storage,
/// autograd recorded) or throws EinopsError naming the axes whose strides do not merge; it never
/// copies. A literal pattern is checked by the compiler, as rearrange's.
inline at::Tensor rearrange_view(const at::Tensor& x, const rearrange_pattern<>& pattern, const AxisLengths& lengths) {
  return detail::torch_adapter::rearrange_view(x, pattern.ref(), lengths);
}
template <fixed_string... Names>
at::Tensor rearrange_view(const at::Tensor& x,
                          const std::type_identity_t<rearrange_pattern<given_lengths<Names...>>>& pattern,
                          axis_length<Names>... lengths) {
  return detail::torch_adapter::rearrange_view(x, pattern.ref(), detail::to_axis_lengths(lengths...));
}

/// einops.einsum of a list of torch tensors, the pattern last as einops takes it.
inline at::Tensor einsum(const std::vector<at::Tensor>& operands, std::string_view pattern) {
  return detail::ops_einsum(std::span<const at::Tensor>(operands), pattern);
}

}  // namespace einops
