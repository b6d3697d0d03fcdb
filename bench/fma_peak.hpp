// The single-core multiply-add peak, measured by a loop whose operands never leave registers: the
// FLOP side of the small-product rows' roofline (bench/einsum_small.cpp).
#pragma once

namespace bench {

/// FLOP/s (a multiply-add counts two) of 256-bit fused multiply-adds on float (`float64` false)
/// or double lanes, on the calling thread: 256 bits is the widest vector einops' small-product
/// kernel uses. Falls back to scalar multiply-adds where the CPU has no AVX2 and FMA.
double fma_peak_flops(bool float64);

}  // namespace bench
