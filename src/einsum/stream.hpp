// The streaming contraction (route.hpp): out = Σ a·b over the labels that out lacks, reading each
// operand once and reducing in registers. SIMD for float32, float64 and the 16-bit floats
// (accumulated in float32) where the layout allows (stream_schedule.hpp), portable loops for every
// other element type and layout; threads split the outputs into chunks chosen from the problem
// alone, so results are bit-identical for any thread count.
#pragma once

#include <string>

#include "stream_schedule.hpp"
#include "term.hpp"

namespace einops::detail::einsum {

/// The walk of one streaming contraction: dimensions ordered and merged, the mode chosen, the
/// outputs dealt into items. Every label of a and b is in `out` or in both; out's labels are
/// a subset of theirs.
StreamSchedule make_stream_schedule(const Term& a, const Term& b, const Term& out, const Extents& extent);

/// out = Σ a·b over the labels of a and b that `out` lacks (as make_stream_schedule); out
/// overlaps neither. Any element type.
void stream_into(const Term& a, const Term& b, const Term& out, const Extents& extent);

/// The kernel a schedule runs, in a few words (for `einops explain`), e.g. "a SIMD dot product of
/// 256 contiguous elements per output".
std::string describe_stream(const StreamSchedule& schedule);

}  // namespace einops::detail::einsum
