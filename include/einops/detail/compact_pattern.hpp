// A parsed arrow pattern in a small fixed-size form, filled during compilation for a literal and
// turned back into an ArrowPattern at run time without parsing (on a plan-cache miss only).
//
// Tokens reference the literal's text by offset, so the form stays a few hundred bytes: it
// travels inside the pattern argument of every call.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "einops/pattern.hpp"

namespace einops::detail {

class CompactPattern {
 public:
  static constexpr std::size_t kCapacity = 48;  // tokens: groups + axes + one side break

  /// Records `pattern` (parsed from `text`); leaves the form empty when it does not fit.
  constexpr void record(const ArrowPattern& pattern) {
    count_ = 0;
    fits_ = record_side(pattern.left) && push(Kind::side_break, pattern.arrow_position, 2) && record_side(pattern.right);
    if (!fits_) count_ = 0;
  }

  constexpr bool fits() const { return fits_; }

  /// The ArrowPattern this form was recorded from; `text` must be the same text.
  ArrowPattern expand(std::string_view text) const {
    ArrowPattern pattern;
    pattern.arrow_position = 0;
    Expression* side = &pattern.left;
    Group* group = nullptr;
    for (std::size_t i = 0; i < count_; ++i) {
      const Token& token = tokens_[i];
      const std::string_view piece = text.substr(token.offset, token.length);
      switch (token.kind) {
        case Kind::side_break:
          pattern.arrow_position = token.offset;
          side = &pattern.right;
          group = nullptr;
          break;
        case Kind::group_bare:
        case Kind::group_parenthesized:
          side->groups.emplace_back();
          group = &side->groups.back();
          group->parenthesized = token.kind == Kind::group_parenthesized;
          group->position = token.offset;
          break;
        case Kind::named:
          group->axes.push_back(Axis{AxisKind::named, std::string(piece), 0, token.offset});
          break;
        case Kind::anonymous: {
          std::int64_t value = 0;
          for (char c : piece) value = value * 10 + (c - '0');
          side->has_non_unitary_anonymous = true;
          group->axes.push_back(Axis{AxisKind::anonymous, std::string(piece), value, token.offset});
          break;
        }
        case Kind::ellipsis:
          side->has_ellipsis = true;
          side->ellipsis_parenthesized = group->parenthesized;
          group->axes.push_back(Axis{AxisKind::ellipsis, "...", 0, token.offset});
          break;
      }
    }
    return pattern;
  }

 private:
  enum class Kind : std::uint8_t { side_break, group_bare, group_parenthesized, named, anonymous, ellipsis };
  struct Token {
    std::uint16_t offset = 0;
    std::uint16_t length = 0;
    Kind kind = Kind::side_break;
  };

  constexpr bool push(Kind kind, std::size_t offset, std::size_t length) {
    if (count_ == kCapacity || offset > 0xFFFF || length > 0xFFFF) return false;
    tokens_[count_++] = Token{static_cast<std::uint16_t>(offset), static_cast<std::uint16_t>(length), kind};
    return true;
  }

  constexpr bool record_side(const Expression& side) {
    for (const Group& group : side.groups) {
      if (!push(group.parenthesized ? Kind::group_parenthesized : Kind::group_bare, group.position, 0)) return false;
      for (const Axis& axis : group.axes) {
        const Kind kind = axis.kind == AxisKind::named       ? Kind::named
                          : axis.kind == AxisKind::anonymous ? Kind::anonymous
                                                             : Kind::ellipsis;
        if (!push(kind, axis.position, axis.kind == AxisKind::ellipsis ? 3 : axis.name.size())) return false;
      }
    }
    return true;
  }

  std::array<Token, kCapacity> tokens_{};
  std::uint8_t count_ = 0;
  bool fits_ = false;
};

}  // namespace einops::detail
