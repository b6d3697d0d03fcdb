// How einsum computes one call, in words (for `einops explain`): the length of each axis, then
// each pairwise contraction of the plan with the kernel it runs. Built from the same cached plan
// that einsum itself runs.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

struct EinsumStepDescription {
  std::string first, second;  // the terms contracted: "operand 0 (b n d)", "step 1's product (b n)"
  std::string result;         // its axes, "(b n)"; "the output (b n)" for the last step
  std::string kernel;         // the route and the kernel, e.g. "streaming: a SIMD dot product along d ..."
};

struct EinsumDescription {
  std::vector<std::pair<std::string, std::int64_t>> axes;  // every axis and its length, in order of appearance
  std::vector<EinsumStepDescription> steps;                // empty for one operand
  std::string single_operand;                              // one operand: how it is summed or permuted into the output
  Shape output_shape;
  std::string note;  // how 16-bit floats and empty axes are handled; "" when nothing applies
};

/// Throws EinopsError exactly as `einsum` would for operands of these shapes and this dtype.
EINOPS_API EinsumDescription describe_einsum(std::string_view pattern, std::span<const Shape> shapes, DType dtype);

}  // namespace einops::detail
