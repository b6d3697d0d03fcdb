// The plan cache: this thread's last few plans, then a bounded cache shared by all threads,
// keyed by (operation, reduction, pattern text, shape, axis lengths); plans are built by make_plan
// (plan_build.cpp).
#include <atomic>
#include <cstring>
#include <functional>
#include <string>

#include "bounded_cache.hpp"
#include "einops/limits.hpp"
#include "einops/plan.hpp"

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
    std::size_t h = std::hash<std::string_view>{}(key.pattern);
    const auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    mix(static_cast<std::size_t>(key.operation));
    mix(std::hash<std::string_view>{}(key.reduction));
    for (std::int64_t length : key.shape) mix(static_cast<std::size_t>(length));
    for (const auto& [name, length] : key.lengths) {
      mix(std::hash<std::string_view>{}(name));
      mix(static_cast<std::size_t>(length));
    }
    return h;
  }
  std::size_t operator()(const PlanKey& key) const { return (*this)(key.view()); }
};

/// Sizes first, then eight bytes at a time: keys are short, and a call to memcmp cost more than
/// the comparison itself on a cached call.
inline bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  for (; i + 8 <= a.size(); i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) return false;
  }
  for (; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool same_lengths(std::span<const std::int64_t> a, std::span<const std::int64_t> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

struct PlanKeyEqual {
  using is_transparent = void;
  bool operator()(const PlanKeyView& a, const PlanKeyView& b) const {
    return a.operation == b.operation && same_text(a.reduction, b.reduction) && same_text(a.pattern, b.pattern) &&
           same_lengths(a.shape, b.shape) &&
           std::equal(a.lengths.begin(), a.lengths.end(), b.lengths.begin(), b.lengths.end());
  }
  bool operator()(const PlanKey& a, const PlanKeyView& b) const { return (*this)(a.view(), b); }
  bool operator()(const PlanKeyView& a, const PlanKey& b) const { return (*this)(a, b.view()); }
  bool operator()(const PlanKey& a, const PlanKey& b) const { return (*this)(a.view(), b.view()); }
};

constexpr std::size_t kPlanCacheCapacity = 1024;

auto& plan_cache() {
  static detail::BoundedCache<PlanKey, std::shared_ptr<const Plan>, PlanKeyHash, PlanKeyEqual> cache(
      kPlanCacheCapacity);
  return cache;
}

/// Bumped by clear_plan_cache(), so that threads' recent plans (below) are dropped too.
std::atomic<std::uint64_t> plan_cache_generation{0};

/// The plans this thread used last, checked before the shared cache: a loop calling one pattern
/// on one shape pays a few comparisons instead of a hash, a lock and a map probe. Bounded (a
/// handful of entries per thread, each pattern at most kMaxCachedPatternBytes).
class RecentPlans {
 public:
  /// The remembered plan of `key`, or null; the pointer is valid until the next remember().
  const std::shared_ptr<const Plan>* find(const PlanKeyView& key, std::uint64_t generation) const {
    for (const Entry& entry : entries_)
      if (entry.plan && entry.generation == generation && PlanKeyEqual{}(entry.key, key)) return &entry.plan;
    return nullptr;
  }
  /// Remembers `plan` for `key`, evicting the oldest entry; returns the stored pointer.
  const std::shared_ptr<const Plan>& remember(const PlanKeyView& key, std::uint64_t generation,
                                              std::shared_ptr<const Plan> plan) {
    Entry& entry = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    entry.generation = generation;
    entry.key.operation = key.operation;
    entry.key.reduction.assign(key.reduction);
    entry.key.pattern.assign(key.pattern);
    entry.key.shape.assign(key.shape.begin(), key.shape.end());
    entry.key.lengths.assign(key.lengths.begin(), key.lengths.end());
    entry.plan = std::move(plan);
    return entry.plan;
  }
  /// Keeps a plan that is not remembered (its pattern is too long to cache) alive until the next call.
  const std::shared_ptr<const Plan>& hold(std::shared_ptr<const Plan> plan) {
    uncached_ = std::move(plan);
    return uncached_;
  }

 private:
  static constexpr std::size_t kEntries = 4;
  struct Entry {
    std::uint64_t generation = 0;
    PlanKey key{};
    std::shared_ptr<const Plan> plan;
  };
  std::array<Entry, kEntries> entries_{};
  std::size_t next_ = 0;
  std::shared_ptr<const Plan> uncached_;
};

RecentPlans& recent_plans() {
  thread_local RecentPlans recent;
  return recent;
}

/// get_plan's lookup: this thread's recent plans, then the shared cache, then a new plan. The
/// result lives in this thread's RecentPlans until its next lookup.
const std::shared_ptr<const Plan>& find_plan(Operation operation, const std::optional<std::string_view>& reduction,
                                             const PatternRef& pattern_ref, std::span<const std::int64_t> shape,
                                             const AxisLengths& lengths) {
  const std::string_view pattern = pattern_ref.text;
  const std::string_view reduction_key =
      operation == Operation::reduce ? reduction.value_or(std::string_view("<callable>")) : std::string_view();
  const PlanKeyView key{operation, reduction_key, pattern, shape, lengths.entries()};
  const std::uint64_t generation = plan_cache_generation.load(std::memory_order_acquire);
  RecentPlans& recent = recent_plans();
  if (const auto* plan = recent.find(key, generation)) return *plan;
  if (auto hit = plan_cache().find(key)) return recent.remember(key, generation, std::move(*hit));
  std::shared_ptr<const Plan> plan = make_plan(operation, reduction, pattern_ref, shape, lengths);
  if (pattern.size() > kMaxCachedPatternBytes) return recent.hold(std::move(plan));  // the cache's bytes stay bounded
  plan_cache().insert(PlanKey{operation, std::string(reduction_key), std::string(pattern),
                              Shape(shape.begin(), shape.end()),
                              std::vector<AxisLengths::Entry>(lengths.entries().begin(), lengths.entries().end())},
                      plan);
  return recent.remember(key, generation, std::move(plan));
}

}  // namespace

std::shared_ptr<const Plan> get_plan(Operation operation, const std::optional<std::string_view>& reduction,
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
