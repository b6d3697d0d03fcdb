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
      [&](const einops::ParsedShape& parsed) -> std::string {
        const Json& want = c.expect().at("dict");  // ordered_json: keys in pattern order
        std::string got;
        for (const auto& [name, length] : parsed) got += (got.empty() ? "" : ", ") + name + ": " + std::to_string(length);
        if (want.size() != parsed.size()) return "dict: expected " + want.dump() + ", got {" + got + "}";
        std::size_t i = 0;
        for (const auto& [name, length] : want.items()) {
          const auto& entry = parsed.entries()[i++];
          if (entry.first != name || entry.second != length.get<std::int64_t>() || parsed[name] != entry.second)
            return "dict: expected " + want.dump() + ", got {" + got + "}";
        }
        return {};
      });
}

}  // namespace

void register_builtin_shape_ops(OpTable& ops) { ops.emplace("parse_shape", &run_parse_shape); }

}  // namespace conformance
