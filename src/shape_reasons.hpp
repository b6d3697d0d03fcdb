// einops' sentences about lengths and ranks, written once, and where in the pattern a check
// failed. Every shape error keeps einops' sentence first and unchanged (people search for it),
// then says where: " (input dim 2, group (h p))".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/pattern.hpp"

namespace einops::detail {

/// "Shape mismatch, 21 != 20": a dimension of `length` where the pattern fixes `expected`.
std::string length_mismatch_reason(std::int64_t length, std::int64_t expected);

/// "Shape mismatch, can't divide axis of length 7 in chunks of 2": the known part of a group
/// does not divide its dimension (" (division by zero)" is added for chunks of 0).
std::string indivisible_reason(std::int64_t length, std::int64_t chunk);

/// "Wrong shape: expected 4 dims. Received 3-dim tensor.": `fixed` dimensions besides the ellipsis
/// (">=4" when the pattern has one), `rank` in the tensor (wrong_rank_format, pattern_error.hpp).
std::string wrong_rank_reason(std::size_t fixed, bool has_ellipsis, std::size_t rank);

/// "The input has 65 dimensions, more than the limit of 64": `subject` ("The input has", "The output
/// would have") names a tensor of `rank` dimensions, more than kMaxRank.
std::string rank_limit_reason(std::string_view subject, std::size_t rank);

/// "Could not infer sizes for {'h', 'w'}": a group with more than one unknown axis.
std::string uninferable_reason(const std::vector<std::string>& names);

/// A Python set of axes as einops prints it: "{'h', 'w', 3-axis}" (an anonymous axis, named
/// "3-axis" by the caller, is not quoted).
std::string python_set(const std::vector<std::string>& names);

/// The group as the pattern writes it: "(h p)", "h", "()", "1", "3", "...". `pattern` is the
/// whole text the group was parsed from (its position indexes it).
std::string group_text(std::string_view pattern, const Group& group);

/// " (input dim 2, group (h p))": appended to a sentence about one input dimension.
std::string dimension_location(std::size_t dim, std::string_view group);

/// " (input dim 3, group (), length 4)": the same with the dimension's length, for a sentence
/// that does not name it (parse_shape's).
std::string dimension_length_location(std::size_t dim, std::string_view group, std::int64_t length);

/// " (groups: b, c, (h p), w)": appended to a sentence about the rank, naming what the pattern expects.
std::string groups_location(std::string_view pattern, std::span<const Group> groups);

}  // namespace einops::detail
