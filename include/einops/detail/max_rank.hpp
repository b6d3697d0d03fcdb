// The most dimensions of a tensor, a walk and a plan's elementary axes: the one constant that the
// public headers (limits.hpp, tensor_ref.hpp) and the kernels' walk (walk.hpp) share, in a header
// of its own so that the public ones need not include the walk.
#pragma once

namespace einops::detail {

/// Most dimensions a walk (and a plan's elementary axes) may have. docs/grammar.md documents it.
inline constexpr int kMaxRank = 64;

}  // namespace einops::detail
