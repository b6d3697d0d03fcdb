// What every backend's einmix runner shares: the case's EinMix arguments, the comparison of a
// layer's decomposition with the one einops recorded (expect.structure), and the run of the
// built-in einops::EinMix on an input as a backend holds it (builtin, eigen, xtensor).
//
// The corpus' weight is input k=1 of the weight's shape and its bias input k=2 (corpus/README.md).
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "corpus.hpp"
#include "einops/detail/einmix_structure.hpp"
#include "einops/einmix.hpp"
#include "outcome.hpp"

namespace conformance {

/// The weight and bias shapes (EinMix's 2nd and 3rd arguments) of an einmix case.
struct EinMixArguments {
  std::string weight_shape;
  std::optional<std::string> bias_shape;
};
EinMixArguments einmix_arguments(const Case& c);

/// Why `got` differs from einops' decomposition `want` (expect.structure); empty when it does not.
std::string check_structure(const Json& want, const einops::detail::EinMixStructure& got);

/// Constructs the case's einops::EinMix (float64), checks its structure, sets the corpus' weight and
/// bias, and compares `apply(mix)` (the layer applied to the case's input, held as the backend
/// holds it) with the expectation; error cases must throw EinopsError.
Outcome run_builtin_einmix(const Case& c, const std::function<einops::AnyTensor(const einops::EinMix&)>& apply);

}  // namespace conformance
