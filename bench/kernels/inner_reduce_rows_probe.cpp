// A probe, not part of the suite: float32 sums over the innermost axis (`r l -> r`, inner mode)
// through the library, one thread, for few long rows and many short ones, next to an AVX2 read
// pass over the same bytes. It is how batching outputs into one kernel call was judged
// (kOutputBatch in src/kernels/reduce.cpp), with the probe linked against each build's library:
//   g++ -O2 -std=c++20 -Iinclude bench/kernels/inner_reduce_rows_probe.cpp build-ci/libeinops.a -lhwy -pthread
//       -lhwy -lopenblas -lpthread -o /tmp/inner_reduce_rows_probe   (one line)
//   /tmp/inner_reduce_rows_probe
#include <einops/einops.hpp>
#include <immintrin.h>

#include <algorithm>
#include <cstdio>

#include "probe_memory.hpp"

namespace {

/// Reads every float once: four independent AVX2 accumulators.
__attribute__((target("avx2"))) float read_pass(const float* p, std::int64_t n) {
  __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
  for (std::int64_t i = 0; i + 32 <= n; i += 32) {
    a = _mm256_add_ps(a, _mm256_loadu_ps(p + i));
    b = _mm256_add_ps(b, _mm256_loadu_ps(p + i + 8));
    c = _mm256_add_ps(c, _mm256_loadu_ps(p + i + 16));
    d = _mm256_add_ps(d, _mm256_loadu_ps(p + i + 24));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(_mm256_add_ps(a, b), _mm256_add_ps(c, d)));
  return lanes[0] + lanes[7];
}

/// Best of `calls` of the sum and of the read pass, alternating, three times.
void measure(std::int64_t rows, std::int64_t length, int calls) {
  einops::Tensor<float> x({rows, length}), y({rows});
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<float>(i % 17);
  for (int round = 0; round < 3; ++round) {
    double sum_best = 1e9, read_best = 1e9;
    volatile float sink = 0;
    for (int call = 0; call < calls; ++call) {
      double start = probe::seconds();
      einops::reduce_into(x, y, einops::runtime("r l -> r"), "sum");
      sum_best = std::min(sum_best, probe::seconds() - start);
      start = probe::seconds();
      sink = sink + read_pass(x.data(), x.size());
      read_best = std::min(read_best, probe::seconds() - start);
    }
    const double bytes = static_cast<double>(x.size()) * sizeof(float);
    std::printf("r %6lld l %6lld (%6.0f KB): sum %.4f ms | read pass %.4f ms | %3.0f%%\n", static_cast<long long>(rows),
                static_cast<long long>(length), bytes / 1e3, sum_best * 1e3, read_best * 1e3, 100 * read_best / sum_best);
  }
}

}  // namespace

int main() {
  einops::set_num_threads(1);
  measure(64, 3136, 2000);      // 800 KB: in L2
  measure(2048, 3136, 100);     // 25.7 MB: the suite's `b c h w -> b c`
  measure(2048 * 49, 64, 100);  // 25.7 MB in rows of 64
}
