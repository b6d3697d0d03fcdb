// The plan cache: this thread's last few plans, then a bounded cache shared by all threads,
// keyed by (operation, reduction, pattern text, shape, axis lengths); plans are built by make_plan
// (plan_build.cpp).
#include <atomic>
#include <cstdint>
#include <string>

#include "bounded_cache.hpp"
#include "cache_keys.hpp"
#include "einops/limits.hpp"
#include "einops/plan.hpp"
#include "recent_entries.hpp"

namespace einops {
namespace {

struct PlanKeyView {
  Operation operation;
  std::string_view reduction;
  std::string_view pattern;
  std::span<const std::int64_t> shape;
  std::span<const AxisLengths::Entry> lengths;
};

struct PlanKey {
  Operation operation;
  std::string reduction;
  std::string pattern;
  Shape shape;
  std::vector<AxisLengths::Entry> lengths;
  PlanKeyView view() const { return {operation, reduction, pattern, shape, lengths}; }
};

struct PlanKeyHash {
  using is_transparent = void;
  std::size_t operator()(const PlanKeyView& key) const {
    std::uint64_t h = detail::hash_text(static_cast<std::uint64_t>(key.operation), key.pattern);
    h = detail::hash_text(h, key.reduction);
    for (std::int64_t length : key.shape) h = detail::hash_mix(h, static_cast<std::uint64_t>(length));
    for (const auto& [name, length] : key.lengths)
      h = detail::hash_mix(detail::hash_text(h, name), static_cast<std::uint64_t>(length));
    return static_cast<std::size_t>(h);
  }
  std::size_t operator()(const PlanKey& key) const { return (*this)(key.view()); }
};

struct PlanKeyEqual {
  using is_transparent = void;
  bool operator()(const PlanKeyView& a, const PlanKeyView& b) const {
    return a.operation == b.operation && detail::same_text(a.reduction, b.reduction) &&
           detail::same_text(a.pattern, b.pattern) && detail::same_shape(a.shape, b.shape) &&
           std::equal(a.lengths.begin(), a.lengths.end(), b.lengths.begin(), b.lengths.end());
  }
  bool operator()(const PlanKey& a, const PlanKeyView& b) const { return (*this)(a.view(), b); }
  bool operator()(const PlanKeyView& a, const PlanKey& b) const { return (*this)(a, b.view()); }
  bool operator()(const PlanKey& a, const PlanKey& b) const { return (*this)(a.view(), b.view()); }
};

constexpr std::size_t kPlanCacheCapacity = 1024;

auto& plan_cache() {
  static detail::BoundedCache<PlanKey, Shared<const Plan>, PlanKeyHash, PlanKeyEqual> cache(kPlanCacheCapacity);
  return cache;
}

/// Bumped by clear_plan_cache(), so that threads' recent plans (below) are dropped too.
std::atomic<std::uint64_t> plan_cache_generation{0};

/// A plan this thread used lately, with its key.
struct RecentPlan {
  PlanKey key{};
  Shared<const Plan> plan;
  bool matches(const PlanKeyView& other) const { return PlanKeyEqual{}(key, other); }
};

/// The plans this thread used last, checked before the shared cache: a loop calling a few patterns
/// on a few shapes pays a few comparisons instead of a hash, a lock and a map probe. Bounded
/// (kRecentPlans entries per thread, each pattern at most kMaxCachedPatternBytes).
struct ThreadPlans {
  static constexpr std::size_t kRecentPlans = 4;
  detail::RecentEntries<RecentPlan, 1, kRecentPlans> recent;
  std::uint64_t generation = 0;  // of the shared cache when `recent` was filled
  Shared<const Plan> uncached;   // a plan too long to remember, kept alive until the next call
};

ThreadPlans& thread_plans() {
  thread_local ThreadPlans plans;
  return plans;
}

/// get_plan's lookup: this thread's recent plans, then the shared cache, then a new plan. The
/// result lives in this thread's ThreadPlans until its next lookup.
const Shared<const Plan>& find_plan(Operation operation, const std::optional<std::string_view>& reduction,
                                    const PatternRef& pattern_ref, std::span<const std::int64_t> shape,
                                    const AxisLengths& lengths) {
  const std::string_view pattern = pattern_ref.text;
  const std::string_view reduction_key =
      operation == Operation::reduce ? reduction.value_or(std::string_view("<callable>")) : std::string_view();
  const PlanKeyView key{operation, reduction_key, pattern, shape, lengths.entries()};
  ThreadPlans& plans = thread_plans();
  const std::uint64_t generation = plan_cache_generation.load(std::memory_order_acquire);
  if (plans.generation != generation) {
    plans.recent.clear();
    plans.generation = generation;
  }
  const auto lookup = plans.recent.find(key);
  if (lookup.hit) return lookup.hit->plan;
  Shared<const Plan> plan;
  if (auto shared = plan_cache().find(key)) {
    plan = std::move(*shared);
  } else {
    plan = make_plan(operation, reduction, pattern_ref, shape, lengths);
    if (pattern.size() > kMaxCachedPatternBytes) {  // the caches' bytes stay bounded
      plans.uncached = std::move(plan);
      return plans.uncached;
    }
    plan_cache().insert(
        PlanKey{operation, std::string(reduction_key), std::string(pattern), Shape(shape.begin(), shape.end()),
                std::vector<AxisLengths::Entry>(lengths.entries().begin(), lengths.entries().end())},
        plan);
  }
  return plans.recent
      .store(lookup,
             [&](RecentPlan& entry) {
               entry.key.operation = operation;
               entry.key.reduction.assign(reduction_key);
               entry.key.pattern.assign(pattern);
               entry.key.shape.assign(shape.begin(), shape.end());
               entry.key.lengths.assign(lengths.entries().begin(), lengths.entries().end());
               entry.plan = std::move(plan);
             })
      .plan;
}

}  // namespace

Shared<const Plan> get_plan(Operation operation, const std::optional<std::string_view>& reduction,
                            const PatternRef& pattern_ref, std::span<const std::int64_t> shape,
                            const AxisLengths& lengths) {
  return find_plan(operation, reduction, pattern_ref, shape, lengths);
}

namespace detail {

const Plan& borrow_plan(Operation operation, const std::optional<std::string_view>& reduction,
                        const PatternRef& pattern, std::span<const std::int64_t> shape, const AxisLengths& lengths) {
  return *find_plan(operation, reduction, pattern, shape, lengths);
}

std::size_t plan_cache_size() { return plan_cache().size(); }
std::size_t plan_cache_capacity() { return plan_cache().capacity(); }
void clear_plan_cache() {
  plan_cache_generation.fetch_add(1, std::memory_order_acq_rel);
  plan_cache().clear();
}

}  // namespace detail
}  // namespace einops
