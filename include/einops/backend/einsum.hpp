// einops.einsum where an operand is an adapted tensor.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "einops/backend/results.hpp"
#include "einops/einsum.hpp"
#include "einops/pattern_arg.hpp"

namespace einops {

namespace detail {

template <class X>
concept einsum_operand_of_any_kind = AdaptedTensor<X> || einsum_operand<X>::is_tensor;

/// The operands of einsum(args..., pattern): at least one adapted tensor; the first sets the
/// result's family.
template <class Tuple, std::size_t... I>
constexpr bool operands_are_tensors(std::index_sequence<I...>) {
  return (einsum_operand_of_any_kind<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>> && ...);
}
template <class... Args>
concept AdaptedEinsumArguments =
    sizeof...(Args) >= 2 &&
    std::convertible_to<const std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>&, std::string_view> &&
    operands_are_tensors<std::tuple<Args...>>(std::make_index_sequence<sizeof...(Args) - 1>{}) &&
    (AdaptedTensor<std::remove_cvref_t<Args>> || ...);

template <class First, class... Rest>
struct first_adapted {
  using type = std::conditional_t<AdaptedTensor<First>, First, typename first_adapted<Rest...>::type>;
};
template <class Last>
struct first_adapted<Last> {
  using type = Last;
};

/// A backend's own einsum (TensorOps) on einops' compact pattern (compact_einsum_pattern);
/// `pattern`, einops' form, names the call in errors, where the library's exceptions become
/// EinopsError as in every other op (with_library_errors).
template <class Family>
Family run_ops_einsum(const std::string& compact, std::span<const Family> operands, std::string_view pattern) {
  const auto inputs = [&] {
    std::vector<std::vector<std::int64_t>> shapes;
    for (const Family& operand : operands) {
      const auto lengths = OpsShape(operand).lengths();
      shapes.emplace_back(lengths.begin(), lengths.end());
    }
    return input_shapes_line(shapes);
  };
  return with_library_errors<Family>("einsum", pattern, inputs,
                                     [&] { return Family(tensor_traits<Family>::einsum(compact, operands)); });
}

/// einops.einsum of a list of a backend's own tensors (TensorOps), einops' pattern last.
template <class Family>
Family ops_einsum(std::span<const Family> operands, std::string_view pattern) {
  const std::string compact = compact_einsum_pattern_cached(pattern);
  return run_ops_einsum(compact, operands, pattern);
}

template <std::size_t Rank, class... Args>
auto run_einsum(const Args&... args) {
  const auto arguments = std::tuple<const Args&...>(args...);
  constexpr std::size_t count = sizeof...(Args) - 1;
  const std::string_view pattern(std::get<count>(arguments));
  using Family = typename first_adapted<std::remove_cvref_t<Args>...>::type;
  if constexpr (StridedTensor<Family>) {
    const auto operands = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<AnyTensor, count>{alias(borrow(std::get<I>(arguments)))...};
    }(std::make_index_sequence<count>{});
    const AnyTensor y = einsum(std::span<const AnyTensor>(operands), pattern);
    return family_result_from<Family, Rank>(y, "einsum", pattern);
  } else {
    const auto operands = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<Family, count>{Family(std::get<I>(arguments))...};
    }(std::make_index_sequence<count>{});
    Family y = ops_einsum(std::span<const Family>(operands), pattern);
    if constexpr (Rank != dynamic_rank) {
      const auto shape = tensor_traits<Family>::shape(y);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank("einsum", pattern, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return y;
  }
}

template <fixed_string P>
constexpr std::size_t einsum_output_rank() {
  const ParseResult<EinsumPattern> parsed = read_text<P>([](auto text) { return parse_einsum_pattern(text); });
  if (!parsed.ok() || parsed.value.output.has_ellipsis) return dynamic_rank;
  return parsed.value.output.groups.size();
}

}  // namespace detail

/// einops.einsum(a, b, ..., pattern) where an operand is an adapted tensor: the result has the
/// family of the first one (for a static-rank family only with M, else a built-in tensor).
template <class... Args>
  requires detail::AdaptedEinsumArguments<Args...>
auto einsum(const Args&... args) {
  return detail::run_einsum<dynamic_rank>(args...);
}
template <std::size_t M, class... Args>
  requires detail::AdaptedEinsumArguments<Args...>
auto einsum(const Args&... args) {
  return detail::run_einsum<M>(args...);
}
/// The pattern as a template argument; without an ellipsis in the output its rank is known.
template <fixed_string P, AdaptedTensor... Xs>
  requires(sizeof...(Xs) > 0)
auto einsum(const Xs&... operands) {
  static_assert(read_text<P>([](auto text) { return parse_einsum_pattern(text); }).ok(),
                "einops: the einsum pattern does not parse (pass it as a run-time string to see why)");
  return detail::run_einsum<detail::einsum_output_rank<P>()>(operands..., P.view());
}

}  // namespace einops
