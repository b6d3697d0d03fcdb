// LibTorch's spelling of the preprocessing benchmarks (bench/preprocess.cpp), in a translation
// unit of its own: only it includes LibTorch.
#pragma once

#include <benchmark/benchmark.h>

namespace bench {

struct TorchCase {
  int batch, height, width;
  bool float_input;  // float32 images instead of uint8
  bool reverse;      // float b c h w -> uint8 b h w c
  int threads;
};

/// Forward: out.copy_(x.permute(0, 3, 1, 2)) into a preallocated float blob, then out.sub_(mean)
/// .div_(std). Reverse: mul_out(tmp, x, std), tmp.add_(mean).round_().clamp_(0, 255), then
/// out.copy_(tmp.permute(0, 2, 3, 1)) into preallocated uint8 images.
void torch_preprocess(benchmark::State& state, const TorchCase& c, const float* mean, const float* std);

}  // namespace bench
