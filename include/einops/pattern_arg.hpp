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

#include "einops/detail/compact_pattern.hpp"
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
/// pattern type: the call gives no axis lengths at all, or the input has a static rank.
struct no_axis_lengths {};
template <std::size_t Rank>
struct static_rank {};

/// What the library core needs of a pattern argument: its text and, for a checked literal, the
/// parsed form (so the run time never parses it).
struct PatternRef {
  std::string_view text;
  const detail::CompactPattern* compact = nullptr;

  PatternRef(std::string_view pattern_text, const detail::CompactPattern* parsed = nullptr)  // NOLINT
      : text(pattern_text), compact(parsed) {}
  PatternRef(const std::string& pattern_text) : text(pattern_text) {}  // NOLINT(google-explicit-constructor)
  template <std::size_t N>
  PatternRef(const char (&pattern_text)[N]) : text(pattern_text, N - 1) {}  // NOLINT(google-explicit-constructor)
};

/// Reaching this in constant evaluation is the compile error; `Reason` names the fault.
template <fixed_string Reason>
void invalid_pattern();

namespace detail {

template <PatternErrorKind Kind>
constexpr std::size_t reason_size() {
  return std::string_view(reason_text(Kind)).size() + 1;
}
template <PatternErrorKind Kind>
constexpr fixed_string<reason_size<Kind>()> reason_literal() {
  char text[reason_size<Kind>()]{};
  const std::string_view reason = reason_text(Kind);
  for (std::size_t i = 0; i < reason.size(); ++i) text[i] = reason[i];
  return fixed_string<reason_size<Kind>()>(text);
}

/// Calls invalid_pattern<"reason of kind">() for the kind of `error`: the reason text comes from
/// the one table the run-time messages use.
template <std::size_t... Index>
constexpr void report_pattern_error(PatternErrorKind kind, std::index_sequence<Index...>) {
  ((kind == static_cast<PatternErrorKind>(Index)
        ? invalid_pattern<reason_literal<static_cast<PatternErrorKind>(Index)>()>()
        : void()),
   ...);
}
/// One more frame whose argument is the reason: Clang's diagnostics abbreviate a long string
/// template argument (invalid_pattern's) but print a call's string argument whole, in the note
/// "in call to 'pattern_is_invalid(..., &"reason"[0])'".
constexpr void pattern_is_invalid(PatternErrorKind kind, [[maybe_unused]] const char* reason) {
  report_pattern_error(kind, std::make_index_sequence<static_cast<std::size_t>(PatternErrorKind::einsum_too_many_operands) + 1>{});
}
constexpr void report_pattern_error(PatternErrorKind kind) { pattern_is_invalid(kind, reason_text(kind)); }

template <class Fact>
struct fact_traits {
  static constexpr bool is_length = false;
  static constexpr bool no_lengths = false;
  static constexpr std::size_t rank = static_cast<std::size_t>(-1);
};
template <fixed_string Name>
struct fact_traits<axis_length<Name>> {
  static constexpr bool is_length = true;
  static constexpr bool no_lengths = false;
  static constexpr std::size_t rank = static_cast<std::size_t>(-1);
};
template <>
struct fact_traits<no_axis_lengths> {
  static constexpr bool is_length = false;
  static constexpr bool no_lengths = true;
  static constexpr std::size_t rank = static_cast<std::size_t>(-1);
};
template <std::size_t Rank>
struct fact_traits<static_rank<Rank>> {
  static constexpr bool is_length = false;
  static constexpr bool no_lengths = false;
  static constexpr std::size_t rank = Rank;
};

template <class Fact>
constexpr std::string_view fact_name() {
  if constexpr (fact_traits<Fact>::is_length) return Fact::name();
  else return {};
}

/// All compile-time checks of a literal for `operation` given the call's facts.
template <class... Facts>
constexpr PatternError check_literal(const ArrowPattern& pattern, Operation operation) {
  if (PatternError error = check_arrow_pattern(pattern, operation)) return error;
  constexpr std::size_t length_count = (std::size_t{0} + ... + (fact_traits<Facts>::is_length ? 1 : 0));
  constexpr bool complete = length_count > 0 || (false || ... || fact_traits<Facts>::no_lengths);
  if (length_count > 0 || complete) {
    std::string_view names[length_count + 1]{};
    std::size_t filled = 0;
    ((fact_traits<Facts>::is_length ? void(names[filled++] = fact_name<Facts>()) : void()), ...);
    if (PatternError error = check_length_names(pattern, operation, {names, length_count}, complete)) return error;
  }
  std::size_t rank = static_cast<std::size_t>(-1);
  ((rank = fact_traits<Facts>::rank != static_cast<std::size_t>(-1) ? fact_traits<Facts>::rank : rank), ...);
  if (rank != static_cast<std::size_t>(-1) && !accepts_input_rank(pattern, rank))
    return PatternError{PatternErrorKind::input_rank_mismatch, reason_text(PatternErrorKind::input_rank_mismatch), 0, 0};
  return {};
}

}  // namespace detail

/// The pattern argument of rearrange, reduce and repeat. Operations take it by const reference:
/// GCC materialises a consteval constructor's result and then copies it into a by-value
/// parameter (with store-forwarding stalls), which cost a tiny call a third of its time.
template <Operation Op, class... Facts>
class arrow_pattern {
 public:
  /// A literal: parsed and checked now, by the compiler.
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL arrow_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1) {
#if EINOPS_COMPILE_TIME_PATTERNS
    // Parsed from a local copy: the literal may be a template parameter object (`f<"...">()`),
    // whose address GCC 12 cannot constant-fold under -fsanitize=undefined (see read_text).
    const fixed_string<N> copy(literal);
    const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(copy.view());
    if (!parsed.ok()) detail::report_pattern_error(parsed.error.kind);
    if (const PatternError error = detail::check_literal<Facts...>(parsed.value, Op))
      detail::report_pattern_error(error.kind);
    compact_.record(parsed.value);
#endif
  }
  arrow_pattern(std::string_view text) : text_(text) {}         // NOLINT(google-explicit-constructor)
  arrow_pattern(const std::string& text) : text_(text) {}       // NOLINT(google-explicit-constructor)
  arrow_pattern(runtime_pattern pattern) : text_(pattern.text) {}  // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  /// True for a literal whose parsed form travels with it.
  bool is_compiled() const { return compact_.fits(); }
  PatternRef ref() const { return {text_, compact_.fits() ? &compact_ : nullptr}; }

 private:
  std::string_view text_;
  detail::CompactPattern compact_;  // default-initialised: see CompactPattern::tokens_
};

/// The pattern argument of pack and unpack (`"b * c"`): a literal is checked by the compiler.
class pack_pattern {
 public:
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL pack_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1) {
#if EINOPS_COMPILE_TIME_PATTERNS
    const fixed_string<N> copy(literal);  // see arrow_pattern's literal constructor
    const ParseResult<PackPattern> parsed = parse_pack_pattern(copy.view());
    if (!parsed.ok()) detail::report_pattern_error(parsed.error.kind);
#endif
  }
  pack_pattern(std::string_view text) : text_(text) {}           // NOLINT(google-explicit-constructor)
  pack_pattern(const std::string& text) : text_(text) {}         // NOLINT(google-explicit-constructor)
  pack_pattern(runtime_pattern pattern) : text_(pattern.text) {}  // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  operator std::string_view() const { return text_; }  // NOLINT(google-explicit-constructor)

 private:
  std::string_view text_;
};

/// The pattern argument of parse_shape (`"b _ h w"`): a literal is checked by the compiler.
class shape_pattern {
 public:
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL shape_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1) {
#if EINOPS_COMPILE_TIME_PATTERNS
    const fixed_string<N> copy(literal);
    const ParseResult<Expression> parsed = parse_expression(copy.view(), 0, ExpressionOptions{true, false});
    if (!parsed.ok()) detail::report_pattern_error(parsed.error.kind);
    if (const PatternError error = check_parse_shape_pattern(parsed.value)) detail::report_pattern_error(error.kind);
#endif
  }
  shape_pattern(std::string_view text) : text_(text) {}           // NOLINT(google-explicit-constructor)
  shape_pattern(const std::string& text) : text_(text) {}         // NOLINT(google-explicit-constructor)
  shape_pattern(runtime_pattern pattern) : text_(pattern.text) {}  // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  operator std::string_view() const { return text_; }  // NOLINT(google-explicit-constructor)

 private:
  std::string_view text_;
};

/// The pattern argument of einsum (`"b i k, b k j -> b i j"`): a literal is checked by the
/// compiler, including the number of operands the call passes (`Operands`; 0 when unknown).
template <std::size_t Operands = 0>
class einsum_pattern {
 public:
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL einsum_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : text_(literal, N - 1) {
#if EINOPS_COMPILE_TIME_PATTERNS
    const fixed_string<N> copy(literal);
    const ParseResult<EinsumPattern> parsed = parse_einsum_pattern(copy.view());
    if (!parsed.ok()) detail::report_pattern_error(parsed.error.kind);
    if (const PatternError error = check_einsum_pattern(parsed.value)) detail::report_pattern_error(error.kind);
    if (Operands != 0 && parsed.value.inputs.size() != Operands)
      invalid_pattern<"The number of operands in the pattern differs from the number of tensors given">();
#endif
  }
  einsum_pattern(std::string_view text) : text_(text) {}           // NOLINT(google-explicit-constructor)
  einsum_pattern(const std::string& text) : text_(text) {}         // NOLINT(google-explicit-constructor)
  einsum_pattern(runtime_pattern pattern) : text_(pattern.text) {}  // NOLINT(google-explicit-constructor)

  std::string_view text() const { return text_; }
  operator std::string_view() const { return text_; }  // NOLINT(google-explicit-constructor)

 private:
  std::string_view text_;
};

template <class... Facts>
using rearrange_pattern = arrow_pattern<Operation::rearrange, Facts...>;
template <class... Facts>
using reduce_pattern = arrow_pattern<Operation::reduce, Facts...>;
template <class... Facts>
using repeat_pattern = arrow_pattern<Operation::repeat, Facts...>;

/// A pattern fixed at compile time as a template argument, for adapters whose tensor types carry
/// their rank (Eigen, xtensor): the output rank is a constant expression.
template <fixed_string Text>
struct static_pattern {
  static constexpr std::string_view text = Text.view();
  static constexpr ParseResult<ArrowPattern> parsed() {
    return read_text<Text>([](std::string_view pattern) { return parse_arrow_pattern(pattern); });
  }
  static constexpr bool valid = parsed().ok();
  static_assert(valid, "einops: the pattern does not parse (use it as an ordinary literal argument to see why)");

  static constexpr std::size_t fixed_input_dims() { return einops::fixed_input_dims(parsed().value); }
  static constexpr bool has_ellipsis() { return parsed().value.left.has_ellipsis; }
  static constexpr bool accepts_input_rank(std::size_t rank) {
    return einops::accepts_input_rank(parsed().value, rank);
  }
  /// The output rank for an input of `input_rank` dimensions; a wrong input rank does not compile.
  template <std::size_t InputRank>
  static constexpr std::size_t output_rank() {
    static_assert(accepts_input_rank(InputRank), "einops: the tensor's rank does not match the pattern's left side");
    return einops::output_rank(parsed().value, InputRank);
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
