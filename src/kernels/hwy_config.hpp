// The instruction sets every SIMD translation unit is compiled for. Included before Highway.
// Scalar is the fallback (GCC 12.2 cannot build Highway's EMU128); SSSE3 adds nothing that
// SSE4 lacks for these kernels, so it is left out to save build time.
#pragma once

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS HWY_SSSE3
#endif
