// einops' sentences about lengths and ranks, and where a check failed (shape_reasons.hpp).
#include "shape_reasons.hpp"

#include "einops/detail/walk.hpp"

namespace einops::detail {

std::string length_mismatch_reason(std::int64_t length, std::int64_t expected) {
  return "Shape mismatch, " + std::to_string(length) + " != " + std::to_string(expected);
}

std::string indivisible_reason(std::int64_t length, std::int64_t chunk) {
  return "Shape mismatch, can't divide axis of length " + std::to_string(length) + " in chunks of " +
         std::to_string(chunk) + (chunk == 0 ? " (division by zero)" : "");
}

std::string wrong_rank_reason(std::size_t fixed, bool has_ellipsis, std::size_t rank) {
  const FilledReason reason = wrong_rank_reason_text(fixed, has_ellipsis, rank);
  return std::string(reason.text, reason.size);
}

std::string rank_limit_reason(std::string_view subject, std::size_t rank) {
  return std::string(subject) + " " + std::to_string(rank) + " dimensions, more than the limit of " +
         std::to_string(kMaxRank);
}

std::string python_set(const std::vector<std::string>& names) {
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const bool anonymous = names[i].ends_with("-axis");
    const std::string name = names[i] == "..." ? "\u2026" : names[i];  // einops' ellipsis is one character
    out += (i ? ", " : "") + (anonymous ? name : "'" + name + "'");
  }
  return out + "}";
}

std::string uninferable_reason(const std::vector<std::string>& names) {
  return "Could not infer sizes for " + python_set(names);
}

std::string group_text(std::string_view pattern, const Group& group) {
  const std::size_t begin = group.position;
  if (begin >= pattern.size()) return group.parenthesized ? "()" : "1";
  // A group has no brackets inside it, so its own ")" is the first one; a bare token ends at a
  // space, a bracket or the arrow.
  const std::size_t end = group.parenthesized ? pattern.find(')', begin) : pattern.find_first_of(" ()-", begin);
  if (end == std::string_view::npos) return std::string(pattern.substr(begin));
  return std::string(pattern.substr(begin, end - begin + (group.parenthesized ? 1 : 0)));
}

std::string dimension_location(std::size_t dim, std::string_view group) {
  return " (input dim " + std::to_string(dim) + ", group " + std::string(group) + ")";
}

std::string dimension_length_location(std::size_t dim, std::string_view group, std::int64_t length) {
  return " (input dim " + std::to_string(dim) + ", group " + std::string(group) + ", length " + std::to_string(length) +
         ")";
}

std::string groups_location(std::string_view pattern, std::span<const Group> groups) {
  std::string out = " (groups: ";
  for (std::size_t i = 0; i < groups.size(); ++i) out += (i ? ", " : "") + group_text(pattern, groups[i]);
  return out + (groups.empty() ? "none)" : ")");
}

}  // namespace einops::detail
