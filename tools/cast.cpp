#include "cast.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

#include "einops/ops.hpp"

namespace einops::tool {
namespace {

constexpr DType kAllDTypes[] = {DType::boolean, DType::int8,    DType::int16,   DType::int32,
                                DType::int64,   DType::uint8,   DType::uint16,  DType::uint32,
                                DType::uint64,  DType::float16, DType::float32, DType::float64};

template <class To, class From>
To convert(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return value != From{};
  } else if constexpr (is_floating_element_v<To>) {
    return To(static_cast<double>(value));  // float16 and bfloat16 round explicitly
  } else if constexpr (is_floating_element_v<From> && std::is_integral_v<To>) {
    const auto v = static_cast<double>(value);
    if (std::isnan(v)) return To{0};
    // Compare in double: the limits of 64-bit types round up to a power of two there.
    if (v <= static_cast<double>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= static_cast<double>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else if constexpr (is_floating_element_v<From>) {
    return static_cast<To>(static_cast<double>(value));
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace

std::optional<DType> dtype_from_name(std::string_view name) {
  for (DType dtype : kAllDTypes)
    if (dtype_name(dtype) == name) return dtype;
  return std::nullopt;
}

AnyTensor cast(const AnyTensor& x, DType target) {
  if (x.dtype() == target) return x;
  const AnyTensor source = einops::contiguous(x);
  AnyTensor out(target, Shape(x.shape().begin(), x.shape().end()));
  const auto count = static_cast<std::size_t>(x.size());
  visit_dtype(x.dtype(), [&](auto from_zero) {
    using From = decltype(from_zero);
    visit_dtype(target, [&](auto to_zero) {
      using To = decltype(to_zero);
      const From* in = static_cast<const From*>(source.data());
      To* result = static_cast<To*>(out.data());
      for (std::size_t i = 0; i < count; ++i) result[i] = convert<To>(in[i]);
    });
  });
  return out;
}

}  // namespace einops::tool
