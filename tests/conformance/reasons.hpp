// What an EinopsError must say for a corpus error case, beyond being thrown: where einops wrote a
// sentence about lengths or ranks, the message holds that sentence unchanged, then where the
// fault is (the input dimension, its group as the pattern writes it, the numbers).
#pragma once

#include <string>
#include <string_view>

#include "corpus.hpp"

namespace conformance {

/// Why `message` (the library's EinopsError for case `c`) does not say what it must; empty when
/// it does, or when the case's error has no sentence whose location is checked.
std::string check_error_reason(const Case& c, std::string_view message);

/// True when check_error_reason checks more than that the error was thrown for `c`.
bool error_reason_checked(const Case& c);

}  // namespace conformance
