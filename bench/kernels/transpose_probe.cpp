// A probe, not part of the suite: how fast this machine transposes a 4096x4096 float32 matrix
// with plain AVX2 8x8 register transposes (blocked, band orders, with and without streaming
// stores), next to memcpy of the same bytes. It bounds what any kernel can expect here.
//   g++ -O2 -mavx2 -std=c++20 bench/kernels/transpose_probe.cpp -o /tmp/transpose_probe && /tmp/transpose_probe
#include <immintrin.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cstdint>
#include <algorithm>
constexpr int N = 4096;
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// 8x8 AVX2 transpose of floats
static inline void t8(const float* in, std::int64_t is, float* out, std::int64_t os, bool nt) {
  __m256 r0 = _mm256_loadu_ps(in + 0 * is), r1 = _mm256_loadu_ps(in + 1 * is), r2 = _mm256_loadu_ps(in + 2 * is), r3 = _mm256_loadu_ps(in + 3 * is);
  __m256 r4 = _mm256_loadu_ps(in + 4 * is), r5 = _mm256_loadu_ps(in + 5 * is), r6 = _mm256_loadu_ps(in + 6 * is), r7 = _mm256_loadu_ps(in + 7 * is);
  __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
  __m256 t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5), t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
  __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE), s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE), s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  __m256 o[8] = {_mm256_permute2f128_ps(s0, s4, 0x20), _mm256_permute2f128_ps(s1, s5, 0x20), _mm256_permute2f128_ps(s2, s6, 0x20), _mm256_permute2f128_ps(s3, s7, 0x20),
                 _mm256_permute2f128_ps(s0, s4, 0x31), _mm256_permute2f128_ps(s1, s5, 0x31), _mm256_permute2f128_ps(s2, s6, 0x31), _mm256_permute2f128_ps(s3, s7, 0x31)};
  if (nt) for (int i = 0; i < 8; ++i) _mm256_stream_ps(out + i * os, o[i]);
  else for (int i = 0; i < 8; ++i) _mm256_storeu_ps(out + i * os, o[i]);
}
int main(int argc, char**) {  // any argument: ask for transparent huge pages
  float* a = (float*)aligned_alloc(1 << 21, sizeof(float) * N * N);
  float* b = (float*)aligned_alloc(1 << 21, sizeof(float) * N * N);
  if (argc > 1) { madvise(a, sizeof(float) * N * N, MADV_HUGEPAGE); madvise(b, sizeof(float) * N * N, MADV_HUGEPAGE); }
  for (std::int64_t i = 0; i < (std::int64_t)N * N; ++i) { a[i] = (float)i; b[i] = 0; }
  auto bench = [&](const char* name, auto f) {
    double best = 1e9;
    for (int rep = 0; rep < 7; ++rep) { double t = now(); f(); best = std::min(best, now() - t); }
    std::printf("%-28s %7.2f ms\n", name, best * 1e3);
  };
  bench("memcpy", [&] { std::memcpy(b, a, sizeof(float) * N * N); });
  for (int B : {16, 32, 64, 128}) for (int nt = 0; nt < 2; ++nt) {
    char name[64]; std::snprintf(name, 64, "avx2 8x8 block %d nt %d", B, nt);
    bench(name, [&] {
      for (int i0 = 0; i0 < N; i0 += B) for (int j0 = 0; j0 < N; j0 += B)
        for (int i = i0; i < i0 + B; i += 8) for (int j = j0; j < j0 + B; j += 8) t8(a + (std::int64_t)i * N + j, N, b + (std::int64_t)j * N + i, N, nt);
      _mm_sfence();
    });
  }
  // row-band order: for a band of 8 input rows, sweep all columns (writes 8 floats into each output row)
  for (int nt = 0; nt < 2; ++nt) { char name[64]; std::snprintf(name, 64, "avx2 band8 nt %d", nt);
    bench(name, [&] { for (int i = 0; i < N; i += 8) for (int j = 0; j < N; j += 8) t8(a + (std::int64_t)i * N + j, N, b + (std::int64_t)j * N + i, N, nt); _mm_sfence(); }); }
  // column-band: for a band of 8 output rows (= 8 input cols), sweep all input rows
  for (int nt = 0; nt < 2; ++nt) { char name[64]; std::snprintf(name, 64, "avx2 colband8 nt %d", nt);
    bench(name, [&] { for (int j = 0; j < N; j += 8) for (int i = 0; i < N; i += 8) t8(a + (std::int64_t)i * N + j, N, b + (std::int64_t)j * N + i, N, nt); _mm_sfence(); }); }
  std::printf("check %f\n", b[N + 5]);
}
