// A parsed arrow pattern in a small fixed-size form, filled during compilation for a literal and
// turned back into an ArrowPattern at run time without parsing (on a plan-cache miss only).
//
// It travels by value inside the pattern argument of every call, so it is kept to 4-byte tokens
// that reference the literal's text: an axis token that is a group of its own carries a flag
// instead of a group token of its own. Each token is one 32-bit word rather than a struct: the
// compiler writes the constant at every call site, one store per scalar member before it merges
// them, and its dead-store pass is quadratic in those stores over a function with many calls.
// A pattern that does not fit (more than kCapacity tokens, offsets past 64 KiB, names over 255
// bytes) leaves the form empty and takes the run-time path.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "einops/export.hpp"
#include "einops/pattern.hpp"

namespace einops::detail {

class CompactPattern {
 public:
  static constexpr std::size_t kCapacity = 32;  // tokens: axes, brackets, unit groups, one side break

  /// Records `pattern` (parsed from `text`); leaves the form empty when it does not fit.
  constexpr void record(const ArrowPattern& pattern) {
    count_ = 0;
    fits_ =
        record_side(pattern.left) && push(Kind::side_break, pattern.arrow_position, 2) && record_side(pattern.right);
    if (!fits_) count_ = 0;
    // Unused tokens get a non-zero filler: GCC writes a mostly-zero constant with `rep stos`,
    // whose start-up cost weighs on a tiny call; a filler becomes plain stores.
    for (std::size_t i = count_; i < kCapacity; ++i) tokens_[i] = 0xFFFFFFFF;
  }

  constexpr bool fits() const { return fits_; }

  /// The ArrowPattern this form was recorded from; `text` must be the same text.
  EINOPS_API ArrowPattern expand(std::string_view text) const;

 private:
  enum class Kind : std::uint8_t { side_break, bracket, unit_group, named, anonymous, ellipsis };
  static constexpr std::uint8_t kKindMask = 0x7F;
  static constexpr std::uint8_t kOwnGroup = 0x80;  // an axis that is a bare group of its own
  struct Token {
    std::uint16_t offset;
    std::uint8_t length;
    std::uint8_t kind;  // a Kind, | kOwnGroup
  };
  static constexpr Token unpack(std::uint32_t word) {
    return Token{static_cast<std::uint16_t>(word & 0xFFFF), static_cast<std::uint8_t>((word >> 16) & 0xFF),
                 static_cast<std::uint8_t>(word >> 24)};
  }

  constexpr bool push(Kind kind, std::size_t offset, std::size_t length, bool own_group = false) {
    if (count_ == kCapacity || offset > 0xFFFF || length > 0xFF) return false;
    tokens_[count_++] = static_cast<std::uint32_t>(offset) | static_cast<std::uint32_t>(length) << 16 |
                        static_cast<std::uint32_t>(static_cast<std::uint8_t>(kind) | (own_group ? kOwnGroup : 0)) << 24;
    return true;
  }

  constexpr bool record_side(const Expression& side) {
    for (const Group& group : side.groups) {
      // A bare group holds one axis at its own position, or none (a unit axis `1`).
      if (group.parenthesized) {
        if (!push(Kind::bracket, group.position, 0)) return false;
      } else if (group.axes.empty()) {
        if (!push(Kind::unit_group, group.position, 0)) return false;
        continue;
      }
      for (const Axis& axis : group.axes) {
        const Kind kind = axis.kind == AxisKind::named       ? Kind::named
                          : axis.kind == AxisKind::anonymous ? Kind::anonymous
                                                             : Kind::ellipsis;
        const bool own_group = !group.parenthesized;
        if (own_group && (group.axes.size() != 1 || group.position != axis.position)) return false;
        if (!push(kind, axis.position, axis.kind == AxisKind::ellipsis ? 3 : axis.name.size(), own_group)) return false;
      }
    }
    return true;
  }

  // The count and flag first: the form then ends without tail padding. With tail padding, Clang 16
  // places the pattern argument's next member in it and stores the constant member by member, and
  // its optimiser crashes (EarlyCSE) on the store of the token array.
  std::uint8_t count_ = 0;
  bool fits_ = false;
  // Filled by record() (every slot, for a constant); left unwritten for a run-time pattern, which
  // never reads it: zeroing it cost a run-time call as much as a cache probe.
  std::array<std::uint32_t, kCapacity> tokens_;  // each a Token: offset | length << 16 | kind << 24
};

}  // namespace einops::detail
