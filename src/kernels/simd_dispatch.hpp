// The one step every kernel takes before it reads Highway's dispatch table. Included in a SIMD
// translation unit's HWY_ONCE part, after Highway.
#pragma once

#include "hwy_config.hpp"

#include <hwy/targets.h>

namespace einops::detail {

/// Makes Highway choose this CPU's instruction set if it has not yet. Until then a dispatch table
/// (HWY_DYNAMIC_DISPATCH) names Highway's chooser, which asks the CPU (cpuid, slow in a virtual
/// machine) on every call: a kernel address taken from the table and kept, to be called once per
/// output or per chunk, must be taken after this.
inline void choose_simd_target() {
  hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  if (chosen.GetIndex() == 0) chosen.Update(hwy::SupportedTargets());
}

}  // namespace einops::detail
