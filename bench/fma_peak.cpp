// A register-only multiply-add loop (see fma_peak.hpp): kChains independent accumulators, more
// than the multiply-add latency times the units that issue them, so that the loop is bound by
// issue throughput alone; best of kTrials timed runs.
#include "fma_peak.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace bench {
namespace {

/// Independent accumulators: at least latency (4-5 cycles) x units (2) on current cores.
constexpr int kChains = 12;
constexpr std::int64_t kIterations = std::int64_t{1} << 22;
constexpr int kTrials = 20;

#if defined(__x86_64__)
/// Returns the sum of the chains, so that no chain is optimised away.
__attribute__((target("avx2,fma"))) float chains_float(std::int64_t iterations) {
  __m256 acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_ps(static_cast<float>(c) * 1e-3f);
  const __m256 x = _mm256_set1_ps(0.999999f), y = _mm256_set1_ps(1e-7f);
  for (std::int64_t i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], x, y);
  __m256 sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm256_add_ps(sum, acc[c]);
  return _mm256_cvtss_f32(sum);
}

__attribute__((target("avx2,fma"))) double chains_double(std::int64_t iterations) {
  __m256d acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = _mm256_set1_pd(static_cast<double>(c) * 1e-3);
  const __m256d x = _mm256_set1_pd(0.999999), y = _mm256_set1_pd(1e-7);
  for (std::int64_t i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = _mm256_fmadd_pd(acc[c], x, y);
  __m256d sum = acc[0];
  for (int c = 1; c < kChains; ++c) sum = _mm256_add_pd(sum, acc[c]);
  return _mm256_cvtsd_f64(sum);
}

bool has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#endif

template <class T>
T chains_scalar(std::int64_t iterations) {
  T acc[kChains];
  for (int c = 0; c < kChains; ++c) acc[c] = static_cast<T>(c) * static_cast<T>(1e-3);
  for (std::int64_t i = 0; i < iterations; ++i)
    for (int c = 0; c < kChains; ++c) acc[c] = acc[c] * static_cast<T>(0.999999) + static_cast<T>(1e-7);
  T sum = 0;
  for (int c = 0; c < kChains; ++c) sum += acc[c];
  return sum;
}

}  // namespace

double fma_peak_flops(bool float64) {
  int lanes = 1;
  double best = 1e30;
  volatile double sink = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    const auto start = std::chrono::steady_clock::now();
#if defined(__x86_64__)
    if (has_avx2_fma()) {
      lanes = float64 ? 4 : 8;
      sink = sink + (float64 ? chains_double(kIterations) : static_cast<double>(chains_float(kIterations)));
    } else
#endif
    {
      sink = sink +
             (float64 ? chains_scalar<double>(kIterations) : static_cast<double>(chains_scalar<float>(kIterations)));
    }
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return 2.0 * lanes * kChains * static_cast<double>(kIterations) / best;
}

}  // namespace bench
