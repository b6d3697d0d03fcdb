// EinopsError: the one exception type of the library, and the helpers that format its messages.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "einops/export.hpp"

namespace einops {

/// Every invalid call throws this. Its message names the operation, the pattern, the input
/// shape(s), the given axis lengths and the reason (with a caret under the fault for syntax errors).
/// Exported: callers of a shared libeinops catch what it throws by this type.
class EINOPS_API EinopsError : public std::invalid_argument {
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
EINOPS_API std::string format_shape(std::span<const std::int64_t> shape);

/// einops' line naming a call's input shapes, written only here: "Input tensor shape: (2, 3)."
/// for one input, "Input tensor shapes: (2, 3), (3, 4)." for several.
EINOPS_API std::string input_shapes_line(std::span<const std::vector<std::int64_t>> shapes);
/// The line for one input: "Input tensor shape: (2, 3).".
EINOPS_API std::string input_shape_line(std::span<const std::int64_t> shape);

/// `pattern` on one line and a caret under byte `position` (UTF-8 aware: the caret is placed
/// under the code point, not the byte).
EINOPS_API std::string caret_line(std::string_view pattern, std::size_t position);

/// The pattern with control characters shown as '?', so the caret line under it stays aligned.
EINOPS_API std::string printable(std::string_view text);

/// einops' first line of an error about a call, written only here:
/// `Error while processing <operation>-reduction pattern "<pattern>".` for rearrange, repeat and
/// the reductions (einops' own wording), `Error while processing <operation> pattern "...".` for
/// pack, unpack, parse_shape, check_shape and einsum.
EINOPS_API std::string error_header(std::string_view operation, std::string_view pattern);

/// The reason of a rearrange, reduce or repeat of an empty list of tensors.
inline constexpr std::string_view kEmptyListReason =
    "Input is an empty list: rearrange/reduce/repeat need at least one tensor";

/// The reason of a list input whose tensors differ, tensor `index` against tensor 0 (a dtype name
/// is left out where it is empty: a library whose dtype einops cannot know), with where they first
/// differ: " (input dim 1: 3 != 4)" or " (rank 2 != 3)".
EINOPS_API std::string list_mismatch_reason(std::span<const std::int64_t> first_shape, std::string_view first_dtype,
                                            std::size_t index, std::span<const std::int64_t> shape,
                                            std::string_view dtype);

/// Throws EinopsError laid out as einops lays it out: error_header, then " <inputs_line>" on a
/// line of its own when it is not empty (the input shapes, "Input tensor shape: (2, 3)."), then
/// " <reason>".
[[noreturn]] EINOPS_API void throw_call_error(std::string_view operation, std::string_view pattern,
                                              std::string_view inputs_line, std::string_view reason);

}  // namespace detail
}  // namespace einops
