// A literal's compact parse turned back into an ArrowPattern (compact_pattern.hpp): out of line,
// so that a user's translation unit compiles none of it.
#include "einops/detail/compact_pattern.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace einops::detail {

ArrowPattern CompactPattern::expand(std::string_view text) const {
  ArrowPattern pattern;
  pattern.arrow_position = 0;
  Expression* side = &pattern.left;
  Group* group = nullptr;
  for (std::size_t i = 0; i < count_; ++i) {
    const Token token = unpack(tokens_[i]);
    const auto kind = static_cast<Kind>(token.kind & kKindMask);
    if (kind == Kind::side_break) {
      pattern.arrow_position = token.offset;
      side = &pattern.right;
      group = nullptr;
      continue;
    }
    if (kind == Kind::bracket || kind == Kind::unit_group || (token.kind & kOwnGroup) != 0) {
      group = &side->groups.emplace_back();
      group->parenthesized = kind == Kind::bracket;
      group->position = token.offset;
      if (kind == Kind::bracket || kind == Kind::unit_group) continue;
    }
    const std::string_view piece = text.substr(token.offset, token.length);
    switch (kind) {
      case Kind::named: group->axes.push_back(Axis{AxisKind::named, AxisName(piece), 0, token.offset}); break;
      case Kind::anonymous: {
        std::int64_t value = 0;
        for (char c : piece) value = value * 10 + (c - '0');
        side->has_non_unitary_anonymous = true;
        group->axes.push_back(Axis{AxisKind::anonymous, AxisName(piece), value, token.offset});
        break;
      }
      case Kind::ellipsis:
        side->has_ellipsis = true;
        side->ellipsis_parenthesized = group->parenthesized;
        group->axes.push_back(Axis{AxisKind::ellipsis, AxisName("..."), 0, token.offset});
        break;
      default: break;
    }
  }
  return pattern;
}

}  // namespace einops::detail
