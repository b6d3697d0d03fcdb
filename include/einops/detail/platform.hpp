// The compiler side of the platform layer: checked integer arithmetic, a read prefetch, a spin-wait
// hint and an optimisation barrier. This header and src/platform.cpp (the operating-system side)
// are the only places that use compiler builtins, inline assembly or OS calls, so that a port to
// another compiler or system changes these two files alone. Each function has a standard C++
// fallback (or none is needed: a hint may do nothing).
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
#define EINOPS_DETAIL_GNU_BUILTINS 1
#else
#define EINOPS_DETAIL_GNU_BUILTINS 0
#endif

namespace einops::detail {

/// An integer type the checked operations take (bool is not one).
template <class T>
concept CheckedInteger = std::integral<T> && !std::same_as<std::remove_cv_t<T>, bool>;

/// The standard C++ versions of the checked operations below, used where the builtins are
/// missing (and by the tests, against the builtins). Same contract.
namespace portable {

/// The unsigned type the wrapped result is computed in: at least `unsigned`, so that small types
/// are not promoted to a signed int that could overflow.
template <class T>
using Wide = std::common_type_t<unsigned, std::make_unsigned_t<T>>;

template <CheckedInteger T>
constexpr bool checked_add(T a, T b, T& result) noexcept {
  result = static_cast<T>(static_cast<Wide<T>>(a) + static_cast<Wide<T>>(b));
  using Limits = std::numeric_limits<T>;
  if constexpr (std::is_signed_v<T>) return (b > 0 && a > Limits::max() - b) || (b < 0 && a < Limits::min() - b);
  else return a > Limits::max() - b;
}

template <CheckedInteger T>
constexpr bool checked_sub(T a, T b, T& result) noexcept {
  result = static_cast<T>(static_cast<Wide<T>>(a) - static_cast<Wide<T>>(b));
  using Limits = std::numeric_limits<T>;
  if constexpr (std::is_signed_v<T>) return (b < 0 && a > Limits::max() + b) || (b > 0 && a < Limits::min() + b);
  else return a < b;
}

template <CheckedInteger T>
constexpr bool checked_mul(T a, T b, T& result) noexcept {
  result = static_cast<T>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
  using Limits = std::numeric_limits<T>;
  if (a == 0 || b == 0) return false;
  if constexpr (std::is_signed_v<T>) {
    if (a > 0) return b > 0 ? a > Limits::max() / b : b < Limits::min() / a;
    return b > 0 ? a < Limits::min() / b : a < Limits::max() / b;  // a < 0
  } else {
    return a > Limits::max() / b;
  }
}

}  // namespace portable

/// `result = a + b`; returns true when the exact sum does not fit in T (overflow). `result` then
/// holds the sum modulo 2^bits, as the GCC builtins leave it. Both operands and the result have
/// one type: convert at the call, where the conversion is visible.
template <CheckedInteger T>
[[nodiscard]] constexpr bool checked_add(T a, T b, T& result) noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS
  return __builtin_add_overflow(a, b, &result);
#else
  return portable::checked_add(a, b, result);
#endif
}

/// `result = a - b`; true on overflow (as checked_add).
template <CheckedInteger T>
[[nodiscard]] constexpr bool checked_sub(T a, T b, T& result) noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS
  return __builtin_sub_overflow(a, b, &result);
#else
  return portable::checked_sub(a, b, result);
#endif
}

/// `result = a * b`; true on overflow (as checked_add).
template <CheckedInteger T>
[[nodiscard]] constexpr bool checked_mul(T a, T b, T& result) noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS
  return __builtin_mul_overflow(a, b, &result);
#else
  return portable::checked_mul(a, b, result);
#endif
}

/// Asks for the cache line holding `address` to be loaded for reading into L2 but not L1 (x86
/// `prefetcht1`: locality 2). A hint: it never faults, so the address may lie past the data.
/// Without the builtin it does nothing. Always inlined, so that it stays in kernels compiled for
/// other instruction sets (the test kernels_keep_l2_prefetches looks for it there).
[[gnu::always_inline]] inline void prefetch_for_read(const void* address) noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS
  __builtin_prefetch(address, 0, 2);
#else
  (void)address;
#endif
}

/// Tells the processor that this thread is spinning on a shared value (x86 `pause`: the loop
/// then yields resources to the sibling hyper-thread and leaves it without a memory-order
/// penalty). Elsewhere it does nothing.
inline void cpu_relax() noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS && (defined(__x86_64__) || defined(__i386__))
  __builtin_ia32_pause();
#endif
}

/// Returns `p`, which the compiler can then no longer derive from other values (an empty inline
/// assembly statement that "changes" it): a running pointer stays in a register instead of being
/// recomputed from a base, or precomputed for every iteration and spilled. Without inline
/// assembly it returns `p` unchanged.
template <class T>
[[gnu::always_inline]] inline T* opaque_pointer(T* p) noexcept {
#if EINOPS_DETAIL_GNU_BUILTINS
  asm("" : "+r"(p));
#endif
  return p;
}

}  // namespace einops::detail
