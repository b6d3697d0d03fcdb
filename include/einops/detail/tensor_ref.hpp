// The one borrowed strided layout: dtype, data, extents and strides (in elements), mdspan's idea.
// Every input reaches the executor as a TensorRef: the built-in tensors directly, and every adapter
// (LibTorch, Eigen, xtensor, OpenCV, DLPack, a user's type) through TensorRefWithExtents.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "einops/detail/max_rank.hpp"
#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

/// A borrowed tensor: what the core reads of an input or output, without copying its shape or
/// touching its reference count (a call on a small tensor pays for neither).
struct TensorRef {
  DType dtype = DType::float32;
  void* data = nullptr;
  std::span<const std::int64_t> shape;
  std::span<const std::int64_t> strides;
  const Storage* storage = nullptr;  // null for caller memory (TensorView, adapters)

  TensorRef(const AnyTensor& x)  // NOLINT(google-explicit-constructor)
      : dtype(x.dtype()), data(x.data()), shape(x.shape()), strides(x.strides()), storage(&x.storage()) {}
  template <Element T>
  TensorRef(const Tensor<T>& x)  // NOLINT(google-explicit-constructor)
      : dtype(dtype_v<T>), data(x.data()), shape(x.shape()), strides(x.strides()), storage(&x.storage()) {}
  template <Element T>
  TensorRef(const TensorView<T>& x)  // NOLINT(google-explicit-constructor)
      : dtype(dtype_v<T>),
        data(const_cast<std::remove_const_t<T>*>(x.data())),
        shape(x.shape()),
        strides(x.strides()) {}
  /// Caller memory described in place (the adapters, a list seen as one tensor). Read-only memory
  /// may be borrowed too: results are written only through memory the caller made writable.
  TensorRef(DType type, const void* memory, std::span<const std::int64_t> lengths, std::span<const std::int64_t> steps)
      : dtype(type), data(const_cast<void*>(memory)), shape(lengths), strides(steps) {}

  bool is_contiguous() const { return is_row_major_contiguous(shape, strides); }
  std::int64_t size() const { return element_count(shape); }
};

/// The same memory as a built-in AnyTensor (aliasing, no copy of the elements), sharing x's
/// storage when it has one.
EINOPS_API AnyTensor alias(const TensorRef& x);

/// A TensorRef over a tensor of another library, whose shape and strides (stored in that library's
/// own integer types, or not stored at all) are converted to int64 into fixed arrays held here.
/// The spans point into this object: a copy points into its own arrays.
class TensorRefWithExtents : public TensorRef {
 public:
  template <class ShapeRange, class StrideRange>
  TensorRefWithExtents(DType type, const void* memory, const ShapeRange& lengths, const StrideRange& steps)
      : TensorRef(type, memory, {}, {}) {
    const auto rank = static_cast<std::size_t>(std::size(lengths));
    if (rank > shape_.size() || static_cast<std::size_t>(std::size(steps)) != rank) reject(rank, std::size(steps));
    std::size_t i = 0;
    for (const auto length : lengths) shape_[i++] = static_cast<std::int64_t>(length);
    i = 0;
    for (const auto stride : steps) strides_[i++] = static_cast<std::int64_t>(stride);
    point_at_extents(rank);
  }
  TensorRefWithExtents(const TensorRefWithExtents& other)
      : TensorRef(other), shape_(other.shape_), strides_(other.strides_) {
    point_at_extents(other.shape.size());
  }
  TensorRefWithExtents& operator=(const TensorRefWithExtents&) = delete;

 private:
  void point_at_extents(std::size_t rank) {
    shape = {shape_.data(), rank};
    strides = {strides_.data(), rank};
  }
  [[noreturn]] EINOPS_API static void reject(std::size_t rank, std::size_t stride_count);

  std::array<std::int64_t, kMaxRank> shape_{};
  std::array<std::int64_t, kMaxRank> strides_{};
};

}  // namespace einops::detail
