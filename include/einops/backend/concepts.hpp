// What makes a tensor type an einops backend: the tensor_traits specialisation, the concepts it
// satisfies (StridedTensor, WritableTensor, TensorOps), and a strided tensor seen as a built-in view.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <iterator>  // std::ranges::begin/end/size (<ranges> itself costs a user 0.5 s per file)
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/detail/adapter_call.hpp"
#include "einops/dtype.hpp"
#include "einops/reduction.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// Specialise for a tensor type to make every einops operation accept it (see einops/backend.hpp).
template <class X>
struct tensor_traits;

namespace detail {

template <class R>
concept integer_range = requires(const std::remove_cvref_t<R>& r) {
  std::ranges::size(r);
  requires std::integral<std::remove_cvref_t<decltype(*std::ranges::begin(r))>>;
};

template <class X>
using traits_value_t = std::remove_cv_t<typename tensor_traits<std::remove_cvref_t<X>>::value_type>;

/// Memory whose element type is a compile-time constant: `value_type` and a typed `data(x)`.
template <class X>
concept typed_memory = requires(const X& x) {
  typename tensor_traits<X>::value_type;
  requires Element<traits_value_t<X>>;
  { tensor_traits<X>::data(x) } -> std::convertible_to<const traits_value_t<X>*>;
};

/// Memory whose element type is known at run time (a cv::Mat): `dtype(x)` names it and `data(x)`
/// is untyped. Such a type has no `value_type`.
template <class X>
concept runtime_typed_memory = !requires { typename tensor_traits<X>::value_type; } && requires(const X& x) {
  { tensor_traits<X>::dtype(x) } -> std::same_as<DType>;
  { tensor_traits<X>::data(x) } -> std::convertible_to<const void*>;
};

}  // namespace detail

/// A tensor type whose memory einops may read in place: pointer, shape and strides in elements,
/// and the element type, at compile time (`value_type`) or at run time (`dtype(x)`).
template <class X>
concept StridedTensor = (detail::typed_memory<X> || detail::runtime_typed_memory<X>)&&requires(const X& x) {
  { tensor_traits<X>::shape(x) } -> detail::integer_range;
  { tensor_traits<X>::strides(x) } -> detail::integer_range;
};

namespace detail {

/// The element type of a strided tensor.
template <StridedTensor X>
DType strided_dtype([[maybe_unused]] const X& x) {
  if constexpr (runtime_typed_memory<X>) return tensor_traits<X>::dtype(x);
  else return dtype_v<traits_value_t<X>>;
}

/// A pointer to writable memory of a strided tensor's element type.
template <class X, class Pointer>
concept writable_pointer = (runtime_typed_memory<X> && std::convertible_to<Pointer, void*>) ||
                           (typed_memory<X> && requires { requires std::convertible_to<Pointer, traits_value_t<X>*>; });

}  // namespace detail

/// A strided tensor einops may write into (a result, or the output of a *_into call).
template <class X>
concept WritableTensor = StridedTensor<std::remove_cvref_t<X>> && requires(X& x) {
  requires detail::writable_pointer<std::remove_cvref_t<X>, decltype(tensor_traits<std::remove_cvref_t<X>>::data(x))>;
};

/// A tensor type that brings its own reshape/permute/reduce/broadcast (axes and shapes as int64).
template <class X>
concept TensorOps = requires(const X& x, std::span<const std::int64_t> lengths, Reduction reduction) {
  { tensor_traits<X>::shape(x) } -> detail::integer_range;
  { tensor_traits<X>::reshape(x, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::permute(x, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::reduce(x, reduction, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::broadcast(x, lengths) } -> std::convertible_to<X>;
};

namespace detail {

/// The element type of a TensorOps tensor when einops can know it: `tensor_traits<X>::dtype(x)`
/// (a DType or an optional one, for a library that knows it only at run time), else the einops
/// element type `value_type`, else none (the mean of integers is then left to the library).
template <class X>
std::optional<DType> ops_dtype([[maybe_unused]] const X& x) {
  if constexpr (requires { tensor_traits<X>::dtype(x); }) return std::optional<DType>(tensor_traits<X>::dtype(x));
  else if constexpr (requires { requires Element<traits_value_t<X>>; }) return dtype_v<traits_value_t<X>>;
  else return std::nullopt;
}

/// The shape of a TensorOps tensor as int64 lengths, copied: on the stack up to kMaxRank axes
/// (a longer one is refused by the plan, which sees it whole).
class OpsShape {
 public:
  template <class X>
  explicit OpsShape(const X& x) {
    const auto& shape = tensor_traits<X>::shape(x);
    const std::size_t rank = static_cast<std::size_t>(std::ranges::size(shape));
    std::int64_t* out = rank <= inline_.size() ? inline_.data() : (heap_.resize(rank), heap_.data());
    std::size_t i = 0;
    for (const auto length : shape) out[i++] = static_cast<std::int64_t>(length);
    lengths_ = {out, rank};
  }
  OpsShape(const OpsShape&) = delete;
  OpsShape& operator=(const OpsShape&) = delete;
  std::span<const std::int64_t> lengths() const { return lengths_; }

 private:
  std::array<std::int64_t, kMaxRank> inline_;
  Shape heap_;
  std::span<const std::int64_t> lengths_;
};

/// Runs `body`, one call's work with a library's own ops. When the library's traits say how to
/// describe its exceptions (`describe_error(const std::exception&)`), an exception other than
/// EinopsError becomes an EinopsError naming the call, `inputs()` (a description of the call's
/// inputs), and the library's words; without it the exception passes through unchanged.
template <class X, class Body, class Inputs>
decltype(auto) with_library_errors(std::string_view operation, std::string_view pattern, const Inputs& inputs,
                                   Body&& body) {
  if constexpr (requires(const std::exception& error) {
                  { tensor_traits<X>::describe_error(error) } -> std::convertible_to<std::string>;
                }) {
    try {
      return body();
    } catch (const EinopsError&) {
      throw;
    } catch (const std::exception& error) {
      throw_call_error(operation, pattern, inputs(), tensor_traits<X>::describe_error(error));
    }
  } else {
    return body();
  }
}

/// The library's own tensors (and lists of them), which ops.hpp serves.
template <class X>
struct is_builtin_input : std::false_type {};
template <class T>
struct is_builtin_input<Tensor<T>> : std::true_type {};
template <class T>
struct is_builtin_input<TensorView<T>> : std::true_type {};
template <>
struct is_builtin_input<AnyTensor> : std::true_type {};
template <class X>
struct is_builtin_input<std::vector<X>> : is_builtin_input<X> {};
template <>
struct is_builtin_input<std::span<const AnyTensor>> : std::true_type {};

}  // namespace detail

/// A tensor type of another library that einops operations accept.
template <class X>
concept AdaptedTensor = !detail::is_builtin_input<X>::value && (StridedTensor<X> || TensorOps<X>);

/// The rank of X when it is a compile-time constant (`tensor_traits<X>::rank`), else dynamic_rank.
template <class X>
constexpr std::size_t static_rank_of() {
  if constexpr (requires { tensor_traits<X>::rank; }) return static_cast<std::size_t>(tensor_traits<X>::rank);
  else return dynamic_rank;
}

/// Any strided tensor as a built-in view of the same memory (no copy): mixes freely with the
/// built-in tensors, e.g. in a pack of tensors of different types. A tensor whose element type
/// is known at run time gives an AnyTensor that aliases its memory (no storage kept alive).
template <StridedTensor X>
  requires detail::runtime_typed_memory<X>
AnyTensor view(const X& x) {
  const auto shape = tensor_traits<X>::shape(x);
  const auto strides = tensor_traits<X>::strides(x);
  const Shape lengths(std::ranges::begin(shape), std::ranges::end(shape));
  const Shape steps(std::ranges::begin(strides), std::ranges::end(strides));
  const DType dtype = tensor_traits<X>::dtype(x);
  detail::check_view_extent(lengths, steps, dtype_size(dtype));
  return AnyTensor(dtype, nullptr, const_cast<void*>(static_cast<const void*>(tensor_traits<X>::data(x))), lengths,
                   steps);
}
template <StridedTensor X>
  requires detail::typed_memory<X>
TensorView<const detail::traits_value_t<X>> view(const X& x) {
  using T = detail::traits_value_t<X>;
  const auto shape = tensor_traits<X>::shape(x);
  const auto strides = tensor_traits<X>::strides(x);
  return TensorView<const T>(tensor_traits<X>::data(x), Shape(std::ranges::begin(shape), std::ranges::end(shape)),
                             Shape(std::ranges::begin(strides), std::ranges::end(strides)));
}

}  // namespace einops
