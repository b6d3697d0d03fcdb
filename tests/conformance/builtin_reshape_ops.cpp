// rearrange, reduce and repeat on the built-in tensor (einops::AnyTensor), single or list input.
#include <span>
#include <string>
#include <vector>

#include "backend.hpp"
#include "einops/ops.hpp"
#include "expect.hpp"
#include "inputs.hpp"

namespace conformance {
namespace {

struct Call {
  std::vector<einops::AnyTensor> inputs;
  einops::AxisLengths lengths;
  bool list = false;
};

// Reads the case's inputs; returns a failure reason for a malformed case.
std::string prepare(const Case& c, Call& call) {
  const std::string dtype_text = c.raw.at("dtype").get<std::string>();
  const auto dtype = parse_dtype(dtype_text);
  if (!dtype) return "unknown dtype '" + dtype_text + "'";
  const std::vector<einops::Shape> shapes = c.shapes();
  call.list = c.list_input();
  if (!call.list && shapes.size() != 1)
    return "a single-input op with " + std::to_string(shapes.size()) + " shapes and no list_input";
  call.inputs = make_inputs(*dtype, shapes);
  call.lengths = c.axes_lengths();
  return {};
}

template <class Op>
Outcome run(const Case& c, Op&& op, ValueMatch match) {
  Call call;
  try {
    if (std::string why = prepare(c, call); !why.empty()) return Outcome::fail("malformed case: " + why);
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  return expect_array(
      c,
      [&]() -> einops::AnyTensor {
        if (call.list) return op(std::span<const einops::AnyTensor>(call.inputs), call.lengths);
        return op(call.inputs.front(), call.lengths);
      },
      match);
}

Outcome run_rearrange(const Case& c) {
  return run(
      c, [&](const auto& x, const einops::AxisLengths& lengths) { return einops::rearrange(x, c.pattern, lengths); },
      ValueMatch::exact);
}

Outcome run_repeat(const Case& c) {
  return run(
      c, [&](const auto& x, const einops::AxisLengths& lengths) { return einops::repeat(x, c.pattern, lengths); },
      ValueMatch::exact);
}

Outcome run_reduce(const Case& c) {
  if (!c.raw.contains("reduction") || !c.raw.at("reduction").is_string())
    return Outcome::fail("malformed case: reduce without a string 'reduction'");
  const std::string reduction = c.raw.at("reduction").get<std::string>();
  // Products and means of many float64 values round differently with the evaluation order.
  const ValueMatch match = reduction == "mean" || reduction == "prod" ? ValueMatch::approximate : ValueMatch::exact;
  return run(
      c,
      [&](const auto& x, const einops::AxisLengths& lengths) {
        return einops::reduce(x, c.pattern, reduction, lengths);
      },
      match);
}

}  // namespace

void register_builtin_reshape_ops(OpTable& ops) {
  ops.emplace("rearrange", &run_rearrange);
  ops.emplace("reduce", &run_reduce);
  ops.emplace("repeat", &run_repeat);
}

}  // namespace conformance
