// einsum on the built-in tensor. `compact_pattern` (einops' internal single-letter pattern) is
// not compared: only the result is.
#include <string>
#include <vector>

#include "backend.hpp"
#include "einops/einsum.hpp"
#include "expect.hpp"
#include "inputs.hpp"

namespace conformance {
namespace {

Outcome run_einsum(const Case& c) {
  std::vector<einops::AnyTensor> operands;
  einops::DType dtype{};
  try {
    const auto parsed = parse_dtype(c.raw.at("dtype").get<std::string>());
    if (!parsed) return Outcome::fail("malformed case: unknown dtype");
    dtype = *parsed;
    operands = make_inputs(dtype, c.shapes());
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("malformed case: ") + e.what());
  }
  // Sums of float products depend on the order of summation, which BLAS and numpy choose freely.
  const ValueMatch match = einops::is_floating(dtype) ? ValueMatch::approximate : ValueMatch::exact;
  return expect_array(
      c, [&] { return einops::einsum(std::span<const einops::AnyTensor>(operands), c.pattern); }, match);
}

}  // namespace

void register_builtin_einsum_ops(OpTable& ops) { ops.emplace("einsum", &run_einsum); }

}  // namespace conformance
