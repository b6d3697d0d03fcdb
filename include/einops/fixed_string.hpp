// String literals as template arguments (C++20 class-type NTTPs), as CTRE and fmt use them.
#pragma once

#include <cstddef>
#include <string_view>

namespace einops {

template <std::size_t N>
struct fixed_string {
  char data[N]{};
  constexpr fixed_string(const char (&text)[N]) {  // NOLINT(google-explicit-constructor): literal -> NTTP
    for (std::size_t i = 0; i < N; ++i) data[i] = text[i];
  }
  /// The first N - 1 characters of `text`, copied once (fixed_string_of).
  struct prefix_tag {};
  constexpr fixed_string(const char* text, prefix_tag) {
    for (std::size_t i = 0; i + 1 < N; ++i) data[i] = text[i];
  }
  constexpr std::string_view view() const { return {data, N - 1}; }
  constexpr std::size_t size() const { return N - 1; }
};

/// The first N - 1 characters of `text` as a fixed_string<N> (a reason text made into a template
/// argument during constant evaluation).
namespace detail {
template <std::size_t N>
constexpr fixed_string<N> fixed_string_of(const char* text) {
  return fixed_string<N>(text, typename fixed_string<N>::prefix_tag{});
}
}  // namespace detail

/// Calls `read(view)` on a local copy of the template-argument string S; constant evaluation
/// parses template patterns this way. GCC 12 under -fsanitize=undefined cannot fold the null
/// checks on the address of a template parameter object ("... == 0 is not a constant
/// expression"), but it can on a local copy.
template <fixed_string S, class Read>
constexpr auto read_text(Read read) {
  const auto copy = S;
  return read(copy.view());
}

}  // namespace einops
