// The non-template half of the adapters (backend.hpp): an operation planned before its result
// exists (so that the adapter can allocate the result in its own type), and the recipe that drives
// a library's own ops. Adapters borrow memory as a TensorRef (tensor_ref.hpp).
//
// Definitions live in src/adapter_call.cpp; the templates in backend.hpp only convert types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/detail/tensor_ref.hpp"
#include "einops/dtype.hpp"
#include "einops/reduction.hpp"
#include "einops/export.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// The rank of a tensor type whose rank is known only at run time (xt::xarray, a user's type).
inline constexpr std::size_t dynamic_rank = static_cast<std::size_t>(-1);

namespace detail {

/// rearrange, reduce or repeat of one input, planned (every einops check done) before the result
/// exists: the adapter reads the result's shape and dtype, allocates it in its own type, and
/// the kernels write into that memory directly.
class PlannedCall {
 public:
  EINOPS_API PlannedCall(Operation operation, std::optional<std::string_view> reduction, TensorRef x,
                         PatternRef pattern, const AxisLengths& lengths);

  EINOPS_API std::span<const std::int64_t> output_shape() const;
  /// numpy's result dtype (reduce: bool for any/all, int64 for sums of integers, ...).
  EINOPS_API DType output_dtype() const;
  /// Throws EinopsError unless a result of `rank` dimensions (dynamic_rank: any) holding
  /// `dtype` can take the result; `how_to_ask` says how to request the right one.
  EINOPS_API void expect_result(std::size_t rank, DType dtype, std::string_view how_to_ask) const;
  /// Runs the kernels: `out` has the output shape and dtype, any strides, no overlap with x.
  EINOPS_API void write_into(TensorRef out) const;
  /// The result as a built-in tensor (a view of the input when no element moves).
  EINOPS_API AnyTensor result() const;

 private:
  Shared<const Plan> plan_;
  TensorRef x_;
  std::string_view pattern_;
  const AxisLengths& lengths_;
  std::string label_;
};

/// For results computed as built-in tensors (list inputs, pack, unpack, einsum): throws
/// EinopsError unless `y` fits a result of `rank` dimensions (dynamic_rank: any) and `dtype`.
EINOPS_API void expect_result_of(const AnyTensor& y, std::size_t rank, DType dtype, std::string_view operation,
                                 std::string_view pattern, std::string_view how_to_ask);
/// Throws EinopsError: a backend's own ops gave a result of `shape`, the caller asked for `rank`.
[[noreturn]] EINOPS_API void fail_result_rank(std::string_view operation, std::string_view pattern,
                                              std::span<const std::int64_t> shape, std::size_t rank);
/// Copies `y` into `out` (same shape and dtype, any strides).
EINOPS_API void copy_into(const AnyTensor& y, TensorRef out);

/// einops' own recipe for a backend with its own ops (einops/_backends.py): reshape to the
/// elementary axes, reduce, permute, add and broadcast new axes, reshape to the output; the steps
/// that would change nothing are marked so, and left out.
struct OpsRecipe {
  bool reshape_in = false;  // reshape the input to `elementary_shape` first
  Shape elementary_shape;
  std::optional<Reduction> reduction;      // then reduce `reduced_axes` (when set)
  std::vector<std::int64_t> reduced_axes;  // ascending
  std::vector<std::int64_t> permutation;   // then permute the kept axes (empty: already in order)
  Shape expanded_shape;                    // then, when new axes appear: reshape with 1 for each,
  Shape broadcast_shape;                   //   and broadcast to these lengths (empty: no new axes)
  bool reshape_out = false;                // finally reshape to `output_shape`
  Shape output_shape;
};

/// The recipe of one call: planned (every einops check, as for the built-in tensor; `dtype`, when
/// known, lets the mean of integers be refused), then kept in this thread's small cache, so that
/// a repeated call (a training loop) costs a comparison with the previous one or a hash. Held
/// through an OpsRecipeUse: the recipe stays valid while its use lives, even if the library's own
/// ops call einops again on this thread (those calls then plan without the cache).
class OpsRecipeUse {
 public:
  EINOPS_API OpsRecipeUse(Operation operation, std::optional<std::string_view> reduction,
                          std::span<const std::int64_t> shape, std::optional<DType> dtype, PatternRef pattern,
                          const AxisLengths& lengths);
  EINOPS_API ~OpsRecipeUse();
  OpsRecipeUse(const OpsRecipeUse&) = delete;
  OpsRecipeUse& operator=(const OpsRecipeUse&) = delete;

  const OpsRecipe& operator*() const { return *recipe_; }
  const OpsRecipe* operator->() const { return recipe_; }

 private:
  const OpsRecipe* recipe_;
};

/// The part of `pack` a backend with its own ops needs: per input, the shape it is reshaped to
/// (its `*` part flattened into one axis) before the concatenation along `axis`.
struct OpsPackLayout {
  std::size_t axis = 0;
  std::vector<Shape> flattened_shapes;
  std::vector<Shape> packed_shapes;
};
EINOPS_API OpsPackLayout ops_pack_layout(std::span<const Shape> shapes, std::string_view pattern);

/// The part of `unpack` for a backend with its own ops: per part, the slice [begin, end) along
/// `axis` and the shape that slice is reshaped to.
struct OpsUnpackPart {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  Shape shape;
};
struct OpsUnpackLayout {
  std::size_t axis = 0;
  std::vector<OpsUnpackPart> parts;
};
EINOPS_API OpsUnpackLayout ops_unpack_layout(std::span<const std::int64_t> shape,
                                             const std::vector<Shape>& packed_shapes, std::string_view pattern);

/// einops' single-letter form of an einsum pattern ("a b, b c -> a c" gives "ab,bc->ac"), what
/// einops hands to a backend's einsum. Throws EinopsError for a malformed pattern.
EINOPS_API std::string compact_einsum_pattern(std::string_view pattern);
/// compact_einsum_pattern through this thread's small cache of recent patterns; the reference
/// stays valid until this thread's next call.
EINOPS_API const std::string& compact_einsum_pattern_cached(std::string_view pattern);

}  // namespace detail
}  // namespace einops
