// The rules of einops/threads.hpp's environment variables, as pure functions of their text (the
// pool in parallel.cpp reads the variables; the tests call these directly).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "einops/threads.hpp"
#include "platform.hpp"

namespace einops::detail {

inline constexpr const char* kNumThreadsVariable = "EINOPS_NUM_THREADS";
inline constexpr const char* kSpinWaitVariable = "EINOPS_SPIN_WAIT_US";

/// The thread count EINOPS_NUM_THREADS's text sets: a positive decimal integer, larger ones
/// counting as kMaxThreads; nullopt (the variable is ignored) for anything else, 0 included.
inline std::optional<int> thread_count_setting(std::string_view text) {
  const std::optional<std::int64_t> n = parse_decimal(text);
  if (!n || *n == 0) return std::nullopt;
  return static_cast<int>(std::min<std::int64_t>(*n, kMaxThreads));
}

/// A spin wait within [0, kMaxSpinWait].
inline std::chrono::microseconds clamp_spin_wait(std::chrono::microseconds wait) {
  return std::clamp(wait, std::chrono::microseconds{0}, kMaxSpinWait);
}

/// The spin wait EINOPS_SPIN_WAIT_US's text sets: a non-negative decimal integer of
/// microseconds, larger ones counting as kMaxSpinWait; nullopt (ignored) for anything else.
inline std::optional<std::chrono::microseconds> spin_wait_setting(std::string_view text) {
  const std::optional<std::int64_t> us = parse_decimal(text);
  if (!us) return std::nullopt;
  return clamp_spin_wait(std::chrono::microseconds{*us});
}

}  // namespace einops::detail
