// The checks of error messages against the corpus' einops_detail (reasons.hpp). The groups of a
// pattern are read here independently of the library's parser: a group is a bracketed run or a
// token between spaces.
#include "reasons.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace conformance {
namespace {

constexpr std::string_view kShapeMismatch = "Shape mismatch, ";
constexpr std::string_view kWrongShape = "Wrong shape: ";
constexpr std::string_view kPackLengths = "all the input array dimensions except for the concatenation axis";
constexpr std::string_view kPackRank = "packed tensor #";
constexpr std::string_view kUnpackSplit = "could not split axis of size ";
constexpr std::string_view kParseRank = "Can't parse shape with different number of dimensions";
constexpr std::string_view kParseEllipsisRank = "Can't parse shape with this number of dimensions";
constexpr std::string_view kParseUnit = "Length of axis is not 1: ";
constexpr std::string_view kParseAnonymous = "Length of anonymous axis does not match: ";

/// The top-level groups of one side of a pattern, as written: "b", "(h p)", "...".
std::vector<std::string> groups_of(std::string_view side) {
  std::vector<std::string> groups;
  std::size_t at = 0;
  while (at < side.size()) {
    if (side[at] == ' ') {
      ++at;
      continue;
    }
    std::size_t end = side[at] == '(' ? side.find(')', at) : side.find_first_of(" ()", at);
    if (end == std::string_view::npos) end = side.size();
    else if (side[at] == '(') ++end;
    if (end == at) end = at + 1;  // a stray ')': the pattern is malformed, and no case here has one
    groups.emplace_back(side.substr(at, end - at));
    at = end;
  }
  return groups;
}

/// The input's shape as the operation sees it: a list input is stacked on a new first axis.
einops::Shape input_shape(const Case& c) {
  const std::vector<einops::Shape> shapes = c.shapes();
  einops::Shape shape;
  if (c.list_input()) shape.push_back(static_cast<std::int64_t>(shapes.size()));
  if (!shapes.empty()) shape.insert(shape.end(), shapes.front().begin(), shapes.front().end());
  return shape;
}

/// The group of each input dimension, the ellipsis standing for as many as the shape leaves it.
std::vector<std::string> groups_per_dimension(const std::vector<std::string>& groups, std::size_t rank) {
  std::vector<std::string> per_dim;
  for (const std::string& group : groups) {
    if (group != "...") {
      per_dim.push_back(group);
      continue;
    }
    for (std::size_t i = 0; i + groups.size() - 1 < rank; ++i) per_dim.push_back(group);
  }
  return per_dim;
}

std::string text_after(std::string_view message, std::string_view sentence) {
  const std::size_t at = message.find(sentence);
  if (at == std::string_view::npos) return {};
  const std::size_t begin = at + sentence.size();
  const std::size_t end = message.find('\n', begin);
  return std::string(message.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

/// "Shape mismatch, ..." of rearrange/reduce/repeat: the sentence, then " (input dim D, group G)",
/// G being the left side's group of dimension D, whose length the sentence names first.
std::string check_dimension_fault(const Case& c, std::string_view message, const std::string& detail) {
  if (message.find(detail) == std::string_view::npos) return "einops' sentence '" + detail + "' is missing";
  const std::string suffix = text_after(message, detail);
  const std::string_view prefix = " (input dim ";
  if (!suffix.starts_with(prefix) || !suffix.ends_with(")"))
    return "no location after '" + detail + "': '" + suffix + "'";
  const std::size_t comma = suffix.find(", group ");
  if (comma == std::string::npos) return "no group in '" + suffix + "'";
  const std::string digits = suffix.substr(prefix.size(), comma - prefix.size());
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 4)
    return "no input dimension in '" + suffix + "'";
  const std::size_t dim = static_cast<std::size_t>(std::stoi(digits));
  const std::string group = suffix.substr(comma + 8, suffix.size() - comma - 9);
  const einops::Shape shape = input_shape(c);
  const std::vector<std::string> groups =
      groups_per_dimension(groups_of(std::string_view(c.pattern).substr(0, c.pattern.find("->"))), shape.size());
  if (dim >= groups.size() || dim >= shape.size()) return "input dim " + std::to_string(dim) + " is out of range";
  if (groups[dim] != group) return "input dim " + std::to_string(dim) + " is group " + groups[dim] + ", not " + group;
  // Both of einops' sentences name the dimension's length first.
  const std::string length = std::to_string(shape[dim]);
  const std::string rest = detail.substr(kShapeMismatch.size());
  const bool names_length = rest.starts_with(length + " ") || rest.find("length " + length + " ") != std::string::npos;
  if (!names_length)
    return "input dim " + std::to_string(dim) + " has length " + length + ", the sentence says otherwise";
  return {};
}

/// "Wrong shape: ..." of rearrange/reduce/repeat, "Can't parse shape with ... dimensions" of
/// parse_shape: the sentence, then the groups of the (left side of the) pattern.
std::string check_rank_fault(const Case& c, std::string_view message, const std::string& detail) {
  if (message.find(detail) == std::string_view::npos) return "einops' sentence '" + detail + "' is missing";
  std::string want = " (groups: ";
  const std::vector<std::string> groups = groups_of(std::string_view(c.pattern).substr(0, c.pattern.find("->")));
  for (std::size_t i = 0; i < groups.size(); ++i) want += (i ? ", " : "") + groups[i];
  want += groups.empty() ? "none)" : ")";
  const std::string suffix = text_after(message, detail);
  if (suffix != want) return "after '" + detail + "': '" + suffix + "', expected '" + want + "'";
  return {};
}

/// The number a group such as "5", "(5)" or "( 05 )" fixes, or -1 for any other group; "()" is 1.
std::int64_t fixed_length(const std::string& group) {
  std::string digits;
  for (char ch : group)
    if (ch != '(' && ch != ')' && ch != ' ') digits += ch;
  if (digits.empty()) return group == "()" ? 1 : -1;
  if (digits.size() > 12 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoll(digits);
}

/// parse_shape's "Length of axis is not 1: P S" and "Length of anonymous axis does not match: P S":
/// the sentence, then " (input dim D, group G, length L)" naming a dimension whose group fixes a
/// length other than L.
std::string check_parse_shape_fault(const Case& c, std::string_view message, const std::string& detail) {
  if (message.find(detail) == std::string_view::npos) return "einops' sentence '" + detail + "' is missing";
  const std::string suffix = text_after(message, detail);
  const einops::Shape shape = input_shape(c);
  const std::vector<std::string> groups = groups_per_dimension(groups_of(c.pattern), shape.size());
  for (std::size_t dim = 0; dim < groups.size() && dim < shape.size(); ++dim) {
    const std::string want = " (input dim " + std::to_string(dim) + ", group " + groups[dim] + ", length " +
                             std::to_string(shape[dim]) + ")";
    if (suffix != want) continue;
    const std::int64_t fixed = fixed_length(groups[dim]);
    if (fixed < 0 || fixed == shape[dim] || (fixed == 1) != detail.starts_with(kParseUnit))
      return "input dim " + std::to_string(dim) + " (group " + groups[dim] + ") is not what '" + detail + "' is about";
    return {};
  }
  return "no location of a failing dimension after '" + detail + "': '" + suffix + "'";
}

/// unpack's "could not split axis of size N ...": that much of einops' sentence (it prints the
/// packed shapes as Python lists), then the '*' position as the input dimension.
std::string check_split_fault(const Case& c, std::string_view message, const std::string& detail) {
  const std::size_t at = detail.find(kUnpackSplit);
  const std::size_t end = detail.find(" into requested", at);
  const std::string sentence = detail.substr(at, end - at);
  if (message.find(sentence) == std::string_view::npos) return "einops' sentence '" + sentence + "' is missing";
  const std::vector<std::string> groups = groups_of(c.pattern);
  std::size_t star = 0;
  while (star < groups.size() && groups[star] != "*") ++star;
  const std::string location = " (input dim " + std::to_string(star) + ", group *)";
  if (message.find(location) == std::string_view::npos) return "location '" + location + "' is missing";
  return {};
}

bool is_reshape_op(const Case& c) { return c.op == "rearrange" || c.op == "reduce" || c.op == "repeat"; }

}  // namespace

bool error_reason_checked(const Case& c) {
  if (!c.expects_error()) return false;
  const std::string detail = c.expect().value("einops_detail", "");
  if (is_reshape_op(c)) return detail.starts_with(kShapeMismatch) || detail.starts_with(kWrongShape);
  if (c.op == "pack") return detail.starts_with(kPackLengths) || detail.starts_with(kPackRank);
  if (c.op == "unpack") return detail.find(kUnpackSplit) != std::string::npos;
  if (c.op == "parse_shape")
    return detail.starts_with(kParseRank) || detail.starts_with(kParseEllipsisRank) || detail.starts_with(kParseUnit) ||
           detail.starts_with(kParseAnonymous);
  return false;
}

std::string check_error_reason(const Case& c, std::string_view message) {
  if (!error_reason_checked(c)) return {};
  const std::string detail = c.expect().value("einops_detail", "");
  std::string why;
  if (detail.starts_with(kShapeMismatch)) why = check_dimension_fault(c, message, detail);
  else if (detail.starts_with(kWrongShape) || detail.starts_with(kParseRank) || detail.starts_with(kParseEllipsisRank))
    why = check_rank_fault(c, message, detail);
  else if (c.op == "parse_shape") why = check_parse_shape_fault(c, message, detail);
  else if (c.op == "unpack") why = check_split_fault(c, message, detail);
  else if (message.find(detail) == std::string_view::npos) why = "einops' sentence '" + detail + "' is missing";
  return why.empty() ? why : "error reason: " + why;
}

}  // namespace conformance
