// The plan cache: identity of cached plans, separate keys, a bounded size, and concurrent use; the
// per-thread recent-entries cache in front of it and of the other per-call caches.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "einops/detail/plan_kernels.hpp"
#include <einops/einops.hpp>

#include "recent_entries.hpp"

namespace {

using einops::AxisLengths;
using einops::get_plan;
using einops::Operation;
using einops::Shape;
using einops::Tensor;

einops::Shared<const einops::Plan> rearrange_plan(std::string_view pattern, const Shape& shape,
                                                  const AxisLengths& lengths = {}) {
  return get_plan(Operation::rearrange, std::nullopt, pattern, shape, lengths);
}

TEST(PlanCache, SameKeySamePlan) {
  einops::detail::clear_plan_cache();
  const auto first = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"b", 2}});
  const auto second = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"b", 2}});
  EXPECT_EQ(first.get(), second.get());
  // A different spelling of the same pattern text is a different key, yet the same result.
  const auto spaced = rearrange_plan("a (b c)  -> a b c", {2, 6}, {{"b", 2}});
  EXPECT_NE(first.get(), spaced.get());
  EXPECT_EQ(spaced->output_shape, first->output_shape);
  // make_plan bypasses the cache.
  EXPECT_NE(einops::make_plan(Operation::rearrange, std::nullopt, "a (b c) -> a b c", Shape{2, 6}, {{"b", 2}}).get(),
            first.get());
}

TEST(PlanCache, EveryKeyPartMatters) {
  einops::detail::clear_plan_cache();
  const auto base = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"b", 2}});
  const auto other_shape = rearrange_plan("a (b c) -> a b c", {3, 6}, {{"b", 2}});
  const auto other_length = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"b", 3}});
  const auto two_lengths = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"b", 2}, {"c", 3}});
  const auto swapped = rearrange_plan("a (b c) -> a b c", {2, 6}, {{"c", 3}, {"b", 2}});
  for (const auto& plan : {other_shape, other_length, two_lengths, swapped}) EXPECT_NE(plan.get(), base.get());
  EXPECT_NE(two_lengths.get(), swapped.get());  // order of given lengths is part of the key, as in einops
  EXPECT_EQ(other_shape->output_shape, (Shape{3, 2, 3}));
  EXPECT_EQ(other_length->output_shape, (Shape{2, 3, 2}));

  const auto sum = get_plan(Operation::reduce, "sum", "a b -> a", Shape{2, 3}, {});
  const auto max = get_plan(Operation::reduce, "max", "a b -> a", Shape{2, 3}, {});
  const auto callable = get_plan(Operation::reduce, std::nullopt, "a b -> a", Shape{2, 3}, {});
  EXPECT_NE(sum.get(), max.get());
  EXPECT_NE(sum.get(), callable.get());
  EXPECT_EQ(sum->reduction, einops::Reduction::sum);
  EXPECT_EQ(max->reduction, einops::Reduction::max);
  EXPECT_FALSE(callable->reduction.has_value());
  EXPECT_EQ(get_plan(Operation::reduce, "sum", "a b -> a", Shape{2, 3}, {}).get(), sum.get());

  const auto as_repeat = get_plan(Operation::repeat, std::nullopt, "a b -> b a", Shape{2, 3}, {});
  const auto as_rearrange = rearrange_plan("a b -> b a", {2, 3});
  EXPECT_NE(as_repeat.get(), as_rearrange.get());
  EXPECT_EQ(as_repeat->operation, Operation::repeat);
}

TEST(PlanCache, ThreadsRecentPlansFollowTheWholeKeyAndClear) {
  einops::detail::clear_plan_cache();
  // Same length, different text: the per-thread memo compares bytes, not only sizes.
  const auto ab = rearrange_plan("a b -> b a", {2, 3});
  const auto ba = rearrange_plan("b a -> a b", {2, 3});
  EXPECT_NE(ab.get(), ba.get());
  for (int round = 0; round < 3; ++round) {  // alternating keys, more of them than the memo holds
    for (std::int64_t n = 1; n <= 6; ++n) EXPECT_EQ(rearrange_plan("a b -> b a", {n, 3})->output_shape, (Shape{3, n}));
    EXPECT_EQ(rearrange_plan("a b -> b a", {2, 3}).get(), ab.get());
    EXPECT_EQ(rearrange_plan("b a -> a b", {2, 3}).get(), ba.get());
  }
  einops::detail::clear_plan_cache();  // also forgets what each thread used last
  EXPECT_NE(rearrange_plan("a b -> b a", {2, 3}).get(), ab.get());
}

TEST(PlanCache, CopySchedulesAreMadeOncePerElementSize) {
  const auto plan = rearrange_plan("a b c -> c a b", {8, 16, 32});
  const einops::detail::CopySchedule* first =
      &plan->kernels->contiguous_schedules.get(plan->kernels->contiguous_walk, 4);
  EXPECT_EQ(&plan->kernels->contiguous_schedules.get(plan->kernels->contiguous_walk, 4), first);
  EXPECT_NE(&plan->kernels->contiguous_schedules.get(plan->kernels->contiguous_walk, 2), first);
  const auto fresh = einops::make_plan(Operation::rearrange, std::nullopt, "a b c -> c a b", Shape{8, 16, 32}, {});
  std::vector<const einops::detail::CopySchedule*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < seen.size(); ++t)
    threads.emplace_back(
        [&, t] { seen[t] = &fresh->kernels->contiguous_schedules.get(fresh->kernels->contiguous_walk, 8); });
  for (auto& thread : threads) thread.join();
  for (const auto* schedule : seen) EXPECT_EQ(schedule, seen.front());  // one published, the others dropped
}

TEST(PlanCache, ErrorsAreNotCached) {
  einops::detail::clear_plan_cache();
  const std::size_t before = einops::detail::plan_cache_size();
  EXPECT_THROW((void)rearrange_plan("a b -> a", {2, 3}), einops::EinopsError);
  EXPECT_THROW((void)rearrange_plan("a b -> a", {2, 3}), einops::EinopsError);  // thrown again, not cached
  EXPECT_EQ(einops::detail::plan_cache_size(), before);
}

TEST(PlanCache, StaysBounded) {
  einops::detail::clear_plan_cache();
  const std::size_t capacity = einops::detail::plan_cache_capacity();
  ASSERT_GT(capacity, 0u);
  const auto hot = rearrange_plan("a b -> b a", {1000000, 1});
  for (std::size_t i = 0; i < capacity + 500; ++i) {
    (void)rearrange_plan("a b -> b a", {static_cast<std::int64_t>(i) + 1, 2});
    ASSERT_LE(einops::detail::plan_cache_size(), capacity) << "after " << i + 1 << " insertions";
    // A key in constant use stays cached across generations.
    ASSERT_EQ(rearrange_plan("a b -> b a", {1000000, 1}).get(), hot.get()) << "after " << i + 1 << " insertions";
  }
  EXPECT_GE(einops::detail::plan_cache_size(), 1u);
  einops::detail::clear_plan_cache();
  EXPECT_EQ(einops::detail::plan_cache_size(), 0u);
}

TEST(PlanCache, ConcurrentUse) {
  einops::detail::clear_plan_cache();
  constexpr int kThreads = 8;
  constexpr int kCalls = 1500;
  std::atomic<int> failures{0};
  std::atomic<int> exceptions{0};
  const auto worker = [&](int thread) {
    for (int call = 0; call < kCalls; ++call) {
      try {
        // Mostly a handful of hot keys, sometimes a shape no thread has used yet.
        const bool fresh = call % 5 == 0;
        const std::int64_t rows = fresh ? 2 + (thread * kCalls + call) % 700 : 2 + call % 3;
        const std::int64_t cols = fresh ? 3 : 4;
        const auto x = Tensor<std::int32_t>::arange({rows, cols});
        switch (call % 3) {
          case 0: {  // a copying permutation
            const auto y = einops::rearrange(x, "a b -> (b a)");
            for (std::int64_t a = 0; a < rows; ++a)
              for (std::int64_t b = 0; b < cols; ++b)
                if (y.at({b * rows + a}) != a * cols + b) ++failures;
            break;
          }
          case 1: {  // a reduction
            const auto y = einops::reduce(x, "a b -> b", "sum").as<std::int64_t>();
            for (std::int64_t b = 0; b < cols; ++b)
              if (y.at({b}) != cols * rows * (rows - 1) / 2 + rows * b) ++failures;
            break;
          }
          default: {  // a repeat with a given length
            const auto y = einops::repeat(x, "a b -> a (r b)", {{"r", 2}});
            for (std::int64_t a = 0; a < rows; ++a)
              for (std::int64_t b = 0; b < 2 * cols; ++b)
                if (y.at({a, b}) != a * cols + b % cols) ++failures;
            break;
          }
        }
      } catch (...) {
        ++exceptions;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(exceptions.load(), 0);
  EXPECT_LE(einops::detail::plan_cache_size(), einops::detail::plan_cache_capacity());
  // After the storm, hot keys still resolve to one object.
  const auto p = get_plan(Operation::reduce, "sum", "a b -> b", Shape{3, 4}, {});
  EXPECT_EQ(get_plan(Operation::reduce, "sum", "a b -> b", Shape{3, 4}, {}).get(), p.get());
}

TEST(PlanCache, ConcurrentFirstUseAgrees) {
  // Many threads asking for one new key at once all get a correct plan, and afterwards one object.
  einops::detail::clear_plan_cache();
  std::vector<einops::Shared<const einops::Plan>> plans(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < plans.size(); ++t)
    threads.emplace_back([&plans, t] { plans[t] = rearrange_plan("b (h w) -> b h w", {4, 12}, {{"h", 3}}); });
  for (auto& thread : threads) thread.join();
  for (const auto& plan : plans) EXPECT_EQ(plan->output_shape, (Shape{4, 3, 4}));
  const auto settled = rearrange_plan("b (h w) -> b h w", {4, 12}, {{"h", 3}});
  EXPECT_EQ(rearrange_plan("b (h w) -> b h w", {4, 12}, {{"h", 3}}).get(), settled.get());
}

/// An entry of the recent-entries tests: a number looked up by itself.
struct Number {
  int value = -1;
  bool matches(int key) const { return value == key; }
};

TEST(RecentEntries, TheEntryUsedLastIsFoundWithoutAHash) {
  einops::detail::RecentEntries<Number, 4> recent;
  int hashes = 0;
  const auto hash_of = [&hashes](int key) {
    return [&hashes, key] {
      ++hashes;
      return static_cast<std::uint64_t>(key);
    };
  };
  auto miss = recent.find(5, hash_of(5));
  EXPECT_EQ(miss.hit, nullptr);
  EXPECT_EQ(miss.set, 1u);
  recent.store(miss, [](Number& entry) { entry.value = 5; });
  const int after_store = hashes;
  const auto hit = recent.find(5, hash_of(5));
  ASSERT_NE(hit.hit, nullptr);
  EXPECT_EQ(hit.hit->value, 5);
  EXPECT_EQ(hashes, after_store);
  recent.store(recent.find(6, hash_of(6)), [](Number& entry) { entry.value = 6; });
  EXPECT_EQ(recent.find(5, hash_of(5)).hit->value, 5);  // in its own set, found through the hash
  EXPECT_EQ(hashes, after_store + 2);
}

TEST(RecentEntries, ANewEntryReplacesTheOldestOfItsSet) {
  einops::detail::RecentEntries<Number, 1, 3> recent;
  for (int value = 0; value < 4; ++value)
    recent.store(recent.find(value), [value](Number& entry) { entry.value = value; });
  EXPECT_EQ(recent.find(0).hit, nullptr);  // the oldest gave way to 3
  for (int value = 1; value < 4; ++value) {
    ASSERT_NE(recent.find(value).hit, nullptr);
    EXPECT_EQ(recent.find(value).hit->value, value);
  }
}

TEST(RecentEntries, AFailedFillAndClearLeaveNoEntry) {
  einops::detail::RecentEntries<Number, 1, 2> recent;
  recent.store(recent.find(1), [](Number& entry) { entry.value = 1; });
  EXPECT_THROW(recent.store(recent.find(2),
                            [](Number& entry) {
                              entry.value = 2;
                              throw std::runtime_error("no value");
                            }),
               std::runtime_error);
  EXPECT_EQ(recent.find(2).hit, nullptr);
  EXPECT_NE(recent.find(1).hit, nullptr);
  recent.clear();
  EXPECT_EQ(recent.find(1).hit, nullptr);
}

}  // namespace
