// Which instruction set the kernels run with: listing and forcing (tests and benchmarks).
#include <string>
#include <string_view>
#include <vector>

#include "einops/detail/kernels.hpp"
#include "hwy_config.hpp"

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace einops::detail {

std::vector<std::string> simd_targets() {
  std::vector<std::string> names;
  for (std::int64_t target = hwy::SupportedTargets() & HWY_TARGETS; target != 0; target &= target - 1)
    names.emplace_back(hwy::TargetName(target & -target));
  return names;
}

void force_simd_target(std::string_view name) {
  std::int64_t chosen = 0;
  for (std::int64_t target = HWY_TARGETS; target != 0; target &= target - 1)
    if (hwy::TargetName(target & -target) == name) chosen = target & -target;
  hwy::SetSupportedTargetsForTest(chosen);  // 0: back to what the CPU supports
}

std::string simd_target() {
  const std::int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
  return supported == 0 ? std::string("none") : std::string(hwy::TargetName(supported & -supported));
}

}  // namespace einops::detail
