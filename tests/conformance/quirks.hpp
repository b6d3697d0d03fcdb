// Where our library deliberately differs from einops on a case the corpus marks as a quirk.
//
// Entries match by operation and a phrase of the case's `note` (never by case id), so a
// regenerated corpus keeps working. A quirk case with no entry must behave exactly as einops did.
#pragma once

#include <string_view>

#include "corpus.hpp"

namespace conformance {

struct Quirk {
  enum class Expect {
    einops_error,  // we raise EinopsError where einops returned a result
    any_result,    // we return a result where einops raised; its values are ours, not checked
  };
  std::string_view op;
  std::string_view note_phrase;  // a substring of the case's note
  Expect expect;
  std::string_view why;  // the documented reason for the difference
};

/// The entry for `c`, or nullptr (also for cases whose note does not mention "quirk").
const Quirk* find_quirk(const Case& c);

}  // namespace conformance
