// einops.parse_shape: the lengths of a tensor's axes by name.
//
//   einops::ParsedShape s = einops::parse_shape(x, "b _ h w");
//   s["h"];                              // 5
//   for (const auto& [name, length] : s) // b, h, w in pattern order
//   einops::rearrange(y, "(b c h w) -> b c h w", s);   // as einops' **parse_shape(x, ...)
//
// `_` skips a dimension, `...` skips any number, `1` and `()` require a dimension of length 1, an
// anonymous axis such as `3` requires that length, and `(h)` reads as `h`.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "einops/export.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// Named axis lengths in pattern order: indexable by name, iterable, and usable wherever axis
/// lengths are taken.
class ParsedShape {
 public:
  using Entry = std::pair<std::string, std::int64_t>;
  using const_iterator = std::vector<Entry>::const_iterator;

  ParsedShape() = default;
  explicit ParsedShape(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  /// The length of `name`; throws EinopsError when the pattern did not name it.
  EINOPS_API std::int64_t operator[](std::string_view name) const;
  std::int64_t at(std::string_view name) const { return (*this)[name]; }
  EINOPS_API bool contains(std::string_view name) const;

  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  std::span<const Entry> entries() const { return entries_; }

  /// The same lengths as axis lengths for rearrange, reduce and repeat.
  operator AxisLengths() const { return AxisLengths(entries_); }  // NOLINT(google-explicit-constructor)

  bool operator==(const ParsedShape&) const = default;

 private:
  std::vector<Entry> entries_;
};

/// einops.parse_shape on a shape.
EINOPS_API ParsedShape parse_shape(std::span<const std::int64_t> shape, shape_pattern pattern);

/// einops.parse_shape on any tensor of this library (Tensor, TensorView, AnyTensor).
template <class TensorLike>
  requires requires(const TensorLike& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  }
ParsedShape parse_shape(const TensorLike& x, shape_pattern pattern) {
  return parse_shape(std::span<const std::int64_t>(x.shape()), pattern);
}

}  // namespace einops
