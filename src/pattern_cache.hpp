// Parsed patterns cached by their text: a pattern is parsed once per process, whatever shapes it
// is later used with.
#pragma once

#include <memory>
#include <string_view>

#include "einops/pattern.hpp"
#include "call_context.hpp"

namespace einops::detail {

/// The parsed `left -> right` pattern; throws EinopsError (through `context`) on a syntax error.
std::shared_ptr<const ArrowPattern> parse_arrow_cached(std::string_view pattern, const CallContext& context);

}  // namespace einops::detail
