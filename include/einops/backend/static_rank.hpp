// Literal patterns checked against an adapted type's static rank and the requested result rank,
// during compilation; the pattern argument type of the adapted operations.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "einops/backend/results.hpp"
#include "einops/fixed_string.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_arg.hpp"

namespace einops {

namespace detail {

// ---- literal patterns checked against static ranks -------------------------------------------

// A rank mismatch is reported like every other fault of a literal, by reaching
// invalid_pattern<Reason>() (pattern_arg.hpp) during constant evaluation; here the reason text is
// composed during compilation so that it names both ranks.
constexpr std::size_t decimal_digits(std::size_t value) {
  std::size_t digits = 1;
  for (; value >= 10; value /= 10) ++digits;
  return digits;
}
constexpr void append_text(char* out, std::size_t& at, std::string_view text) {
  for (char c : text) out[at++] = c;
}
constexpr void append_decimal(char* out, std::size_t& at, std::size_t value) {
  const std::size_t digits = decimal_digits(value);
  for (std::size_t i = digits; i-- > 0; value /= 10) out[at + i] = static_cast<char>('0' + value % 10);
  at += digits;
}
/// "<Before><First><Middle><Second><After>" as a fixed_string.
template <fixed_string Before, std::size_t First, fixed_string Middle, std::size_t Second, fixed_string After>
constexpr auto rank_reason() {
  constexpr std::size_t size =
      Before.size() + decimal_digits(First) + Middle.size() + decimal_digits(Second) + After.size() + 1;
  char text[size]{};
  std::size_t at = 0;
  append_text(text, at, Before.view());
  append_decimal(text, at, First);
  append_text(text, at, Middle.view());
  append_decimal(text, at, Second);
  append_text(text, at, After.view());
  return fixed_string<size>(text);
}

void pattern_rank_out_of_range();

// Turn a rank known during constant evaluation into a template argument of the reason (a wrong
// input rank: report_input_rank, pattern_arg.hpp).
using output_rank_values = std::make_index_sequence<2 * kMaxPatternAxes + 1>;
template <std::size_t RequestedRank, std::size_t... PatternRank>
constexpr void report_output_rank(std::size_t pattern_rank, std::index_sequence<PatternRank...>) {
  if (pattern_rank >= sizeof...(PatternRank)) pattern_rank_out_of_range();
  ((pattern_rank == PatternRank ? invalid_pattern<rank_reason<"The requested result rank is ", RequestedRank,
                                                              " but the pattern gives rank ", PatternRank, "">()>()
                                : void()),
   ...);
}

/// The static ranks' checks of a valid literal pattern.
template <std::size_t InputRank, std::size_t OutputRank>
constexpr void check_static_ranks([[maybe_unused]] const BasicArrowPattern<std::string_view>& pattern) {
  if constexpr (InputRank != dynamic_rank || OutputRank != dynamic_rank) {
    std::size_t produced = dynamic_rank;
    if constexpr (InputRank != dynamic_rank) {
      if (!accepts_input_rank(pattern, InputRank)) {
        report_input_rank<InputRank>(fixed_input_dims(pattern), pattern.left.has_ellipsis);
        return;
      }
      produced = output_rank(pattern, InputRank);
    } else if (!pattern.right.has_ellipsis) {
      produced = pattern.right.groups.size();
    }
    if constexpr (OutputRank != dynamic_rank)
      if (produced != dynamic_rank && produced != OutputRank)
        report_output_rank<OutputRank>(produced, output_rank_values{});
  }
}

/// The grammar of an operation on an adapted tensor: a literal is checked as for the built-in
/// tensor, and also against the input's static rank and the requested output rank.
template <Operation Op, std::size_t InputRank, std::size_t OutputRank>
struct ranked_arrow_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    // One parse for both: a fault of the pattern itself ends the evaluation in check_parse.
    const auto result = parse_arrow_pattern<detail::literal_name<Facts...>>(text);
    arrow_grammar<Op>::template check_parse<Facts...>(result);
    check_static_ranks<InputRank, OutputRank>(result.value);
  }
};
template <Operation Op, std::size_t InputRank, std::size_t OutputRank, class... Facts>
using ranked_pattern = pattern_arg<ranked_arrow_grammar<Op, InputRank, OutputRank>, Facts...>;

/// The pattern argument of an operation on X (a tensor with its own ops, TensorOps, finds its
/// recipe by the literal's address).
template <Operation Op, class X, std::size_t OutputRank, class... Facts>
using adapted_pattern =
    std::type_identity_t<pattern_arg<ranked_arrow_grammar<Op, adapted_input<X>::rank, OutputRank>, Facts...>>;

/// The output rank of the template pattern P for an input of `InputRank`: a constant when the
/// input rank is one, or when the right side has no ellipsis; dynamic_rank otherwise (and when
/// the input rank does not fit, which the pattern's check reports).
template <fixed_string P, std::size_t InputRank>
constexpr std::size_t template_pattern_output_rank() {
  const ParseResult<ArrowPattern> parsed = read_text<P>([](auto text) { return parse_arrow_pattern(text); });
  if (!parsed.ok()) return dynamic_rank;
  if (InputRank != dynamic_rank)
    return accepts_input_rank(parsed.value, InputRank) ? output_rank(parsed.value, InputRank) : dynamic_rank;
  return parsed.value.right.has_ellipsis ? dynamic_rank : parsed.value.right.groups.size();
}

}  // namespace detail

}  // namespace einops
