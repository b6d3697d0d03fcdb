// A probe, not part of the suite: float32 permutations through the library on data of 1 MB or
// less (in L2), one thread, where the tile kernels' own work shows rather than memory's. It is how
// the whole-line transposes for 4- and 8-byte words were judged (kernels/copy_simd.cpp), with the
// library built (build-ci below) before and after:
//   g++ -O2 -std=c++20 -Iinclude bench/kernels/transpose_in_cache_probe.cpp build-ci/libeinops.a -lhwy -pthread
//       -lhwy -lopenblas -lpthread -o /tmp/transpose_probe   (one line)
//   /tmp/transpose_probe
#include <einops/einops.hpp>

#include <algorithm>
#include <cstdio>

#include "probe_memory.hpp"

namespace {

/// Best of 300 calls of `pattern` from x into y; prints the output's GB/s.
void measure(const char* pattern, const einops::Tensor<float>& x, einops::Tensor<float>& y) {
  double best = 1e9;
  for (int i = 0; i < 300; ++i) {
    const double start = probe::seconds();
    einops::rearrange_into(x, y, einops::runtime(pattern));
    best = std::min(best, probe::seconds() - start);
  }
  const double bytes = static_cast<double>(x.size()) * sizeof(float);
  std::printf("%-26s %8.1f KB  %.4f ms  %5.1f GB/s written\n", pattern, bytes / 1e3, best * 1e3, bytes / best / 1e9);
}

void transpose(std::int64_t h, std::int64_t w) {
  auto x = einops::Tensor<float>::arange({h, w});
  auto y = einops::Tensor<float>::arange({w, h});
  std::printf("[%lld,%lld] ", static_cast<long long>(h), static_cast<long long>(w));
  measure("h w -> w h", x, y);
}

}  // namespace

int main() {
  einops::set_num_threads(1);
  {
    auto x = einops::Tensor<float>::arange({16, 16, 16, 1, 64});
    auto y = einops::Tensor<float>::arange({64, 1, 16, 16, 16});
    std::printf("[16,16,16,1,64] ");
    measure("a b c d e -> e d c b a", x, y);
  }
  transpose(4096, 64);
  transpose(512, 512);
  transpose(64, 4096);
  transpose(128, 128);
  {
    auto x = einops::Tensor<float>::arange({4, 64, 1024});
    auto y = einops::Tensor<float>::arange({4, 1024, 64});
    std::printf("[4,64,1024] ");
    measure("b c h -> b h c", x, y);
  }
}
