// pack's checks of its inputs' shapes (pack_checks.hpp).
#include "pack_checks.hpp"

#include <string>

#include "einops/detail/max_rank.hpp"
#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

namespace {
[[noreturn]] void fail_packed_overflow(const CallContext& context) {
  context.fail("The packed lengths overflow int64");
}
}  // namespace

std::int64_t packed_mul(const CallContext& context, std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (checked_mul(a, b, product)) fail_packed_overflow(context);
  return product;
}

std::int64_t packed_add(const CallContext& context, std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (checked_add(a, b, sum)) fail_packed_overflow(context);
  return sum;
}

void check_pack_shapes(const CallContext& context, const PackPattern& pattern, std::size_t count,
                       const PackInputShape& shape_of) {
  const std::size_t before = pattern.before.size();
  const std::size_t after = pattern.after.size();
  for (std::size_t i = 0; i < count; ++i) {
    const auto shape = shape_of(i);
    if (shape.size() < pattern.min_rank())
      context.fail("packed tensor #" + std::to_string(i) + " (enumeration starts with 0) has shape " +
                   format_shape(shape) + ", while pattern " + std::string(context.pattern) + " assumes at least " +
                   std::to_string(pattern.min_rank()) + " axes");
    if (shape.size() > static_cast<std::size_t>(kMaxRank))
      context.fail("packed tensor #" + std::to_string(i) + " has more than " + std::to_string(kMaxRank) +
                   " dimensions");
  }
  if (count == 0) return;
  const auto first = shape_of(0);
  for (std::size_t i = 1; i < count; ++i) {
    const auto shape = shape_of(i);
    for (std::size_t d = 0; d < before + after; ++d) {
      const std::size_t mine = d < before ? d : shape.size() - (before + after - d);
      const std::size_t theirs = d < before ? d : first.size() - (before + after - d);
      if (shape[mine] == first[theirs]) continue;
      // numpy numbers the dimensions of the flattened inputs it concatenates: '*' is one of them.
      const std::size_t packed_dim = d < before ? d : d + 1;
      const Axis& axis = d < before ? pattern.before[d] : pattern.after[d - before];
      context.fail(
          "all the input array dimensions except for the concatenation axis must match exactly, but along "
          "dimension " +
          std::to_string(packed_dim) + ", the array at index 0 has size " + std::to_string(first[theirs]) +
          " and the array at index " + std::to_string(i) + " has size " + std::to_string(shape[mine]) + " (axis " +
          axis.name.str() + ": input dim " + std::to_string(theirs) + " of tensor #0, input dim " +
          std::to_string(mine) + " of tensor #" + std::to_string(i) + ")");
    }
  }
}

}  // namespace einops::detail
