// parse_shape on the built-in tensor: the lengths by name, in pattern order.
#include <string>

#include "backend.hpp"
#include "einops/parse_shape.hpp"
#include "expect.hpp"
#include "inputs.hpp"

namespace conformance {
namespace {

Outcome run_parse_shape(const Case& c) {
  einops::AnyTensor input;
  try {
    const auto dtype = parse_dtype(c.raw.at("dtype").get<std::string>());
    if (!dtype) return Outcome::fail("malformed case: unknown dtype");
    const auto shapes = c.shapes();
    if (shapes.size() != 1) return Outcome::fail("malformed case: parse_shape takes one input");
    input = make_input(*dtype, shapes.front(), 0);
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  return expect_result(
      c, [&] { return einops::parse_shape(input, c.pattern); },
      [&](const einops::ParsedShape& parsed) { return check_parsed_shape(c, parsed); });
}

}  // namespace

void register_builtin_shape_ops(OpTable& ops) { ops.emplace("parse_shape", &run_parse_shape); }

}  // namespace conformance
