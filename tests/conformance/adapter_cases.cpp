#include "adapter_cases.hpp"

#include <algorithm>
#include <cstdint>

#include "compare.hpp"
#include "einops/pattern.hpp"
#include "einops/plan.hpp"
#include "inputs.hpp"

namespace conformance::adapters {

std::string read_call(const Case& c, Call& call) {
  try {
    const std::string dtype_text = c.raw.at("dtype").get<std::string>();
    const auto dtype = parse_dtype(dtype_text);
    if (!dtype) return "unknown dtype '" + dtype_text + "'";
    call.dtype = *dtype;
    call.list = c.list_input();
    call.inputs = make_inputs(*dtype, c.shapes());
    call.lengths = c.axes_lengths();
    if (c.op == "reduce") {
      if (!c.raw.contains("reduction") || !c.raw.at("reduction").is_string())
        return "reduce without a string 'reduction'";
      call.reduction = c.raw.at("reduction").get<std::string>();
    }
    if (c.op == "unpack") call.packed = c.raw.at("packed_shapes").get<std::vector<einops::Shape>>();
    if (call.inputs.empty() && c.op != "pack") return "no input";
    if (!call.list && call.inputs.size() != 1 && c.op != "pack" && c.op != "einsum")
      return "a single-input op with " + std::to_string(call.inputs.size()) + " shapes";
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

std::optional<PlannedResult> planned_result(const Case& c, const Call& call) {
  const einops::AnyTensor& first = call.inputs.front();
  einops::Shape shape;
  if (call.list) shape.push_back(static_cast<std::int64_t>(call.inputs.size()));
  shape.insert(shape.end(), first.shape().begin(), first.shape().end());
  const einops::Operation operation = c.op == "rearrange" ? einops::Operation::rearrange
                                      : c.op == "repeat"  ? einops::Operation::repeat
                                                          : einops::Operation::reduce;
  try {
    const auto plan = einops::get_plan(
        operation,
        operation == einops::Operation::reduce ? std::optional<std::string_view>(call.reduction) : std::nullopt,
        einops::PatternRef(std::string_view(c.pattern)), shape, call.lengths);
    einops::DType dtype = call.dtype;
    if (plan->reduction && !plan->reduced_axes.empty()) dtype = einops::reduction_result_dtype(*plan->reduction, dtype);
    return PlannedResult{plan->output_shape.size(), dtype};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::size_t> pack_rank(const std::string& pattern) {
  const auto parsed = einops::parse_pack_pattern(pattern);
  if (!parsed.ok()) return std::nullopt;
  return parsed.value.before.size() + parsed.value.after.size() + 1;
}

std::optional<std::vector<std::size_t>> unpack_ranks(const std::string& pattern,
                                                     const std::vector<einops::Shape>& packed) {
  const auto parsed = einops::parse_pack_pattern(pattern);
  if (!parsed.ok()) return std::nullopt;
  std::vector<std::size_t> ranks;
  for (const einops::Shape& shape : packed) ranks.push_back(parsed.value.min_rank() + shape.size());
  return ranks;
}

std::optional<std::size_t> einsum_rank(const std::string& pattern, const std::vector<std::size_t>& operand_ranks) {
  const auto parsed = einops::parse_einsum_pattern(pattern);
  if (!parsed.ok()) return std::nullopt;
  const einops::Expression& output = parsed.value.output;
  if (!output.has_ellipsis) return output.groups.size();
  std::size_t ellipsis = 0;  // numpy broadcasting: the longest ellipsis among the operands
  for (std::size_t k = 0; k < parsed.value.inputs.size() && k < operand_ranks.size(); ++k) {
    const einops::Expression& input = parsed.value.inputs[k];
    if (!input.has_ellipsis) continue;
    const std::size_t named = input.groups.size() - 1;
    if (operand_ranks[k] >= named) ellipsis = std::max(ellipsis, operand_ranks[k] - named);
  }
  return output.groups.size() - 1 + ellipsis;
}

ValueMatch value_match(const Case& c) {
  if (c.op == "einsum") {
    const std::string dtype = c.raw.at("dtype").get<std::string>();
    return dtype == "float64" ? ValueMatch::approximate : ValueMatch::exact;
  }
  if (c.op == "reduce") {
    const std::string reduction = c.raw.at("reduction").get<std::string>();
    return reduction == "mean" || reduction == "prod" ? ValueMatch::approximate : ValueMatch::exact;
  }
  return ValueMatch::exact;
}

std::string check_packed(const Case& c, const einops::AnyTensor& tensor, const std::vector<einops::Shape>& shapes) {
  if (std::string why = check_array(c.expect(), tensor, ValueMatch::exact); !why.empty()) return why;
  const Json& want = c.expect().at("packed_shapes");
  if (want.get<std::vector<einops::Shape>>() != shapes) return "packed_shapes: expected " + want.dump();
  return {};
}

std::string check_parts(const Case& c, const std::vector<einops::AnyTensor>& parts) {
  const Json& outputs = c.expect().at("outputs");
  if (outputs.size() != parts.size())
    return "outputs: expected " + std::to_string(outputs.size()) + " tensors, got " + std::to_string(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i)
    if (std::string why = check_array(outputs[i], parts[i], ValueMatch::exact); !why.empty())
      return "output " + std::to_string(i) + ": " + why;
  return {};
}

}  // namespace conformance::adapters
