// describe_einsum: the plan einsum would run for these shapes, in words, without touching memory.
#include <string>
#include <utility>
#include <vector>

#include "../call_context.hpp"
#include "../operation_patterns.hpp"
#include "contract.hpp"
#include "einops/detail/einsum_description.hpp"
#include "einsum_plan.hpp"

namespace einops::detail {
namespace {

using einsum::EinsumPlan;
using einsum::Labels;
using einsum::Term;

std::string axes_text(const EinsumPlan& plan, const Labels& labels) {
  std::string text = "(";
  for (std::size_t i = 0; i < labels.size(); ++i)
    text.append(i ? " " : "").append(plan.label_names[static_cast<std::size_t>(labels[i])]);
  return text + ")";
}

/// The output as einsum writes it: row-major, its length-1 dimensions carrying no index.
Term output_layout(const EinsumPlan& plan, DType dtype) {
  Labels indexed;
  for (int label : plan.output_labels)
    if (plan.extent[static_cast<std::size_t>(label)] > 1) indexed.push_back(label);
  return einsum::dense_layout(dtype, indexed, plan.extent);
}

}  // namespace

EinsumDescription describe_einsum(std::string_view pattern, std::span<const Shape> shapes, DType dtype) {
  std::vector<AnyTensor> operands;  // shapes only: no data behind them
  for (const Shape& shape : shapes) operands.emplace_back(dtype, nullptr, nullptr, shape, row_major_strides(shape));
  const CallContext context{"einsum", pattern, operands};
  const auto parsed = einsum_pattern(pattern, context);
  if (operands.empty()) context.fail("einsum needs at least one tensor");
  auto plan_owner = einsum::get_plan(*parsed, operands, context);
  const bool half = is_floating(dtype) && dtype_size(dtype) == 2;
  const bool widened = half && !plan_owner->has_empty_label && !einsum::reads_operands_in_place(*plan_owner);
  if (widened) {  // einsum runs float32 copies by float32's plan
    for (AnyTensor& operand : operands) {
      const Shape shape(operand.shape().begin(), operand.shape().end());
      operand = AnyTensor(DType::float32, nullptr, nullptr, shape, row_major_strides(shape));
    }
    plan_owner = einsum::get_plan(*parsed, operands, context);
  }
  const EinsumPlan& plan = *plan_owner;
  const DType step_type = widened ? DType::float32 : dtype;

  EinsumDescription description;
  for (std::size_t label = 0; label < plan.extent.size(); ++label)
    description.axes.emplace_back(plan.label_names[label], plan.extent[label]);
  description.output_shape = plan.output_shape;

  std::vector<Term> terms;
  std::vector<std::string> term_names;
  for (std::size_t k = 0; k < operands.size(); ++k) {
    terms.push_back(einsum::operand_term(operands[k], plan.operand_dims[k]));
    term_names.push_back("operand " + std::to_string(k) + " " + axes_text(plan, terms.back().labels));
  }
  const Term output = output_layout(plan, step_type);
  if (plan.steps.empty())
    description.single_operand = output.labels.size() == terms.front().labels.size()
                                     ? "a permuted copy into the output " + axes_text(plan, output.labels)
                                     : "summed into the output " + axes_text(plan, output.labels);
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const einsum::Step& step = plan.steps[s];
    const Term& a = terms[step.first];
    const Term& b = terms[step.second];
    const bool last = s + 1 == plan.steps.size();
    const Term product =
        last ? output : einsum::dense_layout(step_type, einsum::product_layout(a, b, step.result), plan.extent);
    EinsumStepDescription& text = description.steps.emplace_back();
    text.first = term_names[step.first];
    text.second = term_names[step.second];
    text.result = (last ? "the output " : "product " + std::to_string(s + 1) + " ") + axes_text(plan, product.labels);
    text.kernel = einsum::describe_contraction(a, b, product, plan.extent, step.route);
    for (std::size_t index : {step.second, step.first}) {
      terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(index));
      term_names.erase(term_names.begin() + static_cast<std::ptrdiff_t>(index));
    }
    terms.push_back(product);
    term_names.push_back("product " + std::to_string(s + 1) + " " + axes_text(plan, product.labels));
  }

  if (plan.has_empty_label)
    description.note = "an axis has length 0: every sum is empty, the output is zeros and no kernel runs";
  else if (half && !widened)
    description.note = std::string(dtype_name(dtype)) + " is read in place, accumulated in float32 and rounded once";
  else if (half)
    description.note = std::string(dtype_name(dtype)) +
                       " operands are converted to float32, the steps run in float32, the result is rounded once";
  return description;
}

}  // namespace einops::detail
