// The out-of-line parts of the built-in tensors (einops/tensor.hpp): a new tensor's memory.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "einops/tensor.hpp"

namespace einops {
namespace detail {

void* allocate_tensor(std::span<const std::int64_t> shape, std::size_t element_size, Storage& storage, Shape& strides) {
  const std::int64_t count = checked_allocation_count(shape, element_size);  // before the strides' products
  Allocation memory = allocate_buffer(static_cast<std::size_t>(count > 0 ? count : 1) * element_size, true);
  storage = std::move(memory.storage);
  strides = row_major_strides(shape);
  return memory.data;
}

}  // namespace detail

AnyTensor::AnyTensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  data_ = detail::allocate_tensor(detail::as_span(shape_), dtype_size(dtype), storage_, strides_);
}

}  // namespace einops
