// einops.pack and einops.unpack on adapted tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/backend/results.hpp"
#include "einops/pack.hpp"
#include "einops/pattern_arg.hpp"

namespace einops {

namespace detail {

template <std::size_t Rank, class X>
auto run_pack(const std::vector<X>& xs, std::string_view pattern) {
  if constexpr (StridedTensor<X>) {
    std::vector<AnyTensor> views;
    views.reserve(xs.size());
    for (const X& x : xs) views.push_back(view(x));
    Packed<AnyTensor> packed = pack(std::span<const AnyTensor>(views), pattern);
    auto tensor = family_result_from<X, Rank>(packed.tensor, "pack", pattern);
    return Packed<decltype(tensor)>{std::move(tensor), std::move(packed.packed_shapes)};
  } else {
    using Traits = tensor_traits<X>;
    std::vector<Shape> shapes;
    shapes.reserve(xs.size());
    for (const X& x : xs) {
      const auto shape = Traits::shape(x);
      shapes.emplace_back(std::ranges::begin(shape), std::ranges::end(shape));
    }
    OpsPackLayout layout = ops_pack_layout(shapes, pattern);
    X tensor = with_library_errors<X>(
        "pack", pattern, [] { return std::string(); },
        [&] {
          std::vector<X> flattened;
          flattened.reserve(xs.size());
          for (std::size_t i = 0; i < xs.size(); ++i)
            flattened.push_back(Traits::reshape(xs[i], layout.flattened_shapes[i]));
          return X(Traits::concatenate(std::span<const X>(flattened), static_cast<std::int64_t>(layout.axis)));
        });
    if constexpr (Rank != dynamic_rank) {
      const auto shape = Traits::shape(tensor);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank("pack", pattern, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return Packed<X>{std::move(tensor), std::move(layout.packed_shapes)};
  }
}

template <std::size_t Rank, class X>
auto run_unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  if constexpr (StridedTensor<X>) {
    const TensorRefWithExtents memory = borrow(packed);
    const std::vector<AnyTensor> parts = unpack(alias(memory), packed_shapes, pattern);
    using Part = decltype(family_result_from<X, Rank>(parts.front(), "unpack", pattern));
    std::vector<Part> typed;
    typed.reserve(parts.size());
    // Built-in parts are views of x's memory (as einops' parts are views); parts of x's family are copies.
    for (const AnyTensor& part : parts) typed.push_back(family_result_from<X, Rank>(part, "unpack", pattern));
    return typed;
  } else {
    using Traits = tensor_traits<X>;
    const auto shape_range = Traits::shape(packed);
    const Shape shape(std::ranges::begin(shape_range), std::ranges::end(shape_range));
    const OpsUnpackLayout layout = ops_unpack_layout(shape, packed_shapes, pattern);
    std::vector<X> parts;
    parts.reserve(layout.parts.size());
    for (const OpsUnpackPart& part : layout.parts) {
      if (Rank != dynamic_rank && part.shape.size() != Rank) fail_result_rank("unpack", pattern, part.shape, Rank);
      with_library_errors<X>(
          "unpack", pattern, [&] { return input_shape_line(shape); },
          [&] {
            parts.push_back(Traits::reshape(
                Traits::slice(packed, static_cast<std::int64_t>(layout.axis), part.begin, part.end), part.shape));
          });
    }
    return parts;
  }
}

template <fixed_string P>
constexpr std::size_t pack_pattern_rank() {
  const ParseResult<PackPattern> parsed = read_text<P>([](auto text) { return parse_pack_pattern(text); });
  return parsed.ok() ? parsed.value.before.size() + parsed.value.after.size() + 1 : dynamic_rank;
}

}  // namespace detail

/// einops.pack of adapted tensors of one type; see pack.hpp. A mix of types packs as built-in
/// views: `einops::pack({einops::view(a), einops::view(b)}, pattern)`.
template <AdaptedTensor X>
auto pack(const std::vector<X>& tensors, std::string_view pattern) {
  return detail::run_pack<dynamic_rank>(tensors, pattern);
}
template <std::size_t M, AdaptedTensor X>
auto pack(const std::vector<X>& tensors, std::string_view pattern) {
  return detail::run_pack<M>(tensors, pattern);
}
/// `pack({a, b}, pattern)`: a braced list of tensors of one adapted type.
template <AdaptedTensor X>
auto pack(std::initializer_list<X> tensors, std::string_view pattern) {
  return detail::run_pack<dynamic_rank>(std::vector<X>(tensors), pattern);
}
/// The packed tensor's rank is the pattern's axes plus one.
template <fixed_string P, AdaptedTensor X>
auto pack(const std::vector<X>& tensors) {
  static_assert(detail::pack_pattern_rank<P>() != dynamic_rank,
                "einops: the pack pattern does not parse (pass it as a run-time string to see why)");
  return detail::run_pack<detail::pack_pattern_rank<P>()>(tensors, P.view());
}

/// einops.unpack of an adapted tensor. Without M, the parts of a static-rank type are built-in
/// views of its memory (no copy); with M every part must have rank M.
template <AdaptedTensor X>
auto unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  return detail::run_unpack<dynamic_rank>(packed, packed_shapes, pattern);
}
template <std::size_t M, AdaptedTensor X>
auto unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  return detail::run_unpack<M>(packed, packed_shapes, pattern);
}

}  // namespace einops
