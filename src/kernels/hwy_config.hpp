// The instruction sets every SIMD translation unit is compiled for. Included before Highway.
// The portable fallback is Highway's SCALAR under GCC 12.2 (which cannot build EMU128) and EMU128
// under Clang; SSSE3 adds nothing that SSE4 lacks for these kernels, so it is left out to save
// build time.
#pragma once

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS HWY_SSSE3
#endif
