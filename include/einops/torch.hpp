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
// Patterns are checked as for the built-in tensor (a literal by the compiler, a string once) and
// planned once per (pattern, shape, lengths, dtype): each thread keeps the steps of its recent calls
// in a small cache, so a repeated call costs a hash, a comparison and the torch ops themselves.
// Execution goes through torch's own ops only (reshape/view, permute, amin/amax/sum/mean/prod/
// any/all, expand, cat/narrow, einsum), so autograd, every dtype (half and bfloat16 included) and
// every device keep working, and a result is a view of the input wherever torch can make one
// (a pure permutation or reshape copies nothing, repeat to a new trailing axis is an expand).
//
// Errors are einops::EinopsError with einops' messages; an error raised by torch while running
// the planned ops (an allocation, an unsupported dtype) comes back as an EinopsError too, naming
// the call. The layers (Rearrange, Reduce, EinMix) are in einops/layers/torch.hpp.
//
// Only this header (and the layers) include LibTorch; link ${TORCH_LIBRARIES} (Debian: libtorch-dev).
#pragma once

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/detail/adapter_call.hpp"
#include "einops/dtype.hpp"
#include "einops/error.hpp"
#include "einops/ops.hpp"
#include "einops/pack.hpp"
#include "einops/parse_shape.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"

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

/// The torch ops one rearrange/reduce/repeat call runs, in order (einops' recipe, with the steps
/// that would change nothing left out).
struct Steps {
  bool reshape_in = false;
  std::vector<std::int64_t> elementary_shape;
  std::optional<Reduction> reduction;
  std::vector<std::int64_t> reduced_axes;  // ascending
  std::vector<std::int64_t> permutation;   // empty: none
  bool broadcast = false;
  std::vector<std::int64_t> expanded_shape;
  std::vector<std::int64_t> broadcast_shape;
  bool reshape_out = false;
  std::vector<std::int64_t> output_shape;
};

inline Steps make_steps(Operation operation, std::optional<std::string_view> reduction, at::IntArrayRef shape,
                        c10::ScalarType dtype, PatternRef pattern, const AxisLengths& lengths) {
  OpsRecipe recipe = ops_recipe(operation, reduction, std::span<const std::int64_t>(shape.data(), shape.size()),
                                to_dtype(dtype), pattern, lengths);
  Steps steps;
  steps.reshape_in = !std::equal(shape.begin(), shape.end(), recipe.elementary_shape.begin(), recipe.elementary_shape.end());
  steps.elementary_shape = recipe.elementary_shape;
  steps.reduction = recipe.reduction;
  steps.reduced_axes = recipe.reduced_axes;
  steps.permutation = recipe.permutation;
  // The shape after the reduction and the permutation, to skip a final reshape that changes nothing.
  std::vector<std::int64_t> kept;
  for (std::size_t axis = 0; axis < recipe.elementary_shape.size(); ++axis) {
    bool reduced = false;
    if (recipe.reduction)
      for (std::int64_t r : recipe.reduced_axes) reduced = reduced || r == static_cast<std::int64_t>(axis);
    if (!reduced) kept.push_back(recipe.elementary_shape[axis]);
  }
  std::vector<std::int64_t> current = kept;
  if (!recipe.permutation.empty())
    for (std::size_t i = 0; i < recipe.permutation.size(); ++i)
      current[i] = kept[static_cast<std::size_t>(recipe.permutation[i])];
  if (!recipe.broadcast_shape.empty()) {
    steps.broadcast = true;
    steps.expanded_shape = recipe.expanded_shape;
    steps.broadcast_shape = recipe.broadcast_shape;
    current = recipe.broadcast_shape;
  }
  steps.output_shape = recipe.output_shape;
  steps.reshape_out = current != recipe.output_shape;
  return steps;
}

/// The pattern argument of the torch overloads: a literal is checked by the compiler exactly as
/// for the built-in tensor (an arrow_pattern is made from it during compilation), but at run time
/// it is only its text, 16 bytes: no parsed form is carried into each call, which keeps a cached
/// call cheap (the first call of a pattern in the process parses it once, then it is cached).
template <Operation Op, class... Facts>
class checked_pattern {
 public:
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL checked_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1), literal_(true) {
    const arrow_pattern<Op, Facts...> check(literal);
    static_cast<void>(check);
  }
  checked_pattern(std::string_view text) : text_(text) {}             // NOLINT(google-explicit-constructor)
  checked_pattern(const std::string& text) : text_(text) {}           // NOLINT(google-explicit-constructor)
  checked_pattern(runtime_pattern pattern) : text_(pattern.text) {}   // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  /// True for a literal: its text has static storage, so its address identifies it.
  bool is_literal() const { return literal_; }

 private:
  std::string_view text_;
  bool literal_ = false;
};

/// What a call passes down: the text, and whether it is a literal (static storage).
struct PatternText {
  std::string_view text;
  bool literal = false;
  template <Operation Op, class... Facts>
  PatternText(const checked_pattern<Op, Facts...>& pattern)  // NOLINT(google-explicit-constructor)
      : text(pattern.text()), literal(pattern.is_literal()) {}
  PatternText(std::string_view pattern_text, bool is_literal) : text(pattern_text), literal(is_literal) {}
};

// ---- the per-thread cache of steps ----------------------------------------------------------------

inline std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}
inline std::uint64_t hash_bytes(std::uint64_t h, std::string_view text) {
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = mix(h, word);
  }
  std::uint64_t tail = text.size();
  for (; i < text.size(); ++i) tail = (tail << 8) | static_cast<unsigned char>(text[i]);
  return mix(h, tail);
}

struct CacheSlot {
  std::uint64_t hash = 0;
  bool filled = false;
  Operation operation = Operation::rearrange;
  c10::ScalarType dtype = c10::ScalarType::Undefined;
  const char* literal = nullptr;  // a checked literal: its text has static storage, compared by address
  std::string text;               // a run-time pattern: compared by content
  std::size_t text_size = 0;
  std::string reduction;
  std::vector<std::int64_t> shape;
  std::vector<AxisLengths::Entry> lengths;
  Steps steps;
};

inline constexpr std::size_t kCacheSlots = 64;  // per thread, direct-mapped

/// The steps of a call: planned once per thread and key, then found by a comparison with the
/// thread's previous call (a repeated call, as in a training loop) or else by a hash. The reference
/// stays valid until this thread's next lookup.
inline const Steps& lookup(Operation operation, std::optional<std::string_view> reduction, const at::Tensor& x,
                           PatternText pattern, const AxisLengths& lengths) {
  thread_local std::array<CacheSlot, kCacheSlots> cache;
  thread_local CacheSlot* last = nullptr;  // trivially destructible: no guard on the fast path
  const at::IntArrayRef shape = x.sizes();
  const c10::ScalarType dtype = x.scalar_type();
  const bool literal = pattern.literal;
  const std::string_view reduction_text = reduction.value_or(std::string_view());
  const auto matches = [&](const CacheSlot& slot) {
    return slot.filled && slot.operation == operation && slot.dtype == dtype &&
           (literal ? slot.literal == pattern.text.data() && slot.text_size == pattern.text.size()
                    : slot.literal == nullptr && slot.text == pattern.text) &&
           slot.reduction == reduction_text && std::equal(shape.begin(), shape.end(), slot.shape.begin(), slot.shape.end()) &&
           std::equal(lengths.entries().begin(), lengths.entries().end(), slot.lengths.begin(), slot.lengths.end());
  };
  if (last != nullptr && matches(*last)) return last->steps;
  std::uint64_t h = mix(static_cast<std::uint64_t>(operation), static_cast<std::uint64_t>(dtype));
  h = literal ? mix(mix(h, reinterpret_cast<std::uintptr_t>(pattern.text.data())), pattern.text.size())
              : hash_bytes(h, pattern.text);
  if (!reduction_text.empty()) h = hash_bytes(h, reduction_text);
  for (std::int64_t length : shape) h = mix(h, static_cast<std::uint64_t>(length));
  for (const auto& [name, length] : lengths.entries()) h = mix(hash_bytes(h, name), static_cast<std::uint64_t>(length));
  CacheSlot& slot = cache[h % kCacheSlots];
  if (slot.hash == h && matches(slot)) {
    last = &slot;
    return slot.steps;
  }
  Steps steps = make_steps(operation, reduction, shape, dtype, PatternRef(pattern.text), lengths);  // throws if invalid
  slot.filled = false;
  slot.steps = std::move(steps);
  slot.hash = h;
  slot.operation = operation;
  slot.dtype = dtype;
  slot.literal = literal ? pattern.text.data() : nullptr;
  slot.text.assign(literal ? std::string_view() : pattern.text);
  slot.text_size = pattern.text.size();
  slot.reduction.assign(reduction_text);
  slot.shape.assign(shape.begin(), shape.end());
  slot.lengths.assign(lengths.entries().begin(), lengths.entries().end());
  slot.filled = true;
  last = &slot;
  return slot.steps;
}

// ---- running the steps ---------------------------------------------------------------------------

inline at::Tensor reduce_axes(const at::Tensor& x, Reduction reduction, at::IntArrayRef axes) {
  switch (reduction) {
    case Reduction::min: return x.amin(axes);
    case Reduction::max: return x.amax(axes);
    case Reduction::sum: return x.sum(axes);
    case Reduction::mean: return x.mean(axes);
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

/// Runs the steps on `x`. The input is not copied into a new handle (its reference count is left
/// alone): each step reads the previous result, or `x` for the first one.
inline at::Tensor run_steps(const Steps& steps, const at::Tensor& x) {
  at::Tensor y;
  const at::Tensor* current = &x;
  if (steps.reshape_in) {
    y = current->reshape(steps.elementary_shape);
    current = &y;
  }
  if (steps.reduction) {
    y = reduce_axes(*current, *steps.reduction, steps.reduced_axes);
    current = &y;
  }
  if (!steps.permutation.empty()) {
    y = current->permute(steps.permutation);
    current = &y;
  }
  if (steps.broadcast) {
    y = current->reshape(steps.expanded_shape).expand(steps.broadcast_shape);
    current = &y;
  }
  if (steps.reshape_out) {
    y = current->reshape(steps.output_shape);
    current = &y;
  }
  return current == &x ? x : std::move(y);  // nothing to do: the input itself, as torch's view would be
}

inline std::string shape_text(at::IntArrayRef shape) {
  return format_shape(std::span<const std::int64_t>(shape.data(), shape.size()));
}

/// An error torch raised while running a planned call, as an EinopsError naming the call.
[[noreturn]] inline void fail_from_torch(std::string_view operation, std::string_view pattern, at::IntArrayRef shape,
                                         const c10::Error& error) {
  throw_call_error(operation, pattern, "Input tensor shape: " + shape_text(shape) + ".",
                   std::string("torch raised: ") + error.what_without_backtrace());
}

/// The minimum and maximum of nothing have no value: einops (numpy) refuses them, torch would too.
inline void check_empty_extremum(const Steps& steps, std::string_view pattern, at::IntArrayRef shape) {
  if (!steps.reduction || (*steps.reduction != Reduction::min && *steps.reduction != Reduction::max)) return;
  for (std::int64_t axis : steps.reduced_axes)
    if (steps.elementary_shape[static_cast<std::size_t>(axis)] == 0)
      throw_call_error(reduction_name(*steps.reduction), pattern, "Input tensor shape: " + shape_text(shape) + ".",
                       std::string("zero-size array to reduction operation ") +
                           (*steps.reduction == Reduction::min ? "minimum" : "maximum") + " which has no identity");
}

inline at::Tensor apply(Operation operation, std::optional<std::string_view> reduction, const at::Tensor& x,
                        PatternText pattern, const AxisLengths& lengths) {
  const std::optional<std::string_view> reduction_arg = operation == Operation::reduce ? reduction : std::nullopt;
  const Steps& steps = lookup(operation, reduction_arg, x, pattern, lengths);
  if (steps.reduction) check_empty_extremum(steps, pattern.text, x.sizes());
  try {
    return run_steps(steps, x);
  } catch (const c10::Error& error) {
    fail_from_torch(operation == Operation::reduce && reduction ? *reduction : operation_name(operation), pattern.text,
                    x.sizes(), error);
  }
}

/// A list is stacked on a new leading axis, as einops does.
inline at::Tensor stack(const std::vector<at::Tensor>& xs, std::string_view operation, std::string_view pattern) {
  if (xs.empty())
    throw_call_error(operation, pattern, "", kEmptyListReason);
  for (std::size_t i = 1; i < xs.size(); ++i)
    if (xs[i].sizes() != xs[0].sizes() || xs[i].scalar_type() != xs[0].scalar_type())
      throw_call_error(operation, pattern, "",
                       "The tensors of a list must have one shape and dtype: tensor #0 is " +
                           shape_text(xs[0].sizes()) + " " + std::string(c10::toString(xs[0].scalar_type())) +
                           ", tensor #" + std::to_string(i) + " is " + shape_text(xs[i].sizes()) + " " +
                           std::string(c10::toString(xs[i].scalar_type())));
  return at::stack(xs);
}

inline at::Tensor apply(Operation operation, std::optional<std::string_view> reduction,
                        const std::vector<at::Tensor>& xs, PatternText pattern, const AxisLengths& lengths) {
  const std::string_view label = operation == Operation::reduce && reduction ? *reduction : operation_name(operation);
  return apply(operation, reduction, stack(xs, label, pattern.text), pattern, lengths);
}

template <class X>
concept torch_input = std::same_as<X, at::Tensor> || std::same_as<X, std::vector<at::Tensor>>;

}  // namespace detail::torch_adapter

// ---- rearrange, repeat, reduce --------------------------------------------------------------------
// Each takes a tensor or a std::vector of tensors (stacked on a new leading axis), and axis lengths
// as nothing, an AxisLengths ({{"h2", 2}}) or `"h2"_ax = 2` (checked against a literal).

template <detail::torch_adapter::torch_input X>
at::Tensor rearrange(const X& x, detail::torch_adapter::checked_pattern<Operation::rearrange, no_axis_lengths> pattern) {
  return detail::torch_adapter::apply(Operation::rearrange, std::nullopt, x, pattern, {});
}
template <detail::torch_adapter::torch_input X>
at::Tensor rearrange(const X& x, detail::torch_adapter::checked_pattern<Operation::rearrange> pattern, const AxisLengths& lengths) {
  return detail::torch_adapter::apply(Operation::rearrange, std::nullopt, x, pattern, lengths);
}
template <detail::torch_adapter::torch_input X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
at::Tensor rearrange(const X& x, std::type_identity_t<detail::torch_adapter::checked_pattern<Operation::rearrange, axis_length<Names>...>> pattern,
                     axis_length<Names>... lengths) {
  return detail::torch_adapter::apply(Operation::rearrange, std::nullopt, x, pattern,
                                      detail::to_axis_lengths(lengths...));
}

template <detail::torch_adapter::torch_input X>
at::Tensor repeat(const X& x, detail::torch_adapter::checked_pattern<Operation::repeat, no_axis_lengths> pattern) {
  return detail::torch_adapter::apply(Operation::repeat, std::nullopt, x, pattern, {});
}
template <detail::torch_adapter::torch_input X>
at::Tensor repeat(const X& x, detail::torch_adapter::checked_pattern<Operation::repeat> pattern, const AxisLengths& lengths) {
  return detail::torch_adapter::apply(Operation::repeat, std::nullopt, x, pattern, lengths);
}
template <detail::torch_adapter::torch_input X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
at::Tensor repeat(const X& x, std::type_identity_t<detail::torch_adapter::checked_pattern<Operation::repeat, axis_length<Names>...>> pattern,
                  axis_length<Names>... lengths) {
  return detail::torch_adapter::apply(Operation::repeat, std::nullopt, x, pattern,
                                      detail::to_axis_lengths(lengths...));
}

/// The result's dtype is torch's for the reduction (sum of bool or of integers: int64; any/all:
/// bool), which for every dtype the corpus covers is numpy's.
template <detail::torch_adapter::torch_input X>
at::Tensor reduce(const X& x, detail::torch_adapter::checked_pattern<Operation::reduce, no_axis_lengths> pattern, ReductionName reduction) {
  return detail::torch_adapter::apply(Operation::reduce, reduction.name, x, pattern, {});
}
template <detail::torch_adapter::torch_input X>
at::Tensor reduce(const X& x, detail::torch_adapter::checked_pattern<Operation::reduce> pattern, ReductionName reduction, const AxisLengths& lengths) {
  return detail::torch_adapter::apply(Operation::reduce, reduction.name, x, pattern, lengths);
}
template <detail::torch_adapter::torch_input X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
at::Tensor reduce(const X& x, std::type_identity_t<detail::torch_adapter::checked_pattern<Operation::reduce, axis_length<Names>...>> pattern,
                  ReductionName reduction, axis_length<Names>... lengths) {
  return detail::torch_adapter::apply(Operation::reduce, reduction.name, x, pattern,
                                      detail::to_axis_lengths(lengths...));
}

// ---- pack, unpack, parse_shape, einsum -------------------------------------------------------------

/// einops.pack: one at::cat of the inputs, each first reshaped so that its `*` axes are one.
inline Packed<at::Tensor> pack(const std::vector<at::Tensor>& tensors, std::string_view pattern) {
  std::vector<Shape> shapes;
  shapes.reserve(tensors.size());
  for (const at::Tensor& x : tensors) shapes.emplace_back(x.sizes().begin(), x.sizes().end());
  detail::OpsPackLayout layout = detail::ops_pack_layout(shapes, pattern);
  std::vector<at::Tensor> flattened;
  flattened.reserve(tensors.size());
  try {
    for (std::size_t i = 0; i < tensors.size(); ++i) flattened.push_back(tensors[i].reshape(layout.flattened_shapes[i]));
    return {at::cat(flattened, static_cast<std::int64_t>(layout.axis)), std::move(layout.packed_shapes)};
  } catch (const c10::Error& error) {
    detail::throw_call_error("pack", pattern, "", std::string("torch raised: ") + error.what_without_backtrace());
  }
}

/// einops.unpack: every part is a view of `packed` (a narrow, then a reshape).
inline std::vector<at::Tensor> unpack(const at::Tensor& packed, const std::vector<Shape>& packed_shapes,
                                      std::string_view pattern) {
  const at::IntArrayRef sizes = packed.sizes();
  const detail::OpsUnpackLayout layout =
      detail::ops_unpack_layout(std::span<const std::int64_t>(sizes.data(), sizes.size()), packed_shapes, pattern);
  std::vector<at::Tensor> parts;
  parts.reserve(layout.parts.size());
  for (const detail::OpsUnpackPart& part : layout.parts)
    parts.push_back(packed.narrow(static_cast<std::int64_t>(layout.axis), part.begin, part.end - part.begin).reshape(part.shape));
  return parts;
}

/// einops.parse_shape of a tensor's sizes.
inline ParsedShape parse_shape(const at::Tensor& x, std::string_view pattern) {
  const at::IntArrayRef sizes = x.sizes();
  return parse_shape(std::span<const std::int64_t>(sizes.data(), sizes.size()), pattern);
}

namespace detail::torch_adapter {

/// einops' single-letter pattern for torch's einsum, per thread for recent patterns.
inline const std::string& compact_pattern(std::string_view pattern) {
  struct Slot {
    std::string pattern;
    std::string compact;
    bool filled = false;
  };
  thread_local std::array<Slot, 16> cache;
  Slot& slot = cache[hash_bytes(0, pattern) % cache.size()];
  if (slot.filled && slot.pattern == pattern) return slot.compact;
  std::string compact = compact_einsum_pattern(pattern);  // throws EinopsError for a bad pattern
  slot.filled = false;
  slot.pattern.assign(pattern);
  slot.compact = std::move(compact);
  slot.filled = true;
  return slot.compact;
}

/// torch's einsum on a single-letter pattern; `pattern` (einops' form) names the call in errors.
inline at::Tensor run_compact_einsum(const std::string& compact, at::TensorList operands, std::string_view pattern) {
  try {
    return at::einsum(compact, operands);
  } catch (const c10::Error& error) {
    std::string shapes;
    for (const at::Tensor& x : operands) shapes += (shapes.empty() ? "" : ", ") + shape_text(x.sizes());
    throw_call_error("einsum", pattern, "Input tensor shapes: " + shapes + ".",
                     std::string("torch raised: ") + error.what_without_backtrace());
  }
}

inline at::Tensor run_einsum(at::TensorList operands, std::string_view pattern) {
  return run_compact_einsum(compact_pattern(pattern), operands, pattern);
}

template <class... Args>
concept einsum_arguments =
    sizeof...(Args) >= 2 &&
    std::convertible_to<const std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>&, std::string_view> &&
    []<std::size_t... I>(std::index_sequence<I...>) {
      return (std::same_as<std::remove_cvref_t<std::tuple_element_t<I, std::tuple<Args...>>>, at::Tensor> && ...);
    }(std::make_index_sequence<sizeof...(Args) - 1>{});

}  // namespace detail::torch_adapter

/// einops.einsum(a, b, ..., pattern) with torch tensors: torch's einsum on einops' compact pattern.
template <class... Args>
  requires detail::torch_adapter::einsum_arguments<Args...>
at::Tensor einsum(const Args&... args) {
  const auto arguments = std::tuple<const Args&...>(args...);
  constexpr std::size_t count = sizeof...(Args) - 1;
  const std::array<at::Tensor, count> operands = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<at::Tensor, count>{std::get<I>(arguments)...};
  }(std::make_index_sequence<count>{});
  return detail::torch_adapter::run_einsum(at::TensorList(operands.data(), operands.size()),
                                           std::string_view(std::get<count>(arguments)));
}
inline at::Tensor einsum(const std::vector<at::Tensor>& operands, std::string_view pattern) {
  return detail::torch_adapter::run_einsum(operands, pattern);
}

}  // namespace einops
