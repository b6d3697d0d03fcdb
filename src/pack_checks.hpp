// pack's checks of its inputs' shapes, shared by the built-in pack and the layout that tensors
// with their own ops are packed by (adapter_call.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "einops/pattern.hpp"
#include "call_context.hpp"

namespace einops::detail {

/// The shape of input `index` of a pack.
using PackInputShape = std::function<std::span<const std::int64_t>(std::size_t index)>;

/// `a * b` and `a + b` of packed lengths (the lengths along '*'); on overflow they throw
/// EinopsError through `context`: "The packed lengths overflow int64".
std::int64_t packed_mul(const CallContext& context, std::int64_t a, std::int64_t b);
std::int64_t packed_add(const CallContext& context, std::int64_t a, std::int64_t b);

/// In einops' order: every input has the pattern's axes (einops' sentence, naming the pattern),
/// then every axis but '*' has tensor 0's length (numpy's sentence, as concatenate words it, with
/// the axis and where it is in each tensor). Throws EinopsError through `context`.
void check_pack_shapes(const CallContext& context, const PackPattern& pattern, std::size_t count,
                       const PackInputShape& shape_of);

}  // namespace einops::detail
