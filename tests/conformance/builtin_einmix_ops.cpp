// einmix on the built-in tensor: einops::EinMix (einops/einmix.hpp), each case on a row-major input
// and on the same values in column-major memory (a strided input); a case passes when both do.
#include <cstdint>
#include <string>
#include <vector>

#include "adapter_cases.hpp"
#include "backend.hpp"
#include "einmix_case.hpp"
#include "einops/ops.hpp"
#include "inputs.hpp"

namespace conformance {
namespace {

/// `x`'s values in column-major memory of its own.
einops::AnyTensor column_major(const einops::AnyTensor& x) {
  const einops::AnyTensor buffer(x.dtype(), einops::Shape{x.size()});
  einops::Shape strides(x.rank());
  std::int64_t step = 1;
  for (std::size_t d = 0; d < x.rank(); ++d) {
    strides[d] = step;
    step *= x.shape()[d] > 0 ? x.shape()[d] : 1;
  }
  const einops::AnyTensor out(x.dtype(), buffer.storage(), buffer.data(),
                              einops::Shape(x.shape().begin(), x.shape().end()), strides);
  einops::rearrange_into(x, out, "... -> ...");
  return out;
}

Outcome run_einmix(const Case& c) {
  std::vector<einops::AnyTensor> inputs;
  try {
    const auto dtype = parse_dtype(c.raw.at("dtype").get<std::string>());
    if (!dtype) return Outcome::fail("malformed case: unknown dtype");
    inputs = make_inputs(*dtype, c.shapes());
    if (inputs.size() != 1) return Outcome::fail("malformed case: einmix takes one input");
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  static const char* const layouts[2] = {"row_major", "column_major"};
  return adapters::in_both_layouts(layouts, [&](int layout) {
    const einops::AnyTensor x = layout == 0 ? inputs.front() : column_major(inputs.front());
    return run_builtin_einmix(c, [&](const einops::EinMix& mix) { return mix(x); });
  });
}

}  // namespace

void register_builtin_einmix_ops(OpTable& ops) { ops.emplace("einmix", &run_einmix); }

}  // namespace conformance
