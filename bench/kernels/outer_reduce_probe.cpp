// A probe, not part of the suite: `b c h w -> b h w` float32 sum over [32,64,56,56] (reduce the
// channels, whose rows follow each other in memory) in plain AVX2 loops, next to a read pass
// over the same 25.7 MB. It shows why outer reductions over rows in sequence take one step per
// pass with the next pass prefetched into L2 (reduce_schedule.hpp, `sequential_steps`), and what
// prefetching along the row instead does. Zen 4 (earlier): one row per pass with the next pass
// prefetched 1.03-1.09x the read pass's time, without 1.7-2.4x. Zen 5, ten runs on 5 December:
// without 1.06-1.34x, with 1.24-1.52x (0.97-1.2x the time without, in the same run), 512 B - 6 KB
// ahead 1.29-1.74x, 2 rows per pass 1.7-1.8x, 8 rows 2.4-2.7x.
//   g++ -O2 -mavx2 -std=c++20 bench/kernels/outer_reduce_probe.cpp -o /tmp/outer_reduce_probe
//   /tmp/outer_reduce_probe
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memory.hpp"

namespace {

constexpr int kBatch = 32, kChannels = 64, kPlane = 56 * 56;
constexpr std::size_t kInput = std::size_t{kBatch} * kChannels * kPlane;


/// The reference: one sequential read of the input.
void read_pass(const float* in, float* out, float*) {
  __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
  for (std::size_t i = 0; i < kInput; i += 32) {
    a = _mm256_add_ps(a, _mm256_loadu_ps(in + i));
    b = _mm256_add_ps(b, _mm256_loadu_ps(in + i + 8));
    c = _mm256_add_ps(c, _mm256_loadu_ps(in + i + 16));
    d = _mm256_add_ps(d, _mm256_loadu_ps(in + i + 24));
  }
  _mm256_storeu_ps(out, _mm256_add_ps(_mm256_add_ps(a, b), _mm256_add_ps(c, d)));
}

/// What each pass prefetches as it reads a line of its rows: nothing; the same line of the next
/// pass's rows, into L2; or the line kAhead bytes further along the same row, into L1 or L2.
enum class Prefetch { none, next_pass, ahead_l1, ahead_l2 };

/// kRows channel rows per pass over an L1 accumulator row.
template <int kRows, Prefetch kPrefetch, int kAhead = 0>
void rows_per_pass(const float* in, float* out, float* acc) {
  for (int b = 0; b < kBatch; ++b) {
    const float* x = in + std::size_t{static_cast<unsigned>(b)} * kChannels * kPlane;
    std::fill(acc, acc + kPlane, 0.0f);
    for (int c = 0; c < kChannels; c += kRows) {
      const float* rows = x + std::size_t{static_cast<unsigned>(c)} * kPlane;
      int j = 0;
      for (; j + 16 <= kPlane; j += 16) {
        for (int k = 0; k < kRows; ++k) {
          const char* line = reinterpret_cast<const char*>(rows + k * kPlane + j);
          if constexpr (kPrefetch == Prefetch::next_pass)
            _mm_prefetch(reinterpret_cast<const char*>(rows + (kRows + k) * kPlane + j), _MM_HINT_T1);
          if constexpr (kPrefetch == Prefetch::ahead_l1) _mm_prefetch(line + kAhead, _MM_HINT_T0);
          if constexpr (kPrefetch == Prefetch::ahead_l2) _mm_prefetch(line + kAhead, _MM_HINT_T1);
        }
        for (int h = 0; h < 16; h += 8) {
          __m256 sum = _mm256_loadu_ps(rows + j + h);
          for (int k = 1; k < kRows; ++k) sum = _mm256_add_ps(sum, _mm256_loadu_ps(rows + k * kPlane + j + h));
          _mm256_storeu_ps(acc + j + h, _mm256_add_ps(_mm256_loadu_ps(acc + j + h), sum));
        }
      }
      for (; j < kPlane; ++j)
        for (int k = 0; k < kRows; ++k) acc[j] += rows[k * kPlane + j];
    }
    std::memcpy(out + std::size_t{static_cast<unsigned>(b)} * kPlane, acc, kPlane * sizeof(float));
  }
}

}  // namespace

int main() {
  float* in = probe::huge_buffer<float>(kInput + 2 * kPlane);  // slack: the last passes prefetch past the input
  float* out = probe::huge_buffer<float>(std::size_t{kBatch} * kPlane);
  auto* acc = static_cast<float*>(std::aligned_alloc(64, (kPlane * sizeof(float) + 63) / 64 * 64));
  for (std::size_t i = 0; i < kInput; ++i) in[i] = static_cast<float>(static_cast<int>(i % 101) - 50);
  struct Variant {
    const char* name;
    void (*run)(const float*, float*, float*);
  };
  const Variant variants[] = {{"read pass", read_pass},
                              {"8 rows per pass", rows_per_pass<8, Prefetch::none>},
                              {"2 rows per pass", rows_per_pass<2, Prefetch::none>},
                              {"2 rows per pass, next prefetched", rows_per_pass<2, Prefetch::next_pass>},
                              {"1 row per pass", rows_per_pass<1, Prefetch::none>},
                              {"1 row per pass, next prefetched", rows_per_pass<1, Prefetch::next_pass>},
                              {"1 row per pass, L1 +512 B", rows_per_pass<1, Prefetch::ahead_l1, 512>},
                              {"1 row per pass, L1 +2 KB", rows_per_pass<1, Prefetch::ahead_l1, 2048>},
                              {"1 row per pass, L2 +2 KB", rows_per_pass<1, Prefetch::ahead_l2, 2048>},
                              {"1 row per pass, L2 +6 KB", rows_per_pass<1, Prefetch::ahead_l2, 6144>}};
  for (int round = 0; round < 3; ++round) {
    for (const Variant& v : variants) {
      double best = 1e9;
      for (int call = 0; call < 60; ++call) {
        const double start = probe::seconds();
        v.run(in, out, acc);
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("%-32s %.3f ms\n", v.name, best * 1e3);
    }
    std::printf("\n");
  }
  std::free(acc);
  std::free(out);
  std::free(in);
}
