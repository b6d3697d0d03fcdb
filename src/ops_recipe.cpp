// einops' recipe for backends that bring their own ops (tensor_traits' TensorOps way, LibTorch's
// adapter among them), planned from the cached Plan and kept per thread for repeated calls.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "einops/detail/adapter_call.hpp"
#include "cache_keys.hpp"
#include "call_context.hpp"
#include "recent_entries.hpp"

namespace einops::detail {
namespace {

OpsRecipe make_recipe(Operation operation, std::optional<std::string_view> reduction,
                      std::span<const std::int64_t> shape, std::optional<DType> dtype, PatternRef pattern,
                      const AxisLengths& lengths) {
  const auto plan =
      get_plan(operation, operation == Operation::reduce ? reduction : std::nullopt, pattern, shape, lengths);
  OpsRecipe recipe;
  recipe.elementary_shape = plan->input_axis_lengths;
  recipe.reshape_in = !std::ranges::equal(shape, recipe.elementary_shape);
  recipe.output_shape = plan->output_shape;
  if (plan->reduction && !plan->reduced_axes.empty()) {
    if (dtype) check_reduction_dtype(*plan, *dtype, shape, lengths);
    recipe.reduction = plan->reduction;
    recipe.reduced_axes.assign(plan->reduced_axes.begin(), plan->reduced_axes.end());
    std::ranges::sort(recipe.reduced_axes);
  }
  // After the reduction the kept axes remain in input order; the plan lists them in output order.
  const std::size_t input_axes = plan->input_axis_lengths.size();
  std::vector<std::int64_t> position_after_reduce(input_axes, -1);
  Shape kept_shape;
  for (std::size_t axis = 0; axis < input_axes; ++axis)
    if (!std::ranges::binary_search(recipe.reduced_axes, static_cast<std::int64_t>(axis))) {
      position_after_reduce[axis] = static_cast<std::int64_t>(kept_shape.size());
      kept_shape.push_back(recipe.elementary_shape[axis]);
    }
  bool identity = true;
  Shape current;
  for (int source : plan->output_axis_source) {
    if (source < 0) continue;
    const std::int64_t position = position_after_reduce[static_cast<std::size_t>(source)];
    identity = identity && position == static_cast<std::int64_t>(recipe.permutation.size());
    recipe.permutation.push_back(position);
    current.push_back(kept_shape[static_cast<std::size_t>(position)]);
  }
  if (identity) recipe.permutation.clear();
  if (plan->has_added_axes()) {
    for (std::size_t i = 0; i < plan->output_axis_source.size(); ++i) {
      const bool added = plan->output_axis_source[i] < 0;
      recipe.expanded_shape.push_back(added ? 1 : plan->output_axis_lengths[i]);
      recipe.broadcast_shape.push_back(plan->output_axis_lengths[i]);
    }
    current = recipe.broadcast_shape;
  }
  recipe.reshape_out = current != recipe.output_shape;
  return recipe;
}

/// What identifies a call's recipe. A literal pattern is known by its address (static storage),
/// any other by its text.
struct Key {
  Operation operation;
  std::string_view reduction;
  int dtype;  // -1: unknown
  PatternRef pattern;
  std::span<const std::int64_t> shape;
  std::span<const AxisLengths::Entry> lengths;

  std::uint64_t hash() const {
    std::uint64_t h = hash_mix(static_cast<std::uint64_t>(operation), static_cast<std::uint64_t>(dtype + 1));
    h = pattern.literal
            ? hash_mix(hash_mix(h, reinterpret_cast<std::uintptr_t>(pattern.text.data())), pattern.text.size())
            : hash_text(h, pattern.text);
    if (!reduction.empty()) h = hash_text(h, reduction);
    for (std::int64_t length : shape) h = hash_mix(h, static_cast<std::uint64_t>(length));
    for (const auto& [name, length] : lengths) h = hash_mix(hash_text(h, name), static_cast<std::uint64_t>(length));
    return h;
  }
};

/// A recipe with the key it was made for.
struct RecentRecipe {
  Operation operation = Operation::rearrange;
  std::string reduction;
  int dtype = -1;
  const char* literal = nullptr;  // a literal's address, else null and `text` holds the pattern
  std::string text;
  std::size_t text_size = 0;
  Shape shape;
  std::vector<AxisLengths::Entry> lengths;
  OpsRecipe recipe;

  bool matches(const Key& key) const {
    return operation == key.operation && dtype == key.dtype &&
           (key.pattern.literal ? literal == key.pattern.text.data() && text_size == key.pattern.text.size()
                                : literal == nullptr && same_text(text, key.pattern.text)) &&
           same_text(reduction, key.reduction) && same_shape(shape, key.shape) &&
           std::ranges::equal(lengths, key.lengths);
  }
  void assign(const Key& key, OpsRecipe made) {
    recipe = std::move(made);
    operation = key.operation;
    reduction.assign(key.reduction);
    dtype = key.dtype;
    literal = key.pattern.literal ? key.pattern.text.data() : nullptr;
    text.assign(key.pattern.literal ? std::string_view() : key.pattern.text);
    text_size = key.pattern.text.size();
    shape.assign(key.shape.begin(), key.shape.end());
    lengths.assign(key.lengths.begin(), key.lengths.end());
  }
};

/// Direct-mapped, per thread: enough for the distinct calls of a model's forward pass.
constexpr std::size_t kRecentRecipes = 64;

struct ThreadRecipes {
  RecentEntries<RecentRecipe, kRecentRecipes> recent;
  int uses = 0;                                          // OpsRecipeUses alive on this thread
  std::vector<std::unique_ptr<const OpsRecipe>> nested;  // recipes of calls made while another is in use
};

ThreadRecipes& thread_recipes() {
  thread_local ThreadRecipes recipes;
  return recipes;
}

}  // namespace

OpsRecipeUse::OpsRecipeUse(Operation operation, std::optional<std::string_view> reduction,
                           std::span<const std::int64_t> shape, std::optional<DType> dtype, PatternRef pattern,
                           const AxisLengths& lengths) {
  ThreadRecipes& recipes = thread_recipes();
  if (recipes.uses > 0) {
    // A call from inside the library's ops: the slots may hold the recipe in use, so leave them be.
    recipes.nested.push_back(
        std::make_unique<const OpsRecipe>(make_recipe(operation, reduction, shape, dtype, pattern, lengths)));
    recipe_ = recipes.nested.back().get();
    ++recipes.uses;
    return;
  }
  const Key key{operation,
                operation == Operation::reduce ? reduction.value_or(std::string_view()) : std::string_view(),
                dtype ? static_cast<int>(*dtype) : -1,
                pattern,
                shape,
                lengths.entries()};
  const auto lookup = recipes.recent.find(key, [&key] { return key.hash(); });
  if (lookup.hit) {
    recipe_ = &lookup.hit->recipe;
  } else {
    OpsRecipe made = make_recipe(operation, reduction, shape, dtype, pattern, lengths);  // throws if invalid
    recipe_ = &recipes.recent.store(lookup, [&](RecentRecipe& entry) { entry.assign(key, std::move(made)); }).recipe;
  }
  ++recipes.uses;
}

OpsRecipeUse::~OpsRecipeUse() {
  ThreadRecipes& recipes = thread_recipes();
  if (--recipes.uses == 0) recipes.nested.clear();
}

}  // namespace einops::detail
