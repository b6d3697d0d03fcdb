// Sample data for the demonstration: a batch of small pictures whose content is easy to
// recognise after any rearrangement (each shows its own index as a large number).
#pragma once

#include <cstdint>

#include "einops/tensor.hpp"

namespace einops::tool {

/// (count, size, size, 3) uint8: picture i has a colour of its own, its index drawn in white,
/// and a dark marker in its top-left corner so that flips and transposes show.
AnyTensor sample_digits(std::int64_t count, std::int64_t size);

}  // namespace einops::tool
