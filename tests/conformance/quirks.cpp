#include "quirks.hpp"

#include <string>
#include <vector>

namespace conformance {
namespace {

// None for rearrange/reduce/repeat: on every quirk einops has there, we match einops.
// Add entries here (with the reason) when an operation deliberately departs from einops;
// docs/differences.md lists each one.
const std::vector<Quirk>& quirk_table() {
  static const std::vector<Quirk> table = {
      {"unpack", "overlapping slices", Quirk::Expect::einops_error,
       "packed shapes whose -1 would stand for a negative length: einops slices x[a:b] with b < a and "
       "returns parts that overlap; this library refuses the request"},
  };
  return table;
}

}  // namespace

const Quirk* find_quirk(const Case& c) {
  const std::string note = c.note();
  if (note.find("quirk") == std::string::npos) return nullptr;
  for (const Quirk& quirk : quirk_table())
    if (quirk.op == c.op && note.find(quirk.note_phrase) != std::string::npos) return &quirk;
  return nullptr;
}

}  // namespace conformance
