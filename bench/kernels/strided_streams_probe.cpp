// A probe, not part of the suite: what reading [32,64,56,56] float32 (25.7 MB) costs when K of
// its 32 rows of 784 KB are read side by side, as an outer reduction over the first axis
// (`b c h w -> c h w`) reads them: K = 1 is a plain read pass, K = 8 the library's passes of
// eight rows. Only loads and a max, no accumulator tile. Whole rows, and 60 KB or 196 KB segments
// of them (the tile widths the library could take).
//   g++ -O2 -mavx2 -std=c++20 bench/kernels/strided_streams_probe.cpp -o /tmp/strided_streams_probe
//   /tmp/strided_streams_probe
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memory.hpp"

namespace {

constexpr std::size_t kRows = 32, kRow = std::size_t{64} * 56 * 56, kInput = kRows * kRow;


float sink;

/// Reads every row, K at a time, a segment of `segment` floats of each in turn.
template <int K>
void read_streams(const float* in, std::size_t segment) {
  __m256 a = _mm256_setzero_ps(), b = a;
  for (std::size_t start = 0; start < kRow; start += segment) {
    const std::size_t width = std::min(segment, kRow - start);
    for (std::size_t first = 0; first < kRows; first += K) {
      const float* rows[K];
      for (int k = 0; k < K; ++k) rows[k] = in + (first + static_cast<std::size_t>(k)) * kRow + start;
      for (std::size_t i = 0; i < width; i += 16)
        for (int k = 0; k < K; ++k) {
          a = _mm256_max_ps(a, _mm256_loadu_ps(rows[k] + i));
          b = _mm256_max_ps(b, _mm256_loadu_ps(rows[k] + i + 8));
        }
    }
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_max_ps(a, b));
  sink += lanes[0];
}

}  // namespace

int main() {
  float* in = probe::huge_buffer<float>(kInput);
  for (std::size_t i = 0; i < kInput; ++i) in[i] = static_cast<float>(i % 1000);
  struct Variant {
    const char* name;
    void (*run)(const float*, std::size_t);
    std::size_t segment;
  };
  const Variant variants[] = {{"K = 1 (read pass)", read_streams<1>, kRow},
                              {"K = 2", read_streams<2>, kRow},
                              {"K = 4", read_streams<4>, kRow},
                              {"K = 8", read_streams<8>, kRow},
                              {"K = 16", read_streams<16>, kRow},
                              {"K = 32", read_streams<32>, kRow},
                              {"K = 8, 60 KB segments", read_streams<8>, 15488},
                              {"K = 8, 196 KB segments", read_streams<8>, kRow / 4}};
  for (int round = 0; round < 3; ++round) {
    for (const Variant& v : variants) {
      double best = 1e9;
      for (int repeat = 0; repeat < 15; ++repeat) {
        const double start = probe::seconds();
        v.run(in, v.segment);
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("%-24s %7.3f ms\n", v.name, best * 1e3);
    }
    std::puts("");
  }
  std::free(in);
}
