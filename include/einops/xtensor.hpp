// xtensor adapter: every einops operation on xtensor's strided expressions with memory:
// xt::xarray<T, L>, xt::xtensor<T, N, L>, xt::xtensor_fixed, adapted buffers (xt::adapt) and
// strided views (xt::strided_view, and xt::view with ranges), row- and column-major.
//
//   #include <einops/xtensor.hpp>
//   xt::xtensor<float, 4> x = xt::zeros<float>({8, 3, 32, 32});                 // b c h w
//   xt::xtensor<float, 4> y = einops::rearrange<"b c h w -> b h w c">(x);       // rank from the pattern
//   xt::xarray<float> z = einops::rearrange(xt::xarray<float>(x), text);         // dynamic rank: xarray
//   einops::rearrange_into(x, xt::strided_view(out, {...}), "b c h w -> b h w c");  // into a view
//
// Memory is read in place (pointer plus the expression's data_offset and strides: no copy on
// the way in) and the built-in kernels write the result straight into a new xt::xtensor (rank
// known) or xt::xarray (rank dynamic) of the input's layout (row-major for views). A literal
// pattern whose left side does not fit an xt::xtensor's rank does not compile. See backend.hpp
// for every spelling and result type.
//
// Only this header includes xtensor; link einops::xtensor (Debian: xtensor-dev).
#pragma once

#include <xtensor/xarray.hpp>
#include <xtensor/xtensor.hpp>
#include <xtensor/xutils.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "einops/backend.hpp"

namespace einops {
namespace detail::xtensor {

/// An xtensor expression whose elements live in memory einops can address with strides.
template <class X>
concept strided_with_memory = xt::is_xexpression<X>::value && requires(X& x, const X& c) {
  typename X::value_type;
  c.data();
  c.data_offset();
  c.strides();
  c.shape();
};

/// The layout results take: the input's when it has a static one, else row-major.
template <class X>
inline constexpr xt::layout_type result_layout =
    X::static_layout == xt::layout_type::column_major ? xt::layout_type::column_major : xt::layout_type::row_major;

}  // namespace detail::xtensor

template <detail::xtensor::strided_with_memory X>
struct tensor_traits<X> {
  using value_type = std::remove_const_t<typename X::value_type>;
  static constexpr std::size_t rank = xt::get_rank<X>::value;  // SIZE_MAX (dynamic_rank) for xarray and views

  static auto* data(const X& x) { return x.data() + x.data_offset(); }
  static auto* data(X& x) { return x.data() + x.data_offset(); }
  static const auto& shape(const X& x) { return x.shape(); }
  static const auto& strides(const X& x) { return x.strides(); }

  /// xt::xtensor<U, M> when the rank is known, else xt::xarray<U>.
  template <class U, std::size_t M>
  static auto make(std::span<const std::int64_t> shape) {
    constexpr xt::layout_type layout = detail::xtensor::result_layout<X>;
    if constexpr (M == dynamic_rank) {
      return xt::xarray<U, layout>::from_shape(std::vector<std::size_t>(shape.begin(), shape.end()));
    } else {
      std::array<std::size_t, M> lengths{};
      for (std::size_t i = 0; i < M; ++i) lengths[i] = static_cast<std::size_t>(shape[i]);
      return xt::xtensor<U, M, layout>::from_shape(lengths);
    }
  }
};

}  // namespace einops
