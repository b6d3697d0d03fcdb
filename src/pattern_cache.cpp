#include "pattern_cache.hpp"

#include <string>

#include "bounded_cache.hpp"
#include "einops/limits.hpp"

namespace einops::detail {
namespace {

constexpr std::size_t kPatternCacheCapacity = 512;

auto& arrow_cache() {
  static TextKeyedCache<std::shared_ptr<const ArrowPattern>> cache(kPatternCacheCapacity);
  return cache;
}

}  // namespace

std::shared_ptr<const ArrowPattern> parse_arrow_cached(std::string_view pattern, const CallContext& context) {
  if (auto hit = arrow_cache().find(pattern)) return *hit;
  ParseResult<ArrowPattern> parsed = parse_arrow_pattern(pattern);
  if (!parsed.ok()) context.fail_syntax(parsed.error);
  auto shared = std::make_shared<const ArrowPattern>(std::move(parsed.value));
  if (pattern.size() <= kMaxCachedPatternBytes) arrow_cache().insert(std::string(pattern), shared);
  return shared;
}

std::size_t pattern_cache_size() { return arrow_cache().size(); }
std::size_t pattern_cache_capacity() { return arrow_cache().capacity(); }

}  // namespace einops::detail
