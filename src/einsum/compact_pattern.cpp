// einops' single-letter form of an einsum pattern, what einops hands to a backend's own einsum
// (tensor_traits' TensorOps way, LibTorch's adapter among them), and this thread's recent ones.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../cache_keys.hpp"
#include "../call_context.hpp"
#include "../operation_patterns.hpp"
#include "../recent_entries.hpp"
#include "einops/detail/adapter_call.hpp"

namespace einops::detail {
namespace {

/// A pattern with its compact form.
struct RecentCompaction {
  std::string pattern;
  std::string compact;
  bool matches(std::string_view other) const { return same_text(pattern, other); }
};

/// Direct-mapped, per thread: enough for the distinct einsum patterns of a model's forward pass.
constexpr std::size_t kRecentCompactions = 16;

}  // namespace

std::string compact_einsum_pattern(std::string_view pattern) {
  static constexpr std::string_view letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const auto parsed = einsum_pattern(pattern, CallContext{"einsum", pattern});
  std::vector<std::string_view> names;  // index = letter
  const auto letter_of = [&](std::string_view name) {
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return letters[static_cast<std::size_t>(it - names.begin())];
    names.push_back(name);  // the 52-name limit was checked with the pattern
    return letters[names.size() - 1];
  };
  const auto write = [&](const Expression& expression, std::string& out) {
    for (const Group& group : expression.groups) {
      if (group.is_bare_ellipsis()) out += "...";
      else out += letter_of(group.axes[0].name);
    }
  };
  std::string compact;
  for (std::size_t i = 0; i < parsed->inputs.size(); ++i) {
    if (i > 0) compact += ',';
    write(parsed->inputs[i], compact);
  }
  compact += "->";
  write(parsed->output, compact);
  return compact;
}

const std::string& compact_einsum_pattern_cached(std::string_view pattern) {
  thread_local RecentEntries<RecentCompaction, kRecentCompactions> recent;
  const auto lookup = recent.find(pattern, [pattern] { return hash_text(0, pattern); });
  if (lookup.hit) return lookup.hit->compact;
  std::string compact = compact_einsum_pattern(pattern);  // throws EinopsError for a bad pattern
  return recent
      .store(lookup,
             [&](RecentCompaction& entry) {
               entry.pattern.assign(pattern);
               entry.compact = std::move(compact);
             })
      .compact;
}

}  // namespace einops::detail
