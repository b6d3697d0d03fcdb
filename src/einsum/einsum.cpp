// einsum on AnyTensor: the cached plan, then its pairwise contractions in greedy order; the last
// one (or the single operand's sum) writes straight into the result.
#include "einops/einsum.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../call_context.hpp"
#include "../operation_patterns.hpp"
#include "contract.hpp"
#include "einops/detail/kernels.hpp"
#include "einops/detail/walk.hpp"
#include "einsum_plan.hpp"

namespace einops {
namespace {

using detail::einsum::EinsumPlan;
using detail::einsum::Term;

Term output_term(const AnyTensor& out, const EinsumPlan& plan) {
  Term term;
  term.dtype = out.dtype();
  term.data = out.data();
  for (std::size_t d = 0; d < plan.output_labels.size(); ++d) {
    if (out.shape()[d] == 1) continue;  // carries no index
    term.labels.push_back(plan.output_labels[d]);
    term.strides.push_back(out.strides()[d]);
  }
  return term;
}

void execute(const EinsumPlan& plan, std::span<const AnyTensor> operands, const AnyTensor& out) {
  std::vector<Term> terms;
  terms.reserve(operands.size());
  for (std::size_t k = 0; k < operands.size(); ++k)
    terms.push_back(detail::einsum::operand_term(operands[k], plan.operand_dims[k]));
  const Term result = output_term(out, plan);
  if (plan.steps.empty()) {
    detail::einsum::sum_into(terms.front(), result, plan.extent);
    return;
  }
  for (std::size_t s = 0; s < plan.steps.size(); ++s) {
    const detail::einsum::Step& step = plan.steps[s];
    const Term& a = terms[step.first];
    const Term& b = terms[step.second];
    Term product;
    if (s + 1 == plan.steps.size()) {
      detail::einsum::contract_into(a, b, result, plan.extent, step.route);
      return;
    }
    product = detail::einsum::make_dense(a.dtype, detail::einsum::product_layout(a, b, step.result), plan.extent);
    detail::einsum::contract_into(a, b, product, plan.extent, step.route);
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(step.second));
    terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(step.first));
    terms.push_back(std::move(product));
  }
}

bool is_half_precision(DType type) { return is_floating(type) && dtype_size(type) == 2; }

/// A copy of `x` converted element by element, between a 16-bit float type and float32.
AnyTensor convert(const AnyTensor& x, DType to) {
  AnyTensor out(to, Shape(x.shape().begin(), x.shape().end()));
  visit_dtype(x.dtype(), [&](auto from_tag) {
    visit_dtype(to, [&](auto to_tag) {
      using From = decltype(from_tag);
      using To = decltype(to_tag);
      if constexpr (std::is_same_v<From, float> || std::is_same_v<To, float>) {
        const auto values = x.as<From>().to_vector();
        To* target = static_cast<To*>(out.data());
        for (std::size_t i = 0; i < values.size(); ++i) target[i] = static_cast<To>(static_cast<float>(values[i]));
      }
    });
  });
  return out;
}

/// The checked plan of one call: the pattern, the operands' count, dtypes and shapes.
std::shared_ptr<const EinsumPlan> plan_for(std::span<const AnyTensor> operands, const detail::CallContext& context) {
  const auto parsed = detail::einsum_pattern(context.pattern, context);
  if (operands.empty()) context.fail("einsum needs at least one tensor");
  const DType dtype = operands.front().dtype();
  for (std::size_t k = 1; k < operands.size(); ++k)
    if (operands[k].dtype() != dtype)
      context.fail("All operands must have one dtype: operand 0 is " + std::string(dtype_name(dtype)) + ", operand " +
                   std::to_string(k) + " is " + std::string(dtype_name(operands[k].dtype())));
  return detail::einsum::get_plan(*parsed, operands, context);
}

/// The result when no kernel runs on the operands' own type: zeros for an empty sum, and the
/// 16-bit floats, which are computed in float32 (as numpy accumulates them) and rounded once,
/// through float32 copies of the operands, by float32's plan (its routes), unless
/// reads_operands_in_place.
std::optional<AnyTensor> special_result(const EinsumPlan& plan, std::span<const AnyTensor> operands,
                                        const detail::CallContext& context) {
  const DType dtype = operands.front().dtype();
  if (plan.has_empty_label) return AnyTensor(dtype, plan.output_shape);  // every sum is empty
  if (!is_half_precision(dtype) || detail::einsum::reads_operands_in_place(plan)) return std::nullopt;
  std::vector<AnyTensor> widened;
  widened.reserve(operands.size());
  for (const AnyTensor& x : operands) widened.push_back(convert(x, DType::float32));
  const auto wide_plan = plan_for(widened, context);
  const AnyTensor out = detail::einsum::uninitialized_tensor(DType::float32, wide_plan->output_shape);
  execute(*wide_plan, widened, out);
  return convert(out, dtype);
}

}  // namespace

AnyTensor einsum(std::span<const AnyTensor> operands, einsum_pattern<> pattern_arg) {
  const std::string_view pattern = pattern_arg.text();
  const detail::CallContext context{"einsum", pattern, operands};
  const auto plan = plan_for(operands, context);
  if (auto special = special_result(*plan, operands, context)) return std::move(*special);
  AnyTensor out = detail::einsum::uninitialized_tensor(operands.front().dtype(), plan->output_shape);
  execute(*plan, operands, out);
  return out;
}

void einsum_into(std::span<const AnyTensor> operands, const AnyTensor& out, einsum_pattern<> pattern_arg) {
  const std::string_view pattern = pattern_arg.text();
  const detail::CallContext context{"einsum", pattern, operands};
  const auto plan = plan_for(operands, context);
  const DType dtype = operands.front().dtype();
  const auto out_shape = out.shape();
  if (out.dtype() != dtype ||
      !std::equal(out_shape.begin(), out_shape.end(), plan->output_shape.begin(), plan->output_shape.end()))
    context.fail("Output tensor is " + detail::format_shape(out_shape) + " " + std::string(dtype_name(out.dtype())) +
                 ", the result is " + detail::format_shape(plan->output_shape) + " " + std::string(dtype_name(dtype)));
  if (auto special = special_result(*plan, operands, context)) {
    detail::copy_layout(dtype_size(dtype), out_shape, special->data(), special->strides(), out.data(), out.strides());
    return;
  }
  execute(*plan, operands, out);
}

}  // namespace einops
