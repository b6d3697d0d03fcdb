// einops::Storage: what keeps a tensor's memory alive. A reference-counted handle to any owner of
// the memory (the library's own buffers, a std::shared_ptr, a std::vector, a framework's tensor, a
// DLPack capsule): copies share the owner and the last copy destroys it, thread-safely, as
// std::shared_ptr's copies do. einops::Shared<T> is the same handle with a typed pointer (plans).
//
// Neither needs <memory>, whose C++20 form brings <ostream> into every file that includes einops.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace einops {

template <class T>
class Shared;

namespace detail {

/// The shared part of a handle: the number of handles and how to destroy the block with what it
/// holds. The count is changed with the compiler's atomic built-ins (GCC, Clang), with the memory
/// orders of a reference count: relaxed to add a reference, acquire-release to drop one.
struct OwnerBlock {
  long references = 1;
  void (*destroy)(OwnerBlock* block) noexcept = nullptr;
};

/// A block that holds an owner of type Owner by value.
template <class Owner>
struct OwnerHolder final : OwnerBlock {
  Owner owner;

  template <class... Args>
  explicit OwnerHolder(Args&&... args) : owner(std::forward<Args>(args)...) {
    destroy = [](OwnerBlock* block) noexcept { delete static_cast<OwnerHolder*>(block); };
  }
};

inline void retain(OwnerBlock* block) noexcept {
  if (block != nullptr) __atomic_fetch_add(&block->references, 1, __ATOMIC_RELAXED);
}
inline void release(OwnerBlock* block) noexcept {
  if (block != nullptr && __atomic_fetch_sub(&block->references, 1, __ATOMIC_ACQ_REL) == 1) block->destroy(block);
}

template <class T, class... Args>
Shared<T> make_shared_object(Args&&... args);

}  // namespace detail

/// A shared handle to whatever owns some memory; empty for memory the caller keeps alive.
class Storage {
 public:
  Storage() noexcept = default;
  Storage(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor): empty, like a null shared_ptr
  /// Keeps `owner` (moved or copied in) alive until the last handle goes. Any movable object
  /// whose lifetime keeps the memory valid: `std::shared_ptr<void>`, `std::vector<float>`, ...
  template <class Owner>
    requires(!std::is_same_v<std::remove_cvref_t<Owner>, Storage> &&
             !std::is_same_v<std::remove_cvref_t<Owner>, std::nullptr_t> &&
             std::is_constructible_v<std::remove_cvref_t<Owner>, Owner &&>)
  Storage(Owner&& owner)  // NOLINT(google-explicit-constructor): an owner is a storage, as for shared_ptr
      : block_(new detail::OwnerHolder<std::remove_cvref_t<Owner>>(std::forward<Owner>(owner))) {}

  Storage(const Storage& other) noexcept : block_(other.block_) { detail::retain(block_); }
  Storage(Storage&& other) noexcept : block_(std::exchange(other.block_, nullptr)) {}
  Storage& operator=(const Storage& other) noexcept {
    Storage(other).swap(*this);
    return *this;
  }
  Storage& operator=(Storage&& other) noexcept {
    Storage(std::move(other)).swap(*this);
    return *this;
  }
  ~Storage() { detail::release(block_); }

  void swap(Storage& other) noexcept { std::swap(block_, other.block_); }
  explicit operator bool() const noexcept { return block_ != nullptr; }
  /// Handles to this owner (0 when empty); like shared_ptr's, a hint under concurrent copies.
  long use_count() const noexcept {
    return block_ == nullptr ? 0 : __atomic_load_n(&block_->references, __ATOMIC_RELAXED);
  }

  /// Handles share an owner when one was copied from the other.
  friend bool operator==(const Storage& a, const Storage& b) noexcept { return a.block_ == b.block_; }
  friend bool operator==(const Storage& a, std::nullptr_t) noexcept { return a.block_ == nullptr; }

 private:
  template <class T, class... Args>
  friend Shared<T> detail::make_shared_object(Args&&... args);

  explicit Storage(detail::OwnerBlock* adopted) noexcept : block_(adopted) {}

  detail::OwnerBlock* block_ = nullptr;
};

/// A shared pointer to a T that its Storage keeps alive (einops' plans): `get()`, `*`, `->`.
template <class T>
class Shared {
 public:
  Shared() noexcept = default;
  Shared(T* object, Storage owner) noexcept : object_(object), owner_(std::move(owner)) {}
  /// A pointer to const from one to mutable.
  template <class U>
    requires(std::is_same_v<T, const U>)
  Shared(Shared<U> other) noexcept  // NOLINT(google-explicit-constructor): like T* -> const T*
      : object_(other.get()), owner_(std::move(other).owner()) {}

  T* get() const noexcept { return object_; }
  T& operator*() const noexcept { return *object_; }
  T* operator->() const noexcept { return object_; }
  explicit operator bool() const noexcept { return object_ != nullptr; }
  long use_count() const noexcept { return owner_.use_count(); }
  const Storage& owner() const& noexcept { return owner_; }
  Storage owner() && noexcept { return std::move(owner_); }

  friend bool operator==(const Shared& a, const Shared& b) noexcept { return a.object_ == b.object_; }
  friend bool operator==(const Shared& a, std::nullptr_t) noexcept { return a.object_ == nullptr; }

 private:
  T* object_ = nullptr;
  Storage owner_;
};

namespace detail {

/// A T made from `args`, shared (one allocation for the object and its count).
template <class T, class... Args>
Shared<T> make_shared_object(Args&&... args) {
  auto* holder = new OwnerHolder<T>(std::forward<Args>(args)...);
  return Shared<T>(&holder->owner, Storage(static_cast<OwnerBlock*>(holder)));
}

}  // namespace detail

}  // namespace einops
