// A probe, not part of the suite: `b c h w -> c h w` float32 max over [32,64,56,56], where the 32
// reduced steps lie 800 KB apart, in plain AVX2 loops next to a read pass over the same 25.7 MB.
// The library reduces tiles of up to 64 KB of outputs, 8 steps per pass, prefetching each row 512 B
// ahead (reduce_schedule.hpp); here tiles from 16 KB to the whole 800 KB row, 1-8 steps per pass,
// with and without that prefetch. Zen 5, four runs on 5 December: the library's scheme 1.56-1.94x
// the read pass's time; the best here, 4 steps per pass over tiles of 200-800 KB without prefetch,
// 1.30-1.63x (0.70-0.87x the library's scheme, run by run). In the library itself (bench_kernels,
// median of 4-5 alternating runs, time over the read pass's) 4 steps per pass without the row
// prefetch over 200-256 KB tiles took 0.87-0.96x the time with one thread, 1.06-1.18x with two
// (over 8 runs: no difference beyond the noise); with the prefetch, 1.09-1.21x.
//   g++ -O2 -mavx2 -std=c++20 bench/kernels/outer_max_tiles_probe.cpp -o /tmp/outer_max_tiles_probe
//   /tmp/outer_max_tiles_probe
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "probe_memory.hpp"

namespace {

constexpr std::size_t kSteps = 32, kRow = std::size_t{64} * 56 * 56;  // reduced steps, outputs


/// The reference: one sequential read of the input.
void read_pass(const float* in, float* out, std::size_t) {
  __m256 a = _mm256_set1_ps(-1e30f), b = a, c = a, d = a;
  for (std::size_t i = 0; i < kSteps * kRow; i += 32) {
    a = _mm256_max_ps(a, _mm256_loadu_ps(in + i));
    b = _mm256_max_ps(b, _mm256_loadu_ps(in + i + 8));
    c = _mm256_max_ps(c, _mm256_loadu_ps(in + i + 16));
    d = _mm256_max_ps(d, _mm256_loadu_ps(in + i + 24));
  }
  _mm256_storeu_ps(out, _mm256_max_ps(_mm256_max_ps(a, b), _mm256_max_ps(c, d)));
}

/// Tiles of `tile` outputs, accumulated in place in `out`; each pass over a tile takes kPass steps
/// combined in registers; with kAhead > 0 each row's line kAhead bytes on is prefetched into L1.
template <std::size_t kPass, int kAhead>
void tiles(const float* in, float* out, std::size_t tile) {
  for (std::size_t first = 0; first < kRow; first += tile) {
    const std::size_t width = std::min(tile, kRow - first);
    float* acc = out + first;
    std::fill(acc, acc + width, -1e30f);
    for (std::size_t step = 0; step < kSteps; step += kPass) {
      const float* rows[kPass];
      for (std::size_t k = 0; k < kPass; ++k) rows[k] = in + (step + k) * kRow + first;
      for (std::size_t j = 0; j < width; j += 16) {  // width is a multiple of 16
        if constexpr (kAhead > 0)
          for (std::size_t k = 0; k < kPass; ++k) _mm_prefetch(reinterpret_cast<const char*>(rows[k] + j) + kAhead, _MM_HINT_T0);
        for (std::size_t h = 0; h < 16; h += 8) {
          __m256 m = _mm256_loadu_ps(rows[0] + j + h);
          for (std::size_t k = 1; k < kPass; ++k) m = _mm256_max_ps(m, _mm256_loadu_ps(rows[k] + j + h));
          _mm256_storeu_ps(acc + j + h, _mm256_max_ps(_mm256_loadu_ps(acc + j + h), m));
        }
      }
    }
  }
}

}  // namespace

int main() {
  float* in = probe::huge_buffer<float>(kSteps * kRow + 1024);  // slack: prefetches past the last row
  float* out = probe::huge_buffer<float>(kRow);
  for (std::size_t i = 0; i < kSteps * kRow; ++i) in[i] = static_cast<float>(i % 97);
  struct Variant {
    const char* name;
    void (*run)(const float*, float*, std::size_t);
    std::size_t tile;  // outputs per tile
  };
  const Variant variants[] = {{"read pass", read_pass, 0},
                              {"64 KB tiles, 8 per pass, +512 B (library)", tiles<8, 512>, 16384},
                              {"64 KB tiles, 8 per pass", tiles<8, 0>, 16384},
                              {"64 KB tiles, 4 per pass, +512 B", tiles<4, 512>, 16384},
                              {"16 KB tiles, 8 per pass, +512 B", tiles<8, 512>, 4096},
                              {"256 KB tiles, 8 per pass, +512 B", tiles<8, 512>, 65536},
                              {"800 KB tile, 1 per pass", tiles<1, 0>, kRow},
                              {"800 KB tile, 2 per pass", tiles<2, 0>, kRow},
                              {"800 KB tile, 4 per pass", tiles<4, 0>, kRow},
                              {"800 KB tile, 4 per pass, +512 B", tiles<4, 512>, kRow},
                              {"400 KB tiles, 1 per pass", tiles<1, 0>, kRow / 2},
                              {"400 KB tiles, 2 per pass", tiles<2, 0>, kRow / 2},
                              {"200 KB tiles, 2 per pass", tiles<2, 0>, kRow / 4},
                              {"200 KB tiles, 4 per pass", tiles<4, 0>, kRow / 4}};
  for (int round = 0; round < 3; ++round) {
    for (const Variant& v : variants) {
      double best = 1e9;
      for (int call = 0; call < 40; ++call) {
        const double start = probe::seconds();
        v.run(in, out, v.tile);
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("%-44s %.3f ms\n", v.name, best * 1e3);
    }
    std::printf("\n");
  }
  std::free(out);
  std::free(in);
}
