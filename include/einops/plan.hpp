// Pattern + input shape + axis lengths + operation -> Plan: everything an executor needs.
//
// All checks of shapes and lengths happen here, once; plans are cached by the full key
// (operation, reduction, pattern text, shape, axis lengths) in a bounded, thread-safe cache, so a
// repeated call does no parsing and allocates nothing for its plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/reduction.hpp"
#include "einops/export.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/pattern_checks.hpp"
#include "einops/storage.hpp"
#include "einops/tensor.hpp"

namespace einops {
namespace detail {
struct PlanKernels;  // the kernels' walk and schedules of a plan (detail/plan_kernels.hpp)
}  // namespace detail

/// Axis lengths given by the caller, the C++ spelling of einops' keyword arguments:
/// `{{"h2", 2}, {"w2", 2}}`. Order is kept (it is part of the cache key, as in einops).
class AxisLengths {
 public:
  using Entry = std::pair<std::string, std::int64_t>;
  AxisLengths() = default;
  // Out of line: less code per call.
  EINOPS_API AxisLengths(std::initializer_list<std::pair<std::string_view, std::int64_t>> entries);
  explicit AxisLengths(std::vector<Entry> entries) : entries_(std::move(entries)) {}
  /// From a map of names to lengths (std::map: in name order).
  template <class Map>
    requires requires(const Map& map) {
      std::string(map.begin()->first);
      std::int64_t{map.begin()->second};
    }
  explicit AxisLengths(const Map& entries) {
    for (const auto& [name, length] : entries) entries_.emplace_back(std::string(name), length);
  }

  EINOPS_API void add(std::string_view name, std::int64_t length);
  std::span<const Entry> entries() const { return {entries_.data(), entries_.size()}; }  // see detail::as_span
  bool empty() const { return entries_.empty(); }
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
};

/// The shape-specific recipe of one rearrange/reduce/repeat call.
///
/// "Input axes" are the elementary axes of the input in input order (compositions split, the
/// ellipsis expanded); "output axes" are the elementary axes of the output in output order.
struct Plan {
  Operation operation = Operation::rearrange;
  std::optional<Reduction> reduction;  // set for reduce() with a named reduction that reduces
  std::string pattern;
  Shape input_shape;

  std::vector<std::string> input_axis_names;  // "b", "h2", "3", "...0" for ellipsis dims
  Shape input_axis_lengths;
  std::vector<int> input_axis_dim;  // the input dimension each input axis was split from

  std::vector<std::string> output_axis_names;
  Shape output_axis_lengths;
  std::vector<int> output_axis_source;  // input axis feeding each output axis, or -1 for an added axis
  std::vector<int> output_axis_dim;     // the output dimension each output axis is merged into

  std::vector<int> reduced_axes;   // input axes that are reduced, in input order
  std::vector<int> permutation;    // einops' order: kept input axes in output order, then reduced
  std::int64_t reduced_count = 1;  // elements reduced into each output element
  Shape output_shape;
  std::int64_t output_size = 0;

  /// The kernels' walk of row-major tensors and its copy schedules, made with the plan.
  Shared<const detail::PlanKernels> kernels;

  bool has_added_axes() const {
    for (int source : output_axis_source)
      if (source < 0) return true;
    return false;
  }
  /// True when no element needs to move: the output is a view for suitably strided inputs.
  bool is_pure_view_candidate() const { return reduced_axes.empty() && !has_added_axes(); }
};

/// Builds a plan without the cache (tests, tools). Throws EinopsError. The pattern text is parsed
/// once per process (literal or not) and its parse cached.
EINOPS_API Shared<const Plan> make_plan(Operation operation, const std::optional<std::string_view>& reduction,
                                        const PatternRef& pattern, std::span<const std::int64_t> shape,
                                        const AxisLengths& lengths);

/// The cached version: the same plan object for the same full key.
EINOPS_API Shared<const Plan> get_plan(Operation operation, const std::optional<std::string_view>& reduction,
                                       const PatternRef& pattern, std::span<const std::int64_t> shape,
                                       const AxisLengths& lengths);

/// Parses and checks a reduction name ("min", ..., "all"; "rearrange" and "repeat" mean none).
/// Throws EinopsError naming the pattern for an unknown name.
EINOPS_API std::optional<Reduction> parse_reduction(std::string_view name, std::string_view pattern);

namespace detail {

/// get_plan without the shared ownership (no reference-count traffic on the hot path): the plan
/// stays valid until this thread's next get_plan or borrow_plan. For calls that look up no other
/// plan and run no user code while they use it (rearrange, reduce, repeat and their _into forms).
EINOPS_API const Plan& borrow_plan(Operation operation, const std::optional<std::string_view>& reduction,
                                   const PatternRef& pattern, std::span<const std::int64_t> shape,
                                   const AxisLengths& lengths);

/// Entries and capacity of the plan cache (for tests and diagnostics).
EINOPS_API std::size_t plan_cache_size();
EINOPS_API std::size_t plan_cache_capacity();
EINOPS_API void clear_plan_cache();
/// Entries and capacity of the cache of parsed run-time patterns (same purpose).
EINOPS_API std::size_t pattern_cache_size();
EINOPS_API std::size_t pattern_cache_capacity();

}  // namespace detail
}  // namespace einops
