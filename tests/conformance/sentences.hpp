// einops' own sentence in our EinopsError: for every corpus error case whose message einops wrote
// (not Python's or numpy's, raised underneath it), the message holds that sentence unchanged;
// anything the library adds (the input shapes, a caret under the fault, the input dimension)
// comes after it.
#pragma once

#include <string>
#include <string_view>

#include "corpus.hpp"

namespace conformance {

/// True when `c` is an error case whose sentence einops wrote (see sentences.cpp for the
/// sentences that come from Python or numpy instead).
bool has_einops_sentence(const Case& c);

/// Why `message` (the library's EinopsError for case `c`) lacks einops' sentence; empty when it
/// holds it, or when `c` has none. Python set reprs ("{'h', 'w'}") match in any order: Python
/// prints a set in its hash order, which changes from run to run. Control characters compare as
/// '?', as the library prints them in a pattern.
std::string check_einops_sentence(const Case& c, std::string_view message);

}  // namespace conformance
