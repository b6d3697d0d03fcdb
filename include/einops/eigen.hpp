// Eigen adapter: every einops operation on Eigen::Tensor, Eigen::TensorMap, Eigen::TensorFixedSize
// and, as rank-2 tensors, on dense matrices with direct memory access (Eigen::Matrix, Array,
// Map, Ref, Block). ColMajor (Eigen's default) and RowMajor alike.
//
//   #include <einops/eigen.hpp>
//   Eigen::Tensor<float, 4> x(8, 3, 32, 32);                                  // b c h w
//   Eigen::Tensor<float, 4> y = einops::rearrange<"b c h w -> b h w c">(x);   // rank from the pattern
//   Eigen::Tensor<float, 2> m = einops::reduce<"b c h w -> b c">(x, "mean");
//   Eigen::Tensor<float, 3> z = einops::rearrange<3>(x, text);                // run-time pattern: name the rank
//
// Axis i of a pattern is Eigen's dimension i (what x(i0, i1, ...) indexes), whatever the layout:
// the memory is read in place as a strided view (no copy on the way in) and the built-in kernels
// write the result straight into a new Eigen::Tensor of the input's layout; a rank-2 result of a
// matrix input is an Eigen::Matrix. A literal pattern whose left side does not fit the input's
// rank does not compile. See backend.hpp for every spelling and result type.
//
// Only this header includes Eigen; link einops::eigen (Debian: libeigen3-dev).
#pragma once

#include <Eigen/Core>
#include <unsupported/Eigen/CXX11/Tensor>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "einops/backend.hpp"

namespace einops {
namespace detail::eigen {

/// Strides in elements of dense memory with Eigen's `layout`.
template <class Index, std::size_t Rank>
std::array<Index, Rank> dense_strides(const std::array<Index, Rank>& dims, bool row_major) {
  std::array<Index, Rank> strides{};
  Index step = 1;
  for (std::size_t k = 0; k < Rank; ++k) {
    const std::size_t i = row_major ? Rank - 1 - k : k;
    strides[i] = step;
    step *= dims[i] > 0 ? dims[i] : 1;
  }
  return strides;
}

/// A new Eigen::Tensor of `Rank` dimensions with the given layout.
template <class U, std::size_t Rank, int Layout, class Index>
Eigen::Tensor<U, static_cast<int>(Rank), Layout, Index> make_tensor(std::span<const std::int64_t> shape) {
  std::array<Index, Rank> dims{};
  for (std::size_t i = 0; i < Rank; ++i) dims[i] = static_cast<Index>(shape[i]);
  if constexpr (Rank == 0) return Eigen::Tensor<U, 0, Layout, Index>();
  else return Eigen::Tensor<U, static_cast<int>(Rank), Layout, Index>(dims);
}

/// Traits shared by the tensor types that own or map memory (Tensor, TensorMap, TensorFixedSize).
template <class X, class Scalar, int Rank, int Layout, class Index>
struct tensor_memory_traits {
  using value_type = std::remove_const_t<Scalar>;
  static constexpr std::size_t rank = static_cast<std::size_t>(Rank);

  static auto* data(const X& x) { return x.data(); }
  static auto* data(X& x) { return x.data(); }
  static std::array<Index, rank> shape(const X& x) {
    std::array<Index, rank> dims{};
    for (std::size_t i = 0; i < rank; ++i) dims[i] = static_cast<Index>(x.dimension(static_cast<Index>(i)));
    return dims;
  }
  static std::array<Index, rank> strides(const X& x) { return dense_strides(shape(x), Layout == Eigen::RowMajor); }

  /// Results are Eigen::Tensors of the input's layout.
  template <class U, std::size_t M>
    requires(M != dynamic_rank)
  static Eigen::Tensor<U, static_cast<int>(M), Layout, Index> make(std::span<const std::int64_t> shape) {
    return make_tensor<U, M, Layout, Index>(shape);
  }
};

/// Dense matrices whose memory is directly accessible, with any inner and outer strides.
template <class X>
concept dense_with_memory = std::is_base_of_v<Eigen::DenseBase<X>, X> && (int(X::Flags) & Eigen::DirectAccessBit) != 0;

}  // namespace detail::eigen

template <class T, int N, int Options, class Index>
struct tensor_traits<Eigen::Tensor<T, N, Options, Index>>
    : detail::eigen::tensor_memory_traits<Eigen::Tensor<T, N, Options, Index>, T, N, Options & Eigen::RowMajor, Index> {
};

template <class Plain, int Options, template <class> class MakePointer>
struct tensor_traits<Eigen::TensorMap<Plain, Options, MakePointer>>
    : detail::eigen::tensor_memory_traits<Eigen::TensorMap<Plain, Options, MakePointer>, typename Plain::Scalar,
                                          static_cast<int>(Plain::NumIndices), static_cast<int>(Plain::Layout),
                                          typename Plain::Index> {};

template <class T, class Sizes, int Options, class Index>
struct tensor_traits<Eigen::TensorFixedSize<T, Sizes, Options, Index>>
    : detail::eigen::tensor_memory_traits<Eigen::TensorFixedSize<T, Sizes, Options, Index>, T,
                                          static_cast<int>(Eigen::internal::array_size<Sizes>::value),
                                          Options & Eigen::RowMajor, Index> {};

/// Dense matrices are rank-2 tensors (rows, cols); a rank-2 result is an Eigen::Matrix of the
/// same storage order, any other result an Eigen::Tensor.
template <detail::eigen::dense_with_memory X>
struct tensor_traits<X> {
  using value_type = std::remove_const_t<typename X::Scalar>;
  static constexpr std::size_t rank = 2;
  static constexpr int layout = X::IsRowMajor ? Eigen::RowMajor : Eigen::ColMajor;

  static auto* data(const X& x) { return x.data(); }
  static auto* data(X& x) { return x.data(); }
  static std::array<Eigen::Index, 2> shape(const X& x) { return {x.rows(), x.cols()}; }
  static std::array<Eigen::Index, 2> strides(const X& x) {
    if constexpr (X::IsRowMajor) return {x.outerStride(), x.innerStride()};
    else return {x.innerStride(), x.outerStride()};
  }

  template <class U, std::size_t M>
    requires(M != dynamic_rank)
  static auto make(std::span<const std::int64_t> shape) {
    if constexpr (M == 2)
      return Eigen::Matrix<U, Eigen::Dynamic, Eigen::Dynamic, layout>(static_cast<Eigen::Index>(shape[0]),
                                                                      static_cast<Eigen::Index>(shape[1]));
    else return detail::eigen::make_tensor<U, M, layout, Eigen::Index>(shape);
  }
};

}  // namespace einops
