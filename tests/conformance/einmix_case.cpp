#include "einmix_case.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "compare.hpp"
#include "expect.hpp"
#include "inputs.hpp"

namespace conformance {

EinMixArguments einmix_arguments(const Case& c) {
  const Json& bias = c.raw.at("bias_shape");
  return {c.raw.at("weight_shape").get<std::string>(),
          bias.is_null() ? std::nullopt : std::optional<std::string>(bias.get<std::string>())};
}

std::string check_structure(const Json& want, const einops::detail::EinMixStructure& got) {
  const auto optional_text = [](const Json& j) {
    return j.is_null() ? std::optional<std::string>() : j.get<std::string>();
  };
  if (optional_text(want.at("pre_reshape_pattern")) != got.pre_rearrange)
    return "pre_reshape_pattern: expected " + want.at("pre_reshape_pattern").dump() + ", got '" +
           got.pre_rearrange.value_or("null") + "'";
  if (optional_text(want.at("post_reshape_pattern")) != got.post_rearrange)
    return "post_reshape_pattern: expected " + want.at("post_reshape_pattern").dump() + ", got '" +
           got.post_rearrange.value_or("null") + "'";
  if (want.at("einsum_pattern").get<std::string>() != got.einsum_pattern)
    return "einsum_pattern: expected " + want.at("einsum_pattern").dump() + ", got '" + got.einsum_pattern + "'";
  if (want.at("weight_shape").get<std::vector<std::int64_t>>() != got.weight_shape) return "weight_shape differs";
  const Json& bias = want.at("bias_shape");
  if (bias.is_null() != !got.bias_shape ||
      (!bias.is_null() && bias.get<std::vector<std::int64_t>>() != *got.bias_shape))
    return "bias_shape differs: expected " + bias.dump();
  if (want.at("fan_in").get<std::int64_t>() != got.fan_in) return "fan_in differs";
  const Json& lengths = want.at("pre_reshape_lengths");
  std::vector<einops::AxisLengths::Entry> expected;
  if (!lengths.is_null())
    for (const auto& [name, length] : lengths.items()) expected.emplace_back(name, length.get<std::int64_t>());
  if (!std::equal(expected.begin(), expected.end(), got.pre_lengths.entries().begin(), got.pre_lengths.entries().end()))
    return "pre_reshape_lengths differ: expected " + lengths.dump();
  return {};
}

Outcome run_builtin_einmix(const Case& c, const std::function<einops::AnyTensor(const einops::EinMix&)>& apply) {
  EinMixArguments arguments;
  einops::AxisLengths lengths;
  try {
    arguments = einmix_arguments(c);
    lengths = c.axes_lengths();
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  std::string structure_problem;
  const auto run = [&]() -> einops::AnyTensor {
    einops::EinMix mix(c.pattern, arguments.weight_shape, arguments.bias_shape, lengths, einops::DType::float64);
    if (!c.expects_error()) {
      const Json& structure = c.expect().at("structure");
      structure_problem = check_structure(structure, mix.structure());
      mix.set_weight(make_input(einops::DType::float64, structure.at("weight_shape").get<einops::Shape>(), 1));
      if (mix.bias())
        mix.set_bias(make_input(einops::DType::float64, structure.at("bias_shape").get<einops::Shape>(), 2));
    }
    return apply(mix);
  };
  return expect_result(c, run, [&](const einops::AnyTensor& result) {
    if (!structure_problem.empty()) return structure_problem;
    return check_array(c.expect(), result, ValueMatch::approximate);
  });
}

}  // namespace conformance
