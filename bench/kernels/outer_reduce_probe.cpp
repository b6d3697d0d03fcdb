// A probe, not part of the suite: `b c h w -> b h w` float32 sum over [32,64,56,56] (reduce the
// channels, whose rows follow each other in memory) in three plain AVX2 loops, next to a read pass
// over the same 25.7 MB. It shows why outer reductions over rows in sequence take one step per
// pass with the next pass prefetched into L2 (reduce_schedule.hpp, `sequential_steps`):
//   g++ -O2 -mavx2 -std=c++20 bench/kernels/outer_reduce_probe.cpp -o /tmp/outer_reduce_probe
//   /tmp/outer_reduce_probe
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr int kBatch = 32, kChannels = 64, kPlane = 56 * 56;
constexpr std::size_t kInput = std::size_t{kBatch} * kChannels * kPlane;

double seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

float* huge_buffer(std::size_t floats) {
  const std::size_t bytes = (floats * sizeof(float) + (std::size_t{2} << 20) - 1) / (std::size_t{2} << 20) * (std::size_t{2} << 20);
  auto* p = static_cast<float*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

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

/// kRows channel rows per pass over an L1 accumulator row; with kNextPass, each line of the next
/// pass's rows is prefetched into L2 as the same line of this pass is read.
template <int kRows, bool kNextPass>
void rows_per_pass(const float* in, float* out, float* acc) {
  for (int b = 0; b < kBatch; ++b) {
    const float* x = in + std::size_t{static_cast<unsigned>(b)} * kChannels * kPlane;
    std::fill(acc, acc + kPlane, 0.0f);
    for (int c = 0; c < kChannels; c += kRows) {
      const float* rows = x + std::size_t{static_cast<unsigned>(c)} * kPlane;
      int j = 0;
      for (; j + 16 <= kPlane; j += 16) {
        if constexpr (kNextPass)
          for (int k = 0; k < kRows; ++k) _mm_prefetch(reinterpret_cast<const char*>(rows + (kRows + k) * kPlane + j), _MM_HINT_T1);
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
  float* in = huge_buffer(kInput + kPlane);  // one row of slack: the last pass prefetches past the input
  float* out = huge_buffer(std::size_t{kBatch} * kPlane);
  auto* acc = static_cast<float*>(std::aligned_alloc(64, (kPlane * sizeof(float) + 63) / 64 * 64));
  for (std::size_t i = 0; i < kInput; ++i) in[i] = static_cast<float>(static_cast<int>(i % 101) - 50);
  struct Variant {
    const char* name;
    void (*run)(const float*, float*, float*);
  };
  const Variant variants[] = {{"read pass", read_pass},
                              {"8 rows per pass", rows_per_pass<8, false>},
                              {"1 row per pass", rows_per_pass<1, false>},
                              {"1 row per pass, next prefetched", rows_per_pass<1, true>}};
  for (int round = 0; round < 3; ++round) {
    for (const Variant& v : variants) {
      double best = 1e9;
      for (int call = 0; call < 60; ++call) {
        const double start = seconds();
        v.run(in, out, acc);
        best = std::min(best, seconds() - start);
      }
      std::printf("%-32s %.3f ms\n", v.name, best * 1e3);
    }
    std::printf("\n");
  }
  std::free(acc);
  std::free(out);
  std::free(in);
}
