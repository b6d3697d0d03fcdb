// The pattern parameter of every operation: a string literal is parsed and checked during
// compilation (a consteval constructor, the technique fmt uses for format strings); a run-time
// string takes the cached run-time path.
//
//   einops::rearrange(x, "b c h w -> b h w c");            // checked by the compiler
//   einops::rearrange(x, std::string(text));               // checked at run time, parsed once
//   einops::rearrange(x, einops::runtime(c_string));        // a const char* must say so
//
// A malformed literal fails to compile with a diagnostic that names the reason, e.g.
//   error: call to non-'constexpr' function 'void einops::invalid_pattern() [with
//          einops::fixed_string<...> Reason = einops::fixed_string<26>{"Brackets are not balanced"}]'
// preceded by the call and the literal. Axis lengths written as `"h2"_ax = 2` are checked
// against the literal too; with a static-rank marker the input rank is checked as well.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "einops/fixed_string.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_checks.hpp"

// GCC 12 and Clang 15 evaluate the parser (which uses std::string) in constant expressions;
// older compilers check literals at run time instead.
#if defined(__clang__) && __clang_major__ < 15
#define EINOPS_LITERAL_CONSTEVAL
#define EINOPS_COMPILE_TIME_PATTERNS 0
#else
#define EINOPS_LITERAL_CONSTEVAL consteval
#define EINOPS_COMPILE_TIME_PATTERNS 1
#endif

namespace einops {

/// An explicitly run-time pattern (for a `const char*`, or to defer checks to run time).
struct runtime_pattern {
  std::string_view text;
};
inline runtime_pattern runtime(std::string_view text) { return {text}; }

/// An axis length whose name the compiler sees: `"h2"_ax = 2` (using namespace einops::literals).
template <fixed_string Name>
struct axis_length {
  std::int64_t length;
  static constexpr std::string_view name() { return Name.view(); }
};
template <fixed_string Name>
struct axis_name {
  constexpr axis_length<Name> operator=(std::int64_t length) const { return {length}; }  // NOLINT
};
namespace literals {
template <fixed_string Name>
constexpr axis_name<Name> operator""_ax() {
  return {};
}
}  // namespace literals

/// Facts about a call that a literal pattern is checked against, as template arguments of the
/// pattern type. given_lengths: the axis lengths the call gives by name (`"h2"_ax = 2`), and that
/// it gives no others, so the pattern must determine every other axis (given_lengths<> for a call
/// that gives none). static_rank: the input's rank is a compile-time constant.
template <fixed_string... Names>
struct given_lengths {};
using no_axis_lengths = given_lengths<>;
template <std::size_t Rank>
struct static_rank {};
/// The axis along which an affine map's scale and offset vary (`einops::affine<"c">`, convert.hpp):
/// it must be an axis of the pattern's output. affine_axis<""> (one scale, one offset) checks nothing.
template <fixed_string Name>
struct affine_axis {};

/// What the library core needs of a pattern argument: its text, and whether it is a literal. A
/// literal's parse is not carried into the call: the run time parses each distinct text once (on
/// its first plan) and caches it, while a parsed form carried by value would be stored at every
/// call site, which costs the compiler more per literal than the whole check.
struct PatternRef {
  std::string_view text;
  bool literal = false;  // a literal: `text` has static storage, so its address identifies it

  PatternRef(std::string_view pattern_text, bool is_literal = false)  // NOLINT(google-explicit-constructor)
      : text(pattern_text), literal(is_literal) {}
  PatternRef(const std::string& pattern_text) : text(pattern_text) {}  // NOLINT(google-explicit-constructor)
  template <std::size_t N>
  PatternRef(const char (&pattern_text)[N]) : text(pattern_text, N - 1) {}  // NOLINT(google-explicit-constructor)
};

/// Reaching this in constant evaluation is the compile error; `Reason` names the fault.
template <fixed_string Reason>
void invalid_pattern();

namespace detail {

/// The reason of `Kind` as a template argument (a variable template: instantiated once per kind,
/// with no call to evaluate).
template <PatternErrorKind Kind>
inline constexpr auto kReasonLiteral =
    fixed_string_of<std::string_view(reason_text(Kind)).size() + 1>(reason_text(Kind));

/// Always `T`, but named through the call's facts: what is written with it is dependent, so the
/// literal's parser, its checks and the dispatch over every fault below are instantiated by a
/// translation unit that checks a literal, not by every one that includes this header (Clang
/// instantiates a constexpr function template as soon as a template names it non-dependently).
template <class T, class... Facts>
struct lazy_type {
  using type = T;
};
/// The name type of a literal's parse (its names view the literal's text), through the facts.
template <class... Facts>
using literal_name = typename lazy_type<std::string_view, Facts...>::type;

/// The faults a grammar can report: the kinds from First to Last. A translation unit instantiates
/// one compile error per kind of the range, so a grammar names the least range that holds its
/// faults.
template <PatternErrorKind First, PatternErrorKind Last>
struct fault_range {
  static constexpr std::size_t first = static_cast<std::size_t>(First);
  static constexpr std::size_t count = static_cast<std::size_t>(Last) - first + 1;
  static constexpr bool contains(PatternErrorKind kind) { return kind >= First && kind <= Last; }
};
/// An arrow pattern's parse (arrow_count ... too_many_axes), the operation's rules and the given
/// lengths' names (ellipsis_right_only ... duplicate_length_name).
using arrow_faults = fault_range<PatternErrorKind::arrow_count, PatternErrorKind::duplicate_length_name>;
using any_fault = fault_range<PatternErrorKind::arrow_count, PatternErrorKind::einsum_too_many_operands>;

/// Calls invalid_pattern<"reason of kind">() for `kind` (First + one of Index): the reason text
/// comes from the one table the run-time messages use.
template <class Lazy, std::size_t First, std::size_t... Index>
constexpr void report_pattern_kind(PatternErrorKind kind, std::index_sequence<Index...>) {
  ((kind == static_cast<PatternErrorKind>(First + Index)
        ? invalid_pattern<kReasonLiteral<static_cast<PatternErrorKind>(First + Index)>>()
        : void()),
   ...);
}
/// One more frame whose argument is the reason: Clang's diagnostics abbreviate a long string
/// template argument (invalid_pattern's) but print a call's string argument whole, in the note
/// "in call to 'pattern_is_invalid<void, ...>(..., &"reason"[0])'". A kind outside `Faults` is a
/// compile error too, without its reason in GCC's words.
template <class Lazy, class Faults>
constexpr void pattern_is_invalid(PatternErrorKind kind, [[maybe_unused]] const char* reason) {
  if (!Faults::contains(kind)) invalid_pattern<"Pattern is invalid">();
  report_pattern_kind<Lazy, Faults::first>(kind, std::make_index_sequence<Faults::count>{});
}
/// The compile error of a literal's fault `kind`, one of `Faults`; called as
/// report_pattern_error<Faults, Facts...>(kind).
template <class Faults, class... Facts>
constexpr void report_pattern_error(PatternErrorKind kind) {
  pattern_is_invalid<typename lazy_type<void, Facts...>::type, Faults>(kind, reason_text(kind));
}

inline constexpr std::size_t kNoStaticRank = static_cast<std::size_t>(-1);

/// The run-time sentence for a wrong rank (wrong_rank_format), filled during compilation.
template <std::size_t Expected, bool AtLeast, std::size_t Rank>
constexpr auto wrong_rank_literal() {
  constexpr FilledReason reason = wrong_rank_reason_text(Expected, AtLeast, Rank);
  char text[reason.size + 1]{};
  for (std::size_t i = 0; i < reason.size; ++i) text[i] = reason.text[i];
  return fixed_string<reason.size + 1>(text);
}
/// Turns `expected` (at most kMaxPatternAxes: a side has no more groups) into a template argument.
template <bool AtLeast, std::size_t Rank, std::size_t... Expected>
constexpr void report_wrong_rank(std::size_t expected, std::index_sequence<Expected...>) {
  ((expected == Expected ? invalid_pattern<wrong_rank_literal<Expected, AtLeast, Rank>()>() : void()), ...);
}
/// One more frame whose arguments are the sentence's format and its values: Clang abbreviates the
/// filled sentence in invalid_pattern's template argument, but quotes a literal argument whole.
template <bool AtLeast, std::size_t Rank>
constexpr void input_rank_is_wrong([[maybe_unused]] const char* sentence, std::size_t expected,
                                   [[maybe_unused]] std::size_t rank) {
  report_wrong_rank<AtLeast, Rank>(expected, std::make_index_sequence<kMaxPatternAxes + 1>{});
}
/// The compile error of a side of `expected` dimensions besides the ellipsis (`at_least`: it has
/// one) that a tensor of the static `Rank` does not fit: the sentence the run time would give.
template <std::size_t Rank>
constexpr void report_input_rank(std::size_t expected, bool at_least) {
  if (at_least) input_rank_is_wrong<true, Rank>(wrong_rank_format(true), expected, Rank);
  else input_rank_is_wrong<false, Rank>(wrong_rank_format(false), expected, Rank);
}

/// The one text of the fault an affine_axis fact finds, at compile time and at run time. A pointer
/// to the literal, so that Clang quotes it whole in affine_axis_is_invalid's call frame.
inline constexpr const char* kAffineAxisReasonText = "The axis of the affine map is not an axis of the output";
inline constexpr auto kAffineAxisReason =
    fixed_string_of<std::string_view(kAffineAxisReasonText).size() + 1>(kAffineAxisReasonText);
/// The compile error of an affine axis the output lacks; `reason` is there for Clang's notes, as
/// in pattern_is_invalid (never null: the test only keeps the function a valid constexpr one).
constexpr void affine_axis_is_invalid(const char* reason) {
  if (reason != nullptr) invalid_pattern<kAffineAxisReason>();
}

template <class Fact>
struct fact_traits {
  static constexpr bool gives_lengths = false;
  static constexpr std::size_t rank = kNoStaticRank;
  static constexpr std::string_view affine_axis = {};
};
template <fixed_string Name>
struct fact_traits<affine_axis<Name>> {
  static constexpr bool gives_lengths = false;
  static constexpr std::size_t rank = kNoStaticRank;
  static constexpr std::string_view affine_axis = Name.view();
};
template <fixed_string... Names>
struct fact_traits<given_lengths<Names...>> {
  static constexpr bool gives_lengths = true;
  static constexpr std::string_view names[sizeof...(Names) + 1] = {Names.view()..., {}};
  static constexpr std::size_t count = sizeof...(Names);
  static constexpr std::size_t rank = kNoStaticRank;
  static constexpr std::string_view affine_axis = {};
};
template <std::size_t Rank>
struct fact_traits<static_rank<Rank>> {
  static constexpr bool gives_lengths = false;
  static constexpr std::size_t rank = Rank;
  static constexpr std::string_view affine_axis = {};
};

/// The check of a literal arrow pattern for `operation` that depends on one fact of the call (a
/// static rank the left side does not accept is reported here, naming both).
template <class Fact, class Name>
constexpr PatternError check_fact(const BasicArrowPattern<Name>& pattern, Operation operation) {
  using traits = fact_traits<Fact>;
  if constexpr (traits::gives_lengths)
    return check_length_names(pattern, operation, {traits::names, traits::count}, true);
  if constexpr (traits::rank != kNoStaticRank)
    if (!accepts_input_rank(pattern, traits::rank))
      report_input_rank<traits::rank>(fixed_input_dims(pattern), pattern.left.has_ellipsis);
  return {};
}
/// The check of a literal check_shape pattern that depends on one fact of the call.
template <class Fact, class Name>
constexpr PatternError check_shape_fact(const BasicExpression<Name>& expression) {
  using traits = fact_traits<Fact>;
  if constexpr (traits::gives_lengths) return check_shape_length_names(expression, {traits::names, traits::count});
  if constexpr (traits::rank != kNoStaticRank)
    if (!accepts_rank(expression, traits::rank))
      report_input_rank<traits::rank>(fixed_dims(expression), expression.has_ellipsis);
  return {};
}
template <class... Facts, class Name>
constexpr PatternError check_shape_facts([[maybe_unused]] const BasicExpression<Name>& expression) {
  PatternError error;
  ((error ? void() : void(error = check_shape_fact<Facts>(expression))), ...);
  return error;
}

/// Reports an affine axis that the output of `pattern` lacks (a compile error for a literal).
template <class... Facts, class Name>
constexpr void check_affine_facts([[maybe_unused]] const BasicArrowPattern<Name>& pattern) {
  ((fact_traits<Facts>::affine_axis.empty() || pattern.right.contains(fact_traits<Facts>::affine_axis)
        ? void()
        : affine_axis_is_invalid(kAffineAxisReasonText)),
   ...);
}

template <class... Facts, class Name>
constexpr PatternError check_facts([[maybe_unused]] const BasicArrowPattern<Name>& pattern,
                                   [[maybe_unused]] Operation operation) {
  PatternError error;
  ((error ? void() : void(error = check_fact<Facts>(pattern, operation))), ...);
  return error;
}

}  // namespace detail

/// The pattern argument of every operation. `Grammar` parses and checks a literal during
/// compilation (its `check_literal`); `Facts` are what the call tells the check. Operations take it by const
/// reference: GCC materialises a consteval constructor's result and then copies it into a
/// by-value parameter (with store-forwarding stalls), which cost a tiny call a third of its time.
template <class Grammar, class... Facts>
class pattern_arg {
 public:
  /// A literal: parsed and checked now, by the compiler.
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL pattern_arg(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1), literal_(true) {
#if EINOPS_COMPILE_TIME_PATTERNS
    // Parsed from a local copy: the literal may be a template parameter object (`f<"...">()`),
    // whose address GCC 12 cannot constant-fold under -fsanitize=undefined (see read_text).
    const fixed_string<N> copy(literal);
    Grammar::template check_literal<Facts...>(copy.view());
#endif
  }
  pattern_arg(std::string_view text) : text_(text) {}            // NOLINT(google-explicit-constructor)
  pattern_arg(const std::string& text) : text_(text) {}          // NOLINT(google-explicit-constructor)
  pattern_arg(runtime_pattern pattern) : text_(pattern.text) {}  // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  operator std::string_view() const { return text_; }  // NOLINT(google-explicit-constructor)
  /// True for a literal: its text has static storage, so its address identifies it.
  bool is_literal() const { return literal_; }
  PatternRef ref() const { return {text_, literal_}; }

 private:
  std::string_view text_;
  bool literal_ = false;
};

/// rearrange, reduce and repeat (`"b c h w -> b h w c"`): a literal is checked against the call's
/// facts too.
template <Operation Op>
struct arrow_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    check_parse<Facts...>(parse_arrow_pattern<detail::literal_name<Facts...>>(text));
  }
  /// check_literal's checks of the literal's parse (for grammars that check more on the same parse).
  template <class... Facts>
  static constexpr void check_parse(const ParseResult<BasicArrowPattern<detail::literal_name<Facts...>>>& result) {
    if (!result.ok()) detail::report_pattern_error<detail::arrow_faults, Facts...>(result.error.kind);
    if (const PatternError error = check_arrow_pattern(result.value, Op))
      detail::report_pattern_error<detail::arrow_faults, Facts...>(error.kind);
    if (const PatternError error = detail::check_facts<Facts...>(result.value, Op))
      detail::report_pattern_error<detail::arrow_faults, Facts...>(error.kind);
    detail::check_affine_facts<Facts...>(result.value);
  }
};

/// pack and unpack (`"b * c"`).
struct pack_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    const auto result = parse_pack_pattern<detail::literal_name<Facts...>>(text);
    if (!result.ok()) detail::report_pattern_error<detail::any_fault, Facts...>(result.error.kind);
  }
};

/// parse_shape (`"b _ h w"`).
struct shape_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    const auto result = parse_expression<detail::literal_name<Facts...>>(text, 0, ExpressionOptions{true, false});
    if (!result.ok()) detail::report_pattern_error<detail::any_fault, Facts...>(result.error.kind);
    if (const PatternError error = check_parse_shape_pattern(result.value))
      detail::report_pattern_error<detail::any_fault, Facts...>(error.kind);
  }
};

/// check_shape (`"b t (h p) 3"`): one side of a pattern, with `_`; a literal is also checked
/// against the lengths the call names (`"t"_ax = 5`) and a static input rank.
struct check_shape_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    const auto result = parse_expression<detail::literal_name<Facts...>>(text, 0, ExpressionOptions{true, false});
    if (!result.ok()) detail::report_pattern_error<detail::any_fault, Facts...>(result.error.kind);
    if (const PatternError error = check_shape_expression(result.value))
      detail::report_pattern_error<detail::any_fault, Facts...>(error.kind);
    if (const PatternError error = detail::check_shape_facts<Facts...>(result.value))
      detail::report_pattern_error<detail::any_fault, Facts...>(error.kind);
  }
};

/// einsum (`"b i k, b k j -> b i j"`), including the number of operands the call passes
/// (`Operands`; 0 when unknown).
template <std::size_t Operands>
struct einsum_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    const auto result = parse_einsum_pattern<detail::literal_name<Facts...>>(text);
    if (!result.ok()) detail::report_pattern_error<detail::any_fault, Facts...>(result.error.kind);
    if (const PatternError error = check_einsum_pattern(result.value))
      detail::report_pattern_error<detail::any_fault, Facts...>(error.kind);
    if (Operands != 0 && result.value.inputs.size() != Operands)
      invalid_pattern<"The number of operands in the pattern differs from the number of tensors given">();
  }
};

template <Operation Op, class... Facts>
using arrow_pattern = pattern_arg<arrow_grammar<Op>, Facts...>;
template <class... Facts>
using rearrange_pattern = arrow_pattern<Operation::rearrange, Facts...>;
template <class... Facts>
using reduce_pattern = arrow_pattern<Operation::reduce, Facts...>;
template <class... Facts>
using repeat_pattern = arrow_pattern<Operation::repeat, Facts...>;
using pack_pattern = pattern_arg<pack_grammar>;
using shape_pattern = pattern_arg<shape_grammar>;
template <class... Facts>
using check_shape_pattern = pattern_arg<check_shape_grammar, Facts...>;
template <std::size_t Operands = 0>
using einsum_pattern = pattern_arg<einsum_grammar<Operands>>;

/// A pattern fixed at compile time as a template argument, for adapters whose tensor types carry
/// their rank (Eigen, xtensor): the output rank is a constant expression.
template <fixed_string Text>
struct static_pattern {
  static constexpr std::string_view text = Text.view();
  static constexpr ParseResult<ArrowPattern> parsed() {
    // A generic lambda: the parser is instantiated with the pattern, not with this header.
    return read_text<Text>([](auto pattern) { return parse_arrow_pattern(pattern); });
  }
  static constexpr bool valid = parsed().ok();
  static_assert(valid, "einops: the pattern does not parse (use it as an ordinary literal argument to see why)");

  static constexpr std::size_t fixed_input_dims() { return einops::fixed_input_dims(parsed().value); }
  static constexpr bool has_ellipsis() { return parsed().value.left.has_ellipsis; }
  static constexpr bool accepts_input_rank(std::size_t rank) {
    return einops::accepts_input_rank(parsed().value, rank);
  }
  /// The output rank for an input of `input_rank` dimensions; a wrong input rank does not compile,
  /// naming both ranks in the run time's sentence.
  template <std::size_t InputRank>
  static constexpr std::size_t output_rank() {
    [[maybe_unused]] constexpr bool checked = input_rank_checked<InputRank>();
    return einops::output_rank(parsed().value, InputRank);
  }

 private:
  template <std::size_t InputRank>
  static constexpr bool input_rank_checked() {
    if (!accepts_input_rank(InputRank)) detail::report_input_rank<InputRank>(fixed_input_dims(), has_ellipsis());
    return true;
  }
};

namespace literals {
/// `"b c h w -> b h w c"_pattern`: a static_pattern value.
template <fixed_string Text>
constexpr static_pattern<Text> operator""_pattern() {
  return {};
}
}  // namespace literals

}  // namespace einops
