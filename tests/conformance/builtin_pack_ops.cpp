// pack and unpack on the built-in tensor (einops::AnyTensor).
#include <string>
#include <vector>

#include "backend.hpp"
#include "einops/pack.hpp"
#include "expect.hpp"
#include "inputs.hpp"

namespace conformance {
namespace {

std::vector<einops::Shape> shapes_field(const Json& value) { return value.get<std::vector<einops::Shape>>(); }

Outcome run_pack(const Case& c) {
  std::vector<einops::AnyTensor> inputs;
  try {
    const auto dtype = parse_dtype(c.raw.at("dtype").get<std::string>());
    if (!dtype) return Outcome::fail("malformed case: unknown dtype");
    inputs = make_inputs(*dtype, c.shapes());
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  return expect_result(
      c, [&] { return einops::pack(std::span<const einops::AnyTensor>(inputs), c.pattern); },
      [&](const einops::Packed<einops::AnyTensor>& packed) -> std::string {
        if (std::string why = check_array(c.expect(), packed.tensor, ValueMatch::exact); !why.empty()) return why;
        const Json& want = c.expect().at("packed_shapes");
        if (shapes_field(want) != packed.packed_shapes) {
          std::string got;
          for (const einops::Shape& shape : packed.packed_shapes)
            got += (got.empty() ? "" : ", ") + einops::detail::format_shape(shape);
          return "packed_shapes: expected " + want.dump() + ", got [" + got + "]";
        }
        return {};
      });
}

Outcome run_unpack(const Case& c) {
  einops::AnyTensor input;
  std::vector<einops::Shape> packed_shapes;
  try {
    const auto dtype = parse_dtype(c.raw.at("dtype").get<std::string>());
    if (!dtype) return Outcome::fail("malformed case: unknown dtype");
    const auto shapes = c.shapes();
    if (shapes.size() != 1) return Outcome::fail("malformed case: unpack takes one input");
    input = make_input(*dtype, shapes.front(), 0);
    packed_shapes = shapes_field(c.raw.at("packed_shapes"));
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  return expect_result(
      c, [&] { return einops::unpack(input, packed_shapes, c.pattern); },
      [&](const std::vector<einops::AnyTensor>& parts) -> std::string {
        const Json& outputs = c.expect().at("outputs");
        if (outputs.size() != parts.size())
          return "outputs: expected " + std::to_string(outputs.size()) + " tensors, got " +
                 std::to_string(parts.size());
        for (std::size_t i = 0; i < parts.size(); ++i) {
          // Each part is a view into the input: shared storage, not a copy.
          if (parts[i].storage() != input.storage())
            return "output " + std::to_string(i) + " is not a view of the input";
          if (std::string why = check_array(outputs[i], parts[i], ValueMatch::exact); !why.empty())
            return "output " + std::to_string(i) + ": " + why;
        }
        return {};
      });
}

}  // namespace

void register_builtin_pack_ops(OpTable& ops) {
  ops.emplace("pack", &run_pack);
  ops.emplace("unpack", &run_unpack);
}

}  // namespace conformance
