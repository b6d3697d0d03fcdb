// EinopsError: the one exception type of the library, and the helpers that format its messages.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace einops {

/// Every invalid call throws this. Its message names the operation, the pattern, the input
/// shape(s), the given axis lengths and the reason (with a caret under the fault for syntax errors).
class EinopsError : public std::invalid_argument {
 public:
  explicit EinopsError(const std::string& message) : std::invalid_argument(without_nul(message)) {}

 private:
  /// what() is a C string: a NUL from a hostile pattern or name would hide the rest of the message.
  static std::string without_nul(std::string message) {
    for (char& c : message)
      if (c == '\0') c = '?';
    return message;
  }
};

namespace detail {

/// "(2, 3, 4)" — shapes are printed the way einops prints them.
std::string format_shape(std::span<const std::int64_t> shape);

/// `pattern` on one line and a caret under byte `position` (UTF-8 aware: the caret is placed
/// under the code point, not the byte).
std::string caret_line(std::string_view pattern, std::size_t position);

/// The pattern with control characters shown as '?', so the caret line under it stays aligned.
std::string printable(std::string_view text);

}  // namespace detail
}  // namespace einops
