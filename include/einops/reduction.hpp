// The reductions of einops' reduce(): one table of what each one is (its name, the element type
// of its result, what it refuses), read by the parser of names, the plan's checks and the
// kernels. What a reduction computes is its ReduceOp (src/kernels/reduce_ops.hpp).
// docs/design.md shows the diff a new reduction needs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "einops/dtype.hpp"

namespace einops {

/// The reductions of einops' reduce(); `rearrange` and `repeat` are accepted as "no reduction".
/// In the order of kReductions.
enum class Reduction : std::uint8_t { min, max, sum, mean, prod, any, all };

/// The element type of a reduction's result, as numpy gives it.
enum class ReductionResult : std::uint8_t {
  input,            // the input's type
  widened_integer,  // integers and bool to int64 (unsigned ones to uint64); floating types kept
  boolean,          // bool
};

/// What a reduction is, apart from its arithmetic.
struct ReductionTraits {
  Reduction reduction;
  std::string_view name;         // as reduce() accepts it
  std::string_view numpy_ufunc;  // the ufunc numpy reduces with, as numpy's messages name it
  ReductionResult result;
  bool floating_only;     // integer and bool inputs are refused
  bool divides_by_count;  // the result is the accumulation divided by the count of elements
  bool has_identity;      // reducing no element gives the identity; without one, it is refused
};

inline constexpr std::array kReductions = {
    //              reduction        name    numpy_ufunc    result                            floating divides identity
    ReductionTraits{Reduction::min, "min", "minimum", ReductionResult::input, false, false, false},
    ReductionTraits{Reduction::max, "max", "maximum", ReductionResult::input, false, false, false},
    ReductionTraits{Reduction::sum, "sum", "add", ReductionResult::widened_integer, false, false, true},
    ReductionTraits{Reduction::mean, "mean", "add", ReductionResult::input, true, true, true},
    ReductionTraits{Reduction::prod, "prod", "multiply", ReductionResult::widened_integer, false, false, true},
    ReductionTraits{Reduction::any, "any", "logical_or", ReductionResult::boolean, false, false, true},
    ReductionTraits{Reduction::all, "all", "logical_and", ReductionResult::boolean, false, false, true},
};

namespace detail {
constexpr bool reductions_in_enum_order() {
  for (std::size_t i = 0; i < kReductions.size(); ++i)
    if (static_cast<std::size_t>(kReductions[i].reduction) != i) return false;
  return true;
}
static_assert(reductions_in_enum_order(), "kReductions lists every Reduction once, in the enum's order");
}  // namespace detail

constexpr const ReductionTraits& reduction_traits(Reduction reduction) {
  return kReductions[static_cast<std::size_t>(reduction)];
}

constexpr std::string_view reduction_name(Reduction reduction) { return reduction_traits(reduction).name; }

/// The reduction named `name`, if any.
constexpr const ReductionTraits* find_reduction(std::string_view name) {
  for (const ReductionTraits& traits : kReductions)
    if (traits.name == name) return &traits;
  return nullptr;
}

/// The names of all reductions, each between `quote`s, joined by ", " and the last by `last_joiner`:
/// ('min', 'max', ...) for einops' message, "min, max, ... or all" for a help text.
inline std::string reduction_names(std::string_view quote = "'", std::string_view last_joiner = ", ") {
  std::string names;
  for (std::size_t i = 0; i < kReductions.size(); ++i) {
    if (i > 0) names += i + 1 == kReductions.size() ? last_joiner : ", ";
    names.append(quote).append(kReductions[i].name).append(quote);
  }
  return names;
}

/// numpy's result type (see ReductionResult); the mean of integers is refused elsewhere.
constexpr DType reduction_result_dtype(Reduction reduction, DType input) {
  switch (reduction_traits(reduction).result) {
    case ReductionResult::input: return input;
    case ReductionResult::boolean: return DType::boolean;
    case ReductionResult::widened_integer:
      if (is_floating(input)) return input;
      return is_unsigned(input) ? DType::uint64 : DType::int64;
  }
  return input;
}

namespace detail {
template <class F, std::size_t... I>
decltype(auto) visit_reduction_in(Reduction reduction, F& f, std::index_sequence<I...>) {
  using Result = decltype(f(std::integral_constant<Reduction, Reduction{}>{}));
  if constexpr (std::is_void_v<Result>) {
    (void)((static_cast<std::size_t>(reduction) == I
                ? (f(std::integral_constant<Reduction, kReductions[I].reduction>{}), true)
                : false) ||
           ...);
  } else {
    Result result{};
    (void)((static_cast<std::size_t>(reduction) == I
                ? (result = f(std::integral_constant<Reduction, kReductions[I].reduction>{}), true)
                : false) ||
           ...);
    return result;
  }
}
}  // namespace detail

/// Calls `f(std::integral_constant<Reduction, R>{})` for the reduction R == `reduction`: the one
/// switch, generated from kReductions, wherever a run-time reduction picks a template
/// instantiation (as visit_dtype does for element types).
template <class F>
decltype(auto) visit_reduction(Reduction reduction, F&& f) {
  return detail::visit_reduction_in(reduction, f, std::make_index_sequence<kReductions.size()>{});
}

}  // namespace einops
