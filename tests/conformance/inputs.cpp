#include "inputs.hpp"

#include <cstddef>
#include <type_traits>

namespace conformance {

std::optional<einops::DType> parse_dtype(std::string_view name) {
  for (int d = 0; d <= static_cast<int>(einops::DType::float64); ++d) {
    const auto dtype = static_cast<einops::DType>(d);
    if (einops::dtype_name(dtype) == name) return dtype;
  }
  return std::nullopt;
}

einops::AnyTensor make_input(einops::DType dtype, const einops::Shape& shape, std::int64_t k) {
  return einops::visit_dtype(dtype, [&](auto tag) -> einops::AnyTensor {
    using T = decltype(tag);
    einops::Tensor<T> tensor(shape);  // throws EinopsError for a negative length
    T* data = tensor.data();
    for (std::int64_t i = 0; i < tensor.size(); ++i) {
      const std::int64_t v = input_value(i, k);
      if constexpr (std::is_same_v<T, bool>) data[i] = v > 0;
      else data[i] = static_cast<T>(v);
    }
    return tensor;
  });
}

std::vector<einops::AnyTensor> make_inputs(einops::DType dtype, const std::vector<einops::Shape>& shapes) {
  std::vector<einops::AnyTensor> inputs;
  inputs.reserve(shapes.size());
  for (std::size_t k = 0; k < shapes.size(); ++k)
    inputs.push_back(make_input(dtype, shapes[k], static_cast<std::int64_t>(k)));
  return inputs;
}

}  // namespace conformance
