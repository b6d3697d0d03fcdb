// A probe, not part of the suite: how many float16 values per cycle this core widens to float32
// and adds (the work of a float16 sum or mean), on data in L1, next to a plain read. It bounds the
// float16 reductions: no kernel that widens every element is faster than this rate.
// The argument is the core clock in GHz (3.56 on the Zen 4 machine of bench/README.md):
//   g++ -O2 -mavx512f -mavx512bw -mf16c -mfma -std=c++20 bench/kernels/float16_convert_probe.cpp -o /tmp/f16p
//   /tmp/f16p 3.56
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "probe_memory.hpp"

namespace {

constexpr int kCount = 8192;  // 16 KB of float16: stays in L1
alignas(64) std::uint16_t halves[kCount];

float widen_zmm() {  // vcvtph2ps from 256-bit loads into four 512-bit accumulators
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (int i = 0; i < kCount; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(halves + i))));
    a1 = _mm512_add_ps(a1, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(halves + i + 16))));
    a2 = _mm512_add_ps(a2, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(halves + i + 32))));
    a3 = _mm512_add_ps(a3, _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(halves + i + 48))));
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

float widen_ymm() {  // vcvtph2ps from 128-bit loads into four 256-bit accumulators
  __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (int i = 0; i < kCount; i += 32) {
    a0 = _mm256_add_ps(a0, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(halves + i))));
    a1 = _mm256_add_ps(a1, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(halves + i + 8))));
    a2 = _mm256_add_ps(a2, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(halves + i + 16))));
    a3 = _mm256_add_ps(a3, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(halves + i + 24))));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  return lanes[0] + lanes[7];
}

float widen_integer() {  // finite values only: (h << 16) >> 3 (arithmetic), sign kept, times 2^112
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  const __m512 scale = _mm512_set1_ps(0x1p112f);
  const __m512i keep = _mm512_set1_epi32(static_cast<int>(0x8FFFFFFFu));
  const __m512i zero = _mm512_setzero_si512();
  const auto widen = [&](__m512i shifted) { return _mm512_castsi512_ps(_mm512_and_si512(_mm512_srai_epi32(shifted, 3), keep)); };
  for (int i = 0; i < kCount; i += 64) {
    const __m512i x = _mm512_load_si512(halves + i), y = _mm512_load_si512(halves + i + 32);
    a0 = _mm512_fmadd_ps(widen(_mm512_unpacklo_epi16(zero, x)), scale, a0);
    a1 = _mm512_fmadd_ps(widen(_mm512_unpackhi_epi16(zero, x)), scale, a1);
    a2 = _mm512_fmadd_ps(widen(_mm512_unpacklo_epi16(zero, y)), scale, a2);
    a3 = _mm512_fmadd_ps(widen(_mm512_unpackhi_epi16(zero, y)), scale, a3);
  }
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

float read_only() {  // the loads alone
  __m512i a0 = _mm512_setzero_si512(), a1 = a0;
  for (int i = 0; i < kCount; i += 64) {
    a0 = _mm512_or_si512(a0, _mm512_load_si512(halves + i));
    a1 = _mm512_or_si512(a1, _mm512_load_si512(halves + i + 32));
  }
  return static_cast<float>(_mm512_reduce_or_epi32(_mm512_or_si512(a0, a1)));
}

}  // namespace

int main(int argc, char** argv) {
  const double ghz = argc > 1 ? std::atof(argv[1]) : 3.0;
  for (int i = 0; i < kCount; ++i) halves[i] = static_cast<std::uint16_t>(0x3c00 + (i & 1023));  // 1.0 to 2.0
  float sink = 0;
  const auto report = [&](const char* name, float (*pass)()) {
    double best = 1e9;
    for (int repeat = 0; repeat < 200; ++repeat) {
      const double start = probe::seconds();
      for (int k = 0; k < 100; ++k) sink += pass();
      best = std::min(best, probe::seconds() - start);
    }
    std::printf("%-34s %5.2f values per cycle at %.2f GHz\n", name, kCount * 100.0 / (best * ghz * 1e9), ghz);
  };
  report("vcvtph2ps zmm + add", widen_zmm);
  report("vcvtph2ps ymm + add", widen_ymm);
  report("integer widening + fma (finite)", widen_integer);
  report("read only", read_only);
  std::printf("(checksum %g)\n", static_cast<double>(sink));
}
