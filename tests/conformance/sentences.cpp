// The check of einops' sentences (sentences.hpp).
#include "sentences.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace conformance {
namespace {

/// The corpus' error sentences that Python or numpy wrote, under einops (corpus/README.md: "either
/// from einops itself or from numpy underneath it"): a pattern without "->" unpacked into two
/// sides, numpy's stacking, reductions, allocation and einsum, integer division by a zero
/// length. The library gives its own reasons for these faults.
constexpr std::array<std::string_view, 10> kForeignSentences = {
    "not enough values to unpack",                           // Python: a side missing
    "too many values to unpack",                             // Python: "->" twice
    "integer modulo by zero",                                // Python: a length of 0 to divide by
    "all input arrays must have the same shape",             // numpy.stack of a list input
    "zero-size array to reduction operation",                // numpy's min/max of nothing
    "negative dimensions are not allowed",                   // numpy's allocation
    "all the input array dimensions except for the concat",  // numpy.concatenate in pack
    "fewer operands provided to einstein sum function",      // numpy.einsum
    "operands could not be broadcast together",              // numpy.einsum
    "dimensions in operand ",                                // numpy.einsum
};

/// `text` with the items of every "{...}" sorted, so that Python sets compare in any order.
std::string sorted_sets(std::string_view text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t open = text.find('{', at);
    const std::size_t close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out.append(text.substr(at, open + 1 - at));
    std::vector<std::string_view> items;
    std::string_view inside = text.substr(open + 1, close - open - 1);
    for (std::size_t comma; (comma = inside.find(", ")) != std::string_view::npos; inside.remove_prefix(comma + 2))
      items.push_back(inside.substr(0, comma));
    items.push_back(inside);
    std::sort(items.begin(), items.end());
    for (std::size_t i = 0; i < items.size(); ++i) out.append(i ? ", " : "").append(items[i]);
    out += '}';
    at = close + 1;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

/// `text` with control characters other than newlines as '?': the library prints them so in the
/// patterns it quotes (einops/error.hpp, printable), to keep a message on its lines.
std::string printable(std::string text) {
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 && ch != '\n') ch = '?';
  return text;
}

std::string missing(std::string_view message, std::string_view sentence) {
  if (printable(sorted_sets(message)).find(printable(sorted_sets(sentence))) != std::string::npos) return {};
  return "einops' sentence '" + std::string(sentence) + "' is missing";
}

}  // namespace

bool has_einops_sentence(const Case& c) {
  if (!c.expects_error()) return false;
  const std::string detail = c.expect().value("einops_detail", "");
  for (std::string_view foreign : kForeignSentences)
    if (detail.starts_with(foreign)) return false;
  return !detail.empty();
}

std::string check_einops_sentence(const Case& c, std::string_view message) {
  if (!has_einops_sentence(c)) return {};
  // The header line of rearrange, reduce and repeat ('Error while processing ... pattern "...".'),
  // where einops writes one, and the reason.
  const std::string header = c.expect().value("einops_message", "");
  const std::string detail = c.expect().value("einops_detail", "");
  std::string why = header != detail ? missing(message, header) : std::string();
  if (const std::string reason = missing(message, detail); !reason.empty()) why += (why.empty() ? "" : "; ") + reason;
  return why;
}

}  // namespace conformance
