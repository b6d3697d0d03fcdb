// What an error of pack, unpack, parse_shape or einsum names: the operation, the pattern, the
// input shape(s) and, for unpack, the packed shapes. Every public entry point of those operations
// builds one and hands it to the code that may fail.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/pattern.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

struct OperationContext {
  std::string_view operation;                          // "pack", "unpack", "parse_shape", "einsum"
  std::string_view pattern;
  std::span<const AnyTensor> inputs = {};              // pack and einsum: every input
  std::span<const std::int64_t> shape = {};            // parse_shape and unpack: the one input
  const std::vector<Shape>* packed_shapes = nullptr;   // unpack

  /// Throws EinopsError: the operation, the pattern, the shapes, then the reason.
  [[noreturn]] void fail(const std::string& reason) const;
  /// Throws EinopsError for a fault in the pattern, with a caret under it.
  [[noreturn]] void fail_syntax(const PatternError& error) const;
};

/// "[(2,), (-1, 3)]": packed shapes as einops prints a list of shapes.
std::string format_shapes(std::span<const Shape> shapes);

}  // namespace einops::detail
