#include "operation_patterns.hpp"

#include <string>
#include <utility>

#include "bounded_cache.hpp"
#include "einops/limits.hpp"
#include "einops/pattern_checks.hpp"

namespace einops::detail {
namespace {

constexpr std::size_t kCacheCapacity = 256;

template <class Parsed>
using TextCache = TextKeyedCache<std::shared_ptr<const Parsed>>;

/// The cached result of `parse(pattern)` (a ParseResult) followed by `check(value)` (a PatternError).
template <class Parsed, class Parse, class Check>
std::shared_ptr<const Parsed> cached(TextCache<Parsed>& cache, std::string_view pattern, const CallContext& context,
                                     Parse&& parse, Check&& check) {
  if (auto hit = cache.find(pattern)) return *hit;
  ParseResult<Parsed> parsed = parse(pattern);
  if (!parsed.ok()) context.fail_syntax(parsed.error);
  if (const PatternError error = check(parsed.value)) context.fail_syntax(error);
  auto shared = std::make_shared<const Parsed>(std::move(parsed.value));
  if (pattern.size() <= kMaxCachedPatternBytes) cache.insert(std::string(pattern), shared);  // bounded bytes
  return shared;
}

}  // namespace

std::shared_ptr<const PackPattern> pack_pattern(std::string_view pattern, const CallContext& context) {
  static TextCache<PackPattern> cache(kCacheCapacity);
  return cached(
      cache, pattern, context, [](std::string_view text) { return parse_pack_pattern(text); },
      [](const PackPattern&) { return PatternError{}; });
}

std::shared_ptr<const Expression> parse_shape_pattern(std::string_view pattern, const CallContext& context) {
  static TextCache<Expression> cache(kCacheCapacity);
  return cached(
      cache, pattern, context,
      [](std::string_view text) {
        return parse_expression(text, 0, ExpressionOptions{true, false});
      },
      [](const Expression& expression) { return check_parse_shape_pattern(expression); });
}

std::shared_ptr<const Expression> check_shape_side(std::string_view pattern, const CallContext& context) {
  static TextCache<Expression> cache(kCacheCapacity);
  return cached(
      cache, pattern, context,
      [](std::string_view text) {
        return parse_expression(text, 0, ExpressionOptions{true, false});
      },
      [](const Expression& expression) { return check_shape_expression(expression); });
}

std::shared_ptr<const EinsumPattern> einsum_pattern(std::string_view pattern, const CallContext& context) {
  static TextCache<EinsumPattern> cache(kCacheCapacity);
  return cached(
      cache, pattern, context, [](std::string_view text) { return parse_einsum_pattern(text); },
      [](const EinsumPattern& parsed) { return check_einsum_pattern(parsed); });
}

}  // namespace einops::detail
