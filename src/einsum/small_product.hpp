// Batched small matrix products (route.hpp's small_product): C[b] = A[b] · B[b] for many batch
// entries whose m, n and k are each short (attention over short sequences and windows), where a
// BLAS call per entry costs more in setup than in arithmetic and the portable loops reload each
// row of B once per row of A.
//
// Per entry, B is packed once into a per-thread buffer (k rows of n columns, padded with zeros to
// whole vectors; read in place when it already is so), A is read in place (16-bit floats: widened
// once into the buffer), and C is computed in tiles of up to kMaxTileRows rows by up to
// kMaxTileVectors vectors of columns, each tile's accumulators held in registers across the whole
// of k. Entries are walked in order of the batch and dealt to threads in fixed chunks.
//
// Sum order: each element of C is one accumulator lane, summed over k in order 0, 1, ..., k-1 by
// multiply-adds; the same for any thread count, and for a given instruction set (a target without
// fused multiply-add rounds the product first).
#pragma once

#include <cstdint>

#include "einops/dtype.hpp"
#include "gemm.hpp"

namespace einops::detail::einsum {

/// Accumulators per tile: 12 of AVX2's 16 vector registers, which leaves room for one row of B
/// (up to three vectors) and the broadcast element of A; AVX-512 targets, with 32 registers (also
/// at 256 bits), hold twice as many.
inline constexpr int kTileAccumulators = 12;
/// Columns of a tile, in vectors, and its rows, at most on any target (AVX-512 targets; the
/// others: 3 and 8). A one-vector tile still needs 8 or more rows: independent accumulators that
/// cover the multiply-add latency at two per cycle.
inline constexpr int kMaxTileVectors = 4;
inline constexpr int kMaxTileRows = 12;

/// Batch entries are dealt to threads in chunks of about this many multiply-adds, and threads
/// start from this many multiply-adds in all: the chunks depend on the problem alone.
inline constexpr std::int64_t kSmallChunkWork = std::int64_t{1} << 16;
inline constexpr std::int64_t kSmallParallelMinWork = std::int64_t{1} << 18;

/// Whether the small-product kernel computes products of `type` (float32, float64, float16,
/// bfloat16; the 16-bit floats accumulate in float32 and are rounded once per element of C).
bool small_product_takes(DType type);

/// Runs every product of `problem` (any strides for A and B, C not overlapping them; all extents
/// positive) on the best instruction set of this CPU. `type` must be one small_product_takes.
void small_batched_product(DType type, const BatchedGemm& problem);

}  // namespace einops::detail::einsum
