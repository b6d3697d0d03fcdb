// How einsum's portable loops accumulate products of each element type, and how a sum becomes an
// element: floats in float32 (float64 for float64; 16-bit floats widened exactly and rounded once
// at the end); integers in 32- or 64-bit unsigned arithmetic, whose wrap-around gives numpy's
// results without signed-overflow UB; bool as a count of true products (numpy's logical or of
// ands).
#pragma once

#include <cstdint>
#include <type_traits>

#include "einops/dtype.hpp"

namespace einops::detail::einsum {

template <class T>
using Accumulator =
    std::conditional_t<is_floating_element_v<T>, std::conditional_t<std::is_same_v<T, double>, double, float>,
                       std::conditional_t<(sizeof(T) <= 4 && !std::is_same_v<T, bool>), std::uint32_t, std::uint64_t>>;

template <class T>
T finish(Accumulator<T> sum) {
  if constexpr (std::is_same_v<T, bool>) return sum != 0;
  else return static_cast<T>(sum);  // modular for integers (C++20)
}

}  // namespace einops::detail::einsum
