// The built-in tensor: TensorView<T> (non-owning, strided, wraps any caller memory) and Tensor<T>
// (owning, storage shared between tensors like torch and numpy arrays).
//
// Strides are in elements and may be negative or zero. Shapes and strides are int64 throughout,
// as in every mainstream tensor library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/error.hpp"
#include "einops/export.hpp"
#include "einops/storage.hpp"

namespace einops {

using Shape = std::vector<std::int64_t>;

namespace detail {

/// Memory from the library's allocator: its first byte and the storage that gives it back.
struct Allocation {
  Storage storage;
  void* data = nullptr;
};

/// Storage for `bytes`, 64-byte aligned (as LibTorch's), zero-filled when `zeroed`. Buffers of
/// 1 MiB or more are 2 MiB aligned, marked for huge pages and reused once released (see
/// einops/memory.hpp). Kernels run fastest when rows start on cache lines.
EINOPS_API Allocation allocate_buffer(std::size_t bytes, bool zeroed);

/// Zero-filled memory for a new tensor of `shape` with elements of `element_size` bytes (at least
/// one element's worth, so that an empty tensor has a valid pointer): its first byte, with
/// `storage` set to keep it and `strides` to its row-major strides. Throws EinopsError (as
/// checked_allocation_count) for a shape that may not be allocated. Out of line: a tensor's
/// constructor is one call in each caller, for every element type.
EINOPS_API void* allocate_tensor(std::span<const std::int64_t> shape, std::size_t element_size, Storage& storage,
                                 Shape& strides);

/// A shape or strides as a span, made from its pointer and length: the compiler checks that
/// constructor's constraints several times faster than the one from a container.
inline std::span<const std::int64_t> as_span(const Shape& values) noexcept { return {values.data(), values.size()}; }

/// Row-major (C order) strides of `shape`, in elements. Exact for a shape checked_element_count
/// accepts; for any other (an empty tensor with huge lengths) they wrap, with no undefined
/// behaviour, and are never followed.
inline Shape row_major_strides(std::span<const std::int64_t> shape) {
  Shape strides(shape.size());
  std::uint64_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = static_cast<std::int64_t>(step);
    step *= static_cast<std::uint64_t>(shape[i] > 0 ? shape[i] : 1);
  }
  return strides;
}

/// Number of elements: 0 as soon as a length is 0, so it cannot overflow for an empty tensor
/// (a non-empty one was checked when it was made).
inline std::int64_t element_count(std::span<const std::int64_t> shape) {
  std::uint64_t n = 1;
  for (std::int64_t length : shape) {
    if (length == 0) return 0;
    n *= static_cast<std::uint64_t>(length);
  }
  return static_cast<std::int64_t>(n);
}

/// Number of elements, or throws EinopsError when a length is negative or the product of the
/// non-zero lengths does not fit in int64 (so that no product of lengths overflows, in any order).
EINOPS_API std::int64_t checked_element_count(std::span<const std::int64_t> shape);

/// Why a tensor of `shape` with elements of `element_size` bytes may not be allocated (its byte
/// count overflows or exceeds max_allocation_bytes(), limits.hpp), or an empty string.
EINOPS_API std::string allocation_problem(std::span<const std::int64_t> shape, std::size_t element_size);

/// The element count of a tensor about to be allocated; throws EinopsError (with the reason of
/// allocation_problem) instead of allocating too much.
EINOPS_API std::int64_t checked_allocation_count(std::span<const std::int64_t> shape, std::size_t element_size);

/// Throws the EinopsError of AnyTensor::as<T> on a tensor of another dtype (out of line: the
/// message is built in the library, not in every caller).
[[noreturn]] EINOPS_API void throw_dtype_mismatch(DType held, DType wanted);
/// Throws the EinopsError of a TensorView given shape and strides of different ranks.
[[noreturn]] EINOPS_API void throw_view_rank_mismatch(std::span<const std::int64_t> shape,
                                                      std::span<const std::int64_t> strides);

/// Throws EinopsError when some element of a view (shape, strides in elements) lies further
/// from its first element than a byte offset can express: kernels may then add offsets freely.
EINOPS_API void check_view_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                  std::size_t element_size);

/// Copies the elements of `shape` at `data` (strides in elements) to `out` in row-major order,
/// through the copy kernel (copy_layout in einops/detail/kernels.hpp).
EINOPS_API void gather_row_major(std::size_t element_size, std::span<const std::int64_t> shape, const void* data,
                                 std::span<const std::int64_t> strides, void* out);

inline bool is_row_major_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides) {
  std::uint64_t step = 1;  // unsigned: a hostile shape may overflow it, never with undefined behaviour
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && static_cast<std::uint64_t>(strides[i]) != step) return element_count(shape) == 0;
    step *= static_cast<std::uint64_t>(shape[i]);
  }
  return true;
}

}  // namespace detail

/// A non-owning strided view of caller memory: pointer, shape and strides (in elements).
/// The caller keeps the memory alive for as long as the view (and any result aliasing it) is used.
template <Element T>
class TensorView {
 public:
  using value_type = T;

  TensorView() = default;
  /// Row-major contiguous memory.
  TensorView(T* data, Shape shape) : data_(data), shape_(std::move(shape)) {
    detail::checked_element_count(detail::as_span(shape_));  // before row_major_strides, whose products it checks
    strides_ = detail::row_major_strides(detail::as_span(shape_));
    detail::check_view_extent(detail::as_span(shape_), detail::as_span(strides_), sizeof(T));
  }
  /// Any strides (in elements), including negative and zero.
  TensorView(T* data, Shape shape, Shape strides)
      : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {
    if (shape_.size() != strides_.size())
      detail::throw_view_rank_mismatch(detail::as_span(shape_), detail::as_span(strides_));
    detail::check_view_extent(detail::as_span(shape_), detail::as_span(strides_), sizeof(T));
  }
  /// A read-only view of a mutable one.
  template <class U>
    requires(std::is_const_v<T> && std::is_same_v<std::remove_const_t<T>, U>)
  TensorView(const TensorView<U>& other)  // NOLINT(google-explicit-constructor): like T* -> const T*
      : data_(other.data()),
        shape_(other.shape().begin(), other.shape().end()),
        strides_(other.strides().begin(), other.strides().end()) {}

  T* data() const { return data_; }
  std::span<const std::int64_t> shape() const { return detail::as_span(shape_); }
  std::span<const std::int64_t> strides() const { return detail::as_span(strides_); }
  std::int64_t shape(std::size_t dim) const { return shape_.at(dim); }
  std::size_t rank() const { return shape_.size(); }
  std::int64_t size() const { return detail::element_count(shape()); }
  bool is_contiguous() const { return detail::is_row_major_contiguous(shape(), strides()); }
  static constexpr DType dtype() { return dtype_v<T>; }

  /// Element at a multi-index (bounds-checked).
  T& at(std::span<const std::int64_t> index) const {
    if (index.size() != shape_.size()) throw EinopsError("TensorView::at: wrong number of indices");
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < index.size(); ++i) {
      if (index[i] < 0 || index[i] >= shape_[i]) throw EinopsError("TensorView::at: index out of range");
      offset += index[i] * strides_[i];
    }
    return data_[offset];
  }
  T& at(std::initializer_list<std::int64_t> index) const {
    return at(std::span<const std::int64_t>(index.begin(), index.size()));
  }

  /// The elements in row-major order (a copy).
  std::vector<std::remove_const_t<T>> to_vector() const {
    using Value = std::remove_const_t<T>;
    const auto count = static_cast<std::size_t>(size());
    if constexpr (std::is_same_v<Value, bool>) {  // std::vector<bool> has no data() to copy into
      static_assert(sizeof(bool) == sizeof(unsigned char), "a bool is copied as a byte");
      std::vector<unsigned char> bytes(count);
      if (count != 0) detail::gather_row_major(sizeof(bool), shape(), data_, strides(), bytes.data());
      return std::vector<bool>(bytes.begin(), bytes.end());
    } else {
      std::vector<Value> out(count);
      if (count != 0) detail::gather_row_major(sizeof(Value), shape(), data_, strides(), out.data());
      return out;
    }
  }

 private:
  T* data_ = nullptr;
  Shape shape_;
  Shape strides_;
};

/// An owning tensor. Copies share storage (like torch::Tensor); results of einops operations that
/// need no data movement share the input's storage too.
template <Element T>
class Tensor {
 public:
  using value_type = T;

  Tensor() : Tensor(Shape{}) {}
  /// Value-initialised (zeros) tensor of the given shape.
  explicit Tensor(Shape shape) : shape_(std::move(shape)) {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                  "zero bytes are a zero of every element type");
    data_ = static_cast<T*>(detail::allocate_tensor(detail::as_span(shape_), sizeof(T), storage_, strides_));
  }
  /// A tensor holding `values` in row-major order.
  Tensor(Shape shape, const std::vector<T>& values) : Tensor(std::move(shape)) {
    if (static_cast<std::int64_t>(values.size()) != size())
      throw EinopsError("Tensor: " + std::to_string(values.size()) + " values given for shape " +
                        detail::format_shape(shape_));
    for (std::size_t i = 0; i < values.size(); ++i) data_[i] = values[i];
  }
  Tensor(Shape shape, std::initializer_list<T> values) : Tensor(std::move(shape), std::vector<T>(values)) {}

  /// A tensor over existing memory: `storage` keeps it alive (any owner converts: a
  /// std::shared_ptr, a std::vector, ...; empty, or nullptr, for memory the caller keeps alive,
  /// as for results that alias a TensorView).
  Tensor(Storage storage, T* data, Shape shape, Shape strides)
      : storage_(std::move(storage)), data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {}

  /// 0, 1, 2, ... in row-major order, converted to T: handy for examples and tests.
  static Tensor arange(Shape shape) {
    Tensor result(std::move(shape));
    for (std::int64_t i = 0; i < result.size(); ++i) result.data_[i] = static_cast<T>(i);
    return result;
  }

  T* data() const { return data_; }
  std::span<const std::int64_t> shape() const { return detail::as_span(shape_); }
  std::span<const std::int64_t> strides() const { return detail::as_span(strides_); }
  std::int64_t shape(std::size_t dim) const { return shape_.at(dim); }
  std::size_t rank() const { return shape_.size(); }
  std::int64_t size() const { return detail::element_count(shape()); }
  bool is_contiguous() const { return detail::is_row_major_contiguous(shape(), strides()); }
  static constexpr DType dtype() { return dtype_v<T>; }
  /// The allocation this tensor keeps alive (shared by views of it); empty for aliases of caller memory.
  const Storage& storage() const { return storage_; }
  /// True when both tensors hold the same storage (one was made from the other, or from its storage).
  bool shares_storage_with(const Tensor& other) const { return storage_ && storage_ == other.storage_; }

  TensorView<T> view() const { return TensorView<T>(data_, shape_, strides_); }
  operator TensorView<T>() const { return view(); }                             // NOLINT(google-explicit-constructor)
  operator TensorView<const T>() const { return TensorView<const T>(view()); }  // NOLINT

  T& at(std::span<const std::int64_t> index) const { return view().at(index); }
  T& at(std::initializer_list<std::int64_t> index) const { return view().at(index); }
  std::vector<T> to_vector() const { return view().to_vector(); }

 private:
  Storage storage_;
  T* data_ = nullptr;
  Shape shape_;
  Shape strides_;
};

/// A tensor whose element type is known only at run time (numpy-style). reduce() returns one
/// because numpy's result dtype depends on the reduction; `as<T>()` gives the typed tensor.
class AnyTensor {
 public:
  AnyTensor() = default;
  /// A zero-filled tensor of the given dtype and shape.
  EINOPS_API AnyTensor(DType dtype, Shape shape);
  /// A tensor over existing memory that `storage` keeps alive (see Tensor's).
  AnyTensor(DType dtype, Storage storage, void* data, Shape shape, Shape strides)
      : dtype_(dtype),
        storage_(std::move(storage)),
        data_(data),
        shape_(std::move(shape)),
        strides_(std::move(strides)) {}
  template <Element T>
  AnyTensor(const Tensor<T>& typed)  // NOLINT(google-explicit-constructor): a typed tensor is an AnyTensor
      : dtype_(dtype_v<T>),
        storage_(typed.storage()),
        data_(typed.data()),
        shape_(typed.shape().begin(), typed.shape().end()),
        strides_(typed.strides().begin(), typed.strides().end()) {}
  /// Aliases caller memory (no ownership).
  template <Element T>
  AnyTensor(const TensorView<T>& view)  // NOLINT(google-explicit-constructor)
      : dtype_(dtype_v<T>),
        data_(const_cast<std::remove_const_t<T>*>(view.data())),
        shape_(view.shape().begin(), view.shape().end()),
        strides_(view.strides().begin(), view.strides().end()) {}

  DType dtype() const { return dtype_; }
  void* data() const { return data_; }
  std::span<const std::int64_t> shape() const { return detail::as_span(shape_); }
  std::span<const std::int64_t> strides() const { return detail::as_span(strides_); }
  std::size_t rank() const { return shape_.size(); }
  std::int64_t size() const { return detail::element_count(shape()); }
  bool is_contiguous() const { return detail::is_row_major_contiguous(shape(), strides()); }
  const Storage& storage() const { return storage_; }

  /// The same tensor, typed; throws EinopsError when T is not its dtype.
  template <Element T>
  Tensor<T> as() const& {
    if (dtype_v<T> != dtype_) detail::throw_dtype_mismatch(dtype_, dtype_v<T>);
    return Tensor<T>(storage_, static_cast<T*>(data_), shape_, strides_);
  }
  /// The same, from a tensor about to go (an operation's result): its shape and strides move,
  /// which also spares each caller the instantiation of their copy.
  template <Element T>
  Tensor<T> as() && {
    if (dtype_v<T> != dtype_) detail::throw_dtype_mismatch(dtype_, dtype_v<T>);
    return Tensor<T>(std::move(storage_), static_cast<T*>(data_), std::move(shape_), std::move(strides_));
  }
  template <Element T>
  operator Tensor<T>() const {
    return as<T>();
  }  // NOLINT(google-explicit-constructor)

 private:
  DType dtype_ = DType::float32;
  Storage storage_;
  void* data_ = nullptr;
  Shape shape_;
  Shape strides_;
};

}  // namespace einops
