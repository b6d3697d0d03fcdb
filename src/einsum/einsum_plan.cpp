#include "einsum_plan.hpp"

#include <limits>
#include <string>
#include <utility>

#include "../bounded_cache.hpp"
#include "einops/detail/platform.hpp"
#include "einops/detail/walk.hpp"

namespace einops::detail::einsum {
namespace {

/// The label of each name, in order of first appearance across the operands (as einops numbers them).
struct LabelNames {
  std::vector<std::string_view> names;
  int find(std::string_view name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return -1;
  }
  int add(std::string_view name) {
    const int found = find(name);
    if (found >= 0) return found;
    names.push_back(name);
    return static_cast<int>(names.size() - 1);
  }
};

std::string label_text(const LabelNames& names, int label) {
  std::string text;
  if (label < static_cast<int>(names.names.size())) {
    text.append(1, '\'').append(names.names[static_cast<std::size_t>(label)]).append(1, '\'');
    return text;
  }
  return text.append("ellipsis dimension ").append(std::to_string(label - static_cast<int>(names.names.size())));
}

/// numpy's broadcasting of one label's lengths across operands: equal, or one of them is 1.
bool combine(std::int64_t& known, std::int64_t length) {
  if (known == -1 || known == 1) {
    known = length;
    return true;
  }
  return length == 1 || length == known;
}

double size_of(const Labels& labels, const Extents& extent) {
  double size = 1;
  for (int label : labels) size *= static_cast<double>(extent[static_cast<std::size_t>(label)]);
  return size;
}

/// Greedy pairwise order: each step contracts the pair whose product removes the most elements
/// (the size of the result minus the sizes of the pair, as opt_einsum's greedy), the smaller
/// result on a tie, the first pair after that. Each step's kernel is chosen by route.hpp's rule.
std::vector<Step> greedy_order(std::vector<Labels> terms, const Labels& output, const Extents& extent, DType type) {
  std::vector<Step> steps;
  // Labels only one term has and the output lacks are summed away before its first product.
  const auto needed_elsewhere = [&](const std::vector<Labels>& all, std::size_t skip_a, std::size_t skip_b, int label) {
    if (contains(output, label)) return true;
    for (std::size_t t = 0; t < all.size(); ++t)
      if (t != skip_a && t != skip_b && contains(all[t], label)) return true;
    return false;
  };
  for (std::size_t t = 0; t < terms.size(); ++t) {
    Labels kept;
    for (int label : terms[t])
      if (needed_elsewhere(terms, t, t, label)) kept.push_back(label);
    terms[t] = std::move(kept);
  }
  while (terms.size() > 1) {
    std::size_t best_a = 0, best_b = 1;
    Labels best_result;
    double best_cost = std::numeric_limits<double>::infinity(), best_size = best_cost;
    for (std::size_t a = 0; a < terms.size(); ++a)
      for (std::size_t b = a + 1; b < terms.size(); ++b) {
        Labels result;
        for (const Labels* side : {&terms[a], &terms[b]})
          for (int label : *side)
            if (!contains(result, label) && needed_elsewhere(terms, a, b, label)) result.push_back(label);
        const double size = size_of(result, extent);
        const double cost = size - size_of(terms[a], extent) - size_of(terms[b], extent);
        if (cost < best_cost || (cost == best_cost && size < best_size)) {
          best_cost = cost;
          best_size = size;
          best_a = a;
          best_b = b;
          best_result = std::move(result);
        }
      }
    const Route route = choose_route(contraction_sizes(terms[best_a], terms[best_b], best_result, extent), type);
    steps.push_back(Step{best_a, best_b, best_result, route});
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(best_b));
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(best_a));
    terms.push_back(std::move(best_result));
  }
  return steps;
}

std::shared_ptr<const EinsumPlan> make_plan(const EinsumPattern& pattern, std::span<const AnyTensor> operands,
                                            const CallContext& context) {
  if (pattern.inputs.size() != operands.size())
    context.fail("The pattern has " + std::to_string(pattern.inputs.size()) + " operand(s), but " +
                 std::to_string(operands.size()) + " tensor(s) were given");
  auto plan = std::make_shared<EinsumPlan>();

  // Names get labels 0..n-1; the ellipsis dimensions (right-aligned across operands, as numpy
  // broadcasts them) get n..n+e-1.
  LabelNames names;
  std::size_t ellipsis_rank = 0;
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const Expression& expression = pattern.inputs[k];
    for (const Group& group : expression.groups)
      if (!group.is_bare_ellipsis()) names.add(group.axes[0].name);
    const std::size_t named = expression.groups.size() - (expression.has_ellipsis ? 1 : 0);
    const std::size_t rank = operands[k].rank();
    if (expression.has_ellipsis ? rank < named : rank != named)
      context.fail("Operand " + std::to_string(k) + " has rank " + std::to_string(rank) + ", but its pattern names " +
                   std::to_string(named) + (expression.has_ellipsis ? " axes and an ellipsis" : " axes"));
    if (expression.has_ellipsis) ellipsis_rank = std::max(ellipsis_rank, rank - named);
  }
  const int first_ellipsis = static_cast<int>(names.names.size());
  const std::size_t label_count = names.names.size() + ellipsis_rank;
  if (label_count > static_cast<std::size_t>(kMaxRank))
    context.fail("Too many axes: einsum supports at most " + std::to_string(kMaxRank) +
                 " distinct axes, ellipsis dimensions included");

  for (std::string_view name : names.names) plan->label_names.emplace_back(name);
  for (std::size_t e = 0; e < ellipsis_rank; ++e) plan->label_names.push_back("..." + std::to_string(e));
  plan->extent.assign(label_count, -1);
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const Expression& expression = pattern.inputs[k];
    const auto shape = operands[k].shape();
    const std::size_t covered = shape.size() - (expression.groups.size() - (expression.has_ellipsis ? 1 : 0));
    std::vector<int>& dims = plan->operand_dims.emplace_back();
    for (const Group& group : expression.groups) {
      if (!group.is_bare_ellipsis()) {
        dims.push_back(names.find(group.axes[0].name));
        continue;
      }
      for (std::size_t e = 0; e < covered; ++e)
        dims.push_back(first_ellipsis + static_cast<int>(ellipsis_rank - covered + e));
    }
    // Within one operand a repeated label must have one length (numpy does not broadcast a diagonal).
    Extents own(label_count, -1);
    for (std::size_t d = 0; d < dims.size(); ++d) {
      std::int64_t& known = own[static_cast<std::size_t>(dims[d])];
      if (known != -1 && known != shape[d])
        context.fail("Axis " + label_text(names, dims[d]) + " repeats in operand " + std::to_string(k) +
                     " with different lengths (" + std::to_string(known) + " and " + std::to_string(shape[d]) + ")");
      known = shape[d];
    }
    for (std::size_t label = 0; label < label_count; ++label) {
      if (own[label] == -1) continue;
      const std::int64_t before = plan->extent[label];
      if (!combine(plan->extent[label], own[label]))
        context.fail("Axis " + label_text(names, static_cast<int>(label)) + " has length " + std::to_string(before) +
                     " in an earlier operand but " + std::to_string(own[label]) + " in operand " + std::to_string(k) +
                     " (lengths must match or be 1)");
    }
  }
  for (std::int64_t& length : plan->extent)
    if (length == -1) length = 1;  // an ellipsis dimension no operand reaches

  // Length-1 dimensions carry no index; every other dimension names its label.
  for (std::size_t k = 0; k < operands.size(); ++k) {
    Labels& labels = plan->operand_labels.emplace_back();
    for (std::size_t d = 0; d < plan->operand_dims[k].size(); ++d) {
      int& label = plan->operand_dims[k][d];
      if (operands[k].shape()[d] == 1) {
        label = -1;
        continue;
      }
      if (!contains(labels, label)) labels.push_back(label);
    }
  }

  const Expression& output = pattern.output;
  if (!output.has_ellipsis && ellipsis_rank > 0)
    context.fail("The operands' ellipsis covers " + std::to_string(ellipsis_rank) +
                 " dimension(s), but the output has no '...' to put them");
  for (const Group& group : output.groups) {
    if (!group.is_bare_ellipsis()) {
      plan->output_labels.push_back(names.find(group.axes[0].name));
      continue;
    }
    for (std::size_t e = 0; e < ellipsis_rank; ++e) plan->output_labels.push_back(first_ellipsis + static_cast<int>(e));
  }
  for (int label : plan->output_labels) plan->output_shape.push_back(plan->extent[static_cast<std::size_t>(label)]);
  checked_element_count(plan->output_shape);
  for (std::int64_t length : plan->extent) plan->has_empty_label = plan->has_empty_label || length == 0;

  Labels output_indexed;  // output labels that index something (length > 1)
  for (int label : plan->output_labels)
    if (plan->extent[static_cast<std::size_t>(label)] > 1) output_indexed.push_back(label);
  if (operands.size() > 1)
    plan->steps = greedy_order(plan->operand_labels, output_indexed, plan->extent, operands.front().dtype());
  for (const Step& step : plan->steps) {  // intermediates must be addressable, like any tensor
    Shape shape;
    for (int label : step.result) shape.push_back(plan->extent[static_cast<std::size_t>(label)]);
    std::int64_t count = 1;
    for (std::int64_t length : shape)
      if (checked_mul(count, length, count))
        context.fail("An intermediate product of shape " + format_shape(shape) +
                     " has more elements than int64 can count");
  }
  return plan;
}

}  // namespace

bool reads_operands_in_place(const EinsumPlan& plan) {
  if (plan.steps.size() != 1 || plan.steps.front().route == Route::matrix_product) return false;
  for (std::size_t k = 0; k < 2; ++k)
    for (int label : plan.operand_labels[k])
      if (!contains(plan.operand_labels[1 - k], label) && !contains(plan.output_labels, label)) return false;
  return true;
}

namespace {

// ---- the plan cache: (pattern, shapes) -> plan ---------------------------------------------------

constexpr std::size_t kPlanCacheCapacity = 256;

auto& plan_cache() {
  static TextKeyedCache<std::shared_ptr<const EinsumPlan>> cache(kPlanCacheCapacity);
  return cache;
}

/// The pattern, the element type (routes depend on it), then each operand's rank and lengths as
/// raw bytes: equal keys mean equal plans.
void build_key(std::string& key, std::string_view pattern, std::span<const AnyTensor> operands) {
  key.assign(pattern);
  key.push_back('\0');
  key.push_back(static_cast<char>(operands.empty() ? DType::float32 : operands.front().dtype()));
  const auto append = [&key](std::int64_t value) { key.append(reinterpret_cast<const char*>(&value), sizeof value); };
  for (const AnyTensor& operand : operands) {
    append(static_cast<std::int64_t>(operand.rank()));
    for (std::int64_t length : operand.shape()) append(length);
  }
}

}  // namespace

std::shared_ptr<const EinsumPlan> get_plan(const EinsumPattern& pattern, std::span<const AnyTensor> operands,
                                           const CallContext& context) {
  thread_local std::string key;  // reused, so a hit allocates nothing
  build_key(key, context.pattern, operands);
  if (auto hit = plan_cache().find(std::string_view(key))) return *hit;
  auto plan = make_plan(pattern, operands, context);
  plan_cache().insert(key, plan);
  return plan;
}

}  // namespace einops::detail::einsum
