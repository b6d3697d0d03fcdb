// The patterns of pack/unpack, parse_shape, check_shape and einsum, parsed and checked once per text and then
// cached: a repeated call with the same pattern does no parsing.
#pragma once

#include <memory>
#include <string_view>

#include "einops/pattern.hpp"
#include "call_context.hpp"

namespace einops::detail {

/// `b * c`; throws EinopsError (through `context`) for a malformed pattern.
std::shared_ptr<const PackPattern> pack_pattern(std::string_view pattern, const CallContext& context);
/// `b _ h w` (with `_`, `...`, unit and anonymous axes, no composition).
std::shared_ptr<const Expression> parse_shape_pattern(std::string_view pattern, const CallContext& context);
/// `b t (h p) 3 ...` for check_shape (with `_`, compositions, units and anonymous lengths).
std::shared_ptr<const Expression> check_shape_side(std::string_view pattern, const CallContext& context);
/// `a b, b c -> a c`, with einsum's shape-free checks done.
std::shared_ptr<const EinsumPattern> einsum_pattern(std::string_view pattern, const CallContext& context);

}  // namespace einops::detail
