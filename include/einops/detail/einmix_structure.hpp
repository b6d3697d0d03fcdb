// EinMix's construction (einops.layers._einmix), shared by every framework's EinMix (the built-in
// tensor's einops/einmix.hpp, LibTorch's einops/layers/torch.hpp): every check einops makes of
// the pattern, the weight and bias shapes and the axis lengths, and the decomposition it runs:
//
//   pre_rearrange -> einsum(x, weight) -> += bias -> post_rearrange
//
// The patterns, lengths, shapes and fan-in are exactly the ones einops computes (the corpus'
// `einmix` cases record them in `expect.structure`). Defined in src/einmix_structure.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "einops/export.hpp"
#include "einops/plan.hpp"

namespace einops::detail {

struct EinMixStructure {
  std::optional<std::string> pre_rearrange;   // pattern of the rearrange before the einsum, if any
  AxisLengths pre_lengths;                    // the lengths it gets
  std::optional<std::string> post_rearrange;  // pattern of the rearrange after the bias, if any
  std::string einsum_pattern;                 // single-letter, as einops hands it to the backend
  std::vector<std::int64_t> weight_shape;
  std::optional<std::vector<std::int64_t>> bias_shape;
  std::int64_t fan_in = 1;
};

/// einops' EinMix construction; throws EinopsError for every case einops rejects (its inner
/// Rearrange layers' checks included).
EINOPS_API EinMixStructure einmix_structure(std::string_view pattern, std::string_view weight_shape,
                                            const std::optional<std::string>& bias_shape, const AxisLengths& lengths);

/// einops' single-letter einsum pattern ("ba...,bac->bc...") in the library's own notation, one
/// name per letter ("b a ..., b a c -> b c ..."): the same contraction for einops::einsum.
EINOPS_API std::string spaced_einsum_pattern(std::string_view compact);

}  // namespace einops::detail
