// Any tensor type with einops: a `tensor_traits` specialisation, the concepts it satisfies, and
// every operation on such types. The Eigen, xtensor and OpenCV adapters (eigen.hpp, xtensor.hpp,
// opencv.hpp) are such specialisations; docs/backends.md shows how to write one. The headers under
// einops/backend/ hold one concern each; this one includes them all, and the core API
// (einops.hpp), which does not include this layer itself.
//
// Two ways in:
//  1. Expose memory (StridedTensor): `value_type`, `data(x)`, `shape(x)`, `strides(x)` (in
//     elements). The built-in kernels then read the memory in place (no copy on the way in) and
//     write the result straight into a tensor of the caller's type made by `make<U, Rank>(shape)`
//     (optional: without it, results are built-in tensors). An optional `rank` says the rank is
//     a compile-time constant, which lets a literal pattern be checked against it. A type whose
//     element type is known only at run time (cv::Mat) gives `dtype(x)` instead of `value_type`,
//     untyped `data(x)`, and `make(DType, shape)`: its results hold the call's element type.
//  2. Bring your own ops (TensorOps): `shape`, `reshape`, `permute`, `reduce`, `broadcast` (and,
//     for pack/unpack/einsum, `concatenate`, `slice`, `einsum`). einops plans and checks the call
//     exactly as for the built-in tensor, then drives the library's ops (einops' own recipe):
//     gradients, devices and lazy evaluation of that library keep working.
//
// The result type of every operation:
//   einops::rearrange(x, pattern)            x's family when its rank is dynamic, else a built-in
//                                            einops::Tensor<T> (reduce: an AnyTensor)
//   einops::rearrange<M>(x, pattern)         x's family with rank M (checked: a literal at
//                                            compile time, a run-time string when run)
//   einops::rearrange<"b c h w -> b h w c">(x)  x's family, its rank computed at compile time
// reduce takes the result's element type as an optional second template argument
// (`reduce<M, std::int64_t>(...)`); it defaults to x's and must be numpy's result type.
#pragma once

#include "einops/einops.hpp"
#include "einops/backend/concepts.hpp"
#include "einops/backend/results.hpp"
#include "einops/backend/static_rank.hpp"
#include "einops/backend/run.hpp"
#include "einops/backend/operations.hpp"
#include "einops/backend/pack.hpp"
#include "einops/backend/einsum.hpp"
#include "einops/backend/convert.hpp"
#include "einops/backend/rearrange_view.hpp"
#include "einops/backend/check_shape.hpp"
