// A probe, not part of the suite: stores alone of whole 64-byte lines to a warm [64, N] float32
// output (N = 1024: each channel's line 4 KB long, every channel's line r in one L1 set), in the
// orders a transpose could write them: sequential; "bandsR" (R rows of every channel, then the
// next R rows); "colsG xR" (G channels at a time, R rows of each, down all rows); with prefetchw
// ahead ("pfwK", K tiles); with the channel stride padded by one line ("pad"); with 256-bit stores.
// Next to memcpy and to reads of the input in the transpose's order.
//   g++ -O3 -std=c++20 -mavx512f -mavx512vl -mavx2 bench/kernels/warm_transpose_stores_probe.cpp -o
//   /tmp/warm_transpose_stores_probe taskset -c 1 /tmp/warm_transpose_stores_probe 1024 1000
#include <immintrin.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
int N = 1024;
const int C = 64;
template <int kOrder, int kRowsPerTile>
void stores(const float* in, float* out) {
  __m512 v = _mm512_loadu_ps(in);
  if constexpr (kOrder == 0) {  // sequential
    for (long i = 0; i < (long)N * C; i += 16) _mm512_storeu_ps(out + i, v);
  } else if constexpr (kOrder == 1) {  // bands: for r band (kRowsPerTile), for channel c: store lines
    for (int r = 0; r < N; r += kRowsPerTile)
      for (int c = 0; c < C; ++c)
        for (int q = 0; q < kRowsPerTile; q += 16) _mm512_storeu_ps(out + (long)c * N + r + q, v);
  } else if constexpr (kOrder >= 10) {  // cols16 x16 with prefetchw (kOrder - 10) tiles ahead, padded stride
    constexpr int kAhead = kOrder - 10;
    for (int c0 = 0; c0 < C; c0 += 16)
      for (int r = 0; r < N; r += kRowsPerTile) {
        if (kAhead > 0 && r + kAhead * 16 < N)
          for (int c = c0; c < c0 + 16; ++c)
            _mm_prefetch((const char*)(out + (long)c * N + r + kAhead * 16), _MM_HINT_ET0);
        for (int c = c0; c < c0 + 16; ++c)
          for (int q = 0; q < kRowsPerTile; q += 16) _mm512_storeu_ps(out + (long)c * N + r + q, v);
      }
  } else if constexpr (kOrder == 3) {  // cols16 x16, output line stride padded by 64 bytes
    for (int c0 = 0; c0 < C; c0 += 16)
      for (int r = 0; r < N; r += kRowsPerTile)
        for (int c = c0; c < c0 + 16; ++c)
          for (int q = 0; q < kRowsPerTile; q += 16) _mm512_storeu_ps(out + (long)c * (N + 16) + r + q, v);
  } else if constexpr (kOrder == 4) {  // cols 4 outer x64 rows
    for (int c0 = 0; c0 < C; c0 += 4)
      for (int r = 0; r < N; r += kRowsPerTile)
        for (int c = c0; c < c0 + 4; ++c)
          for (int q = 0; q < kRowsPerTile; q += 16) _mm512_storeu_ps(out + (long)c * N + r + q, v);
  } else if constexpr (kOrder == 5) {  // 256-bit stores, cols16 x16
    __m256 h = _mm512_castps512_ps256(v);
    for (int c0 = 0; c0 < C; c0 += 16)
      for (int r = 0; r < N; r += kRowsPerTile)
        for (int c = c0; c < c0 + 16; ++c)
          for (int q = 0; q < kRowsPerTile; q += 8) _mm256_storeu_ps(out + (long)c * N + r + q, h);
  } else if constexpr (kOrder == 2) {  // column groups of 16 outer, then bands
    for (int c0 = 0; c0 < C; c0 += 16)
      for (int r = 0; r < N; r += kRowsPerTile)
        for (int c = c0; c < c0 + 16; ++c)
          for (int q = 0; q < kRowsPerTile; q += 16) _mm512_storeu_ps(out + (long)c * N + r + q, v);
  }
}
template <int kOrder, int kRowsPerTile>
void loads(const float* in, float* out) {  // loads of the transpose's input in its order
  __m512 acc = _mm512_setzero_ps();
  if constexpr (kOrder == 0) {
    for (long i = 0; i < (long)N * C; i += 16) acc = _mm512_add_ps(acc, _mm512_loadu_ps(in + i));
  } else {
    for (int c0 = 0; c0 < C; c0 += 16)
      for (int r = 0; r < N; ++r) acc = _mm512_add_ps(acc, _mm512_loadu_ps(in + (long)r * C + c0));
  }
  _mm512_storeu_ps(out, acc);
}
int main(int argc, char** argv) {
  N = argc > 1 ? atoi(argv[1]) : 1024;
  const int reps = argc > 2 ? atoi(argv[2]) : 1000;
  size_t bytes = (size_t)N * C * 4;
  float* in = (float*)aligned_alloc(4096, bytes);
  float* out = (float*)aligned_alloc(4096, bytes + 4096);
  for (size_t i = 0; i < bytes / 4; ++i) in[i] = (float)i;
  memset(out, 0, bytes);
  struct K {
    const char* name;
    void (*f)(const float*, float*);
  };
  K ks[] = {
      {"memcpy", [](const float* a, float* b) { memcpy(b, a, (size_t)N * C * 4); }},
      {"stores seq", stores<0, 16>},
      {"stores bands16", stores<1, 16>},
      {"stores bands32", stores<1, 32>},
      {"stores bands64", stores<1, 64>},
      {"stores cols16 x16", stores<2, 16>},
      {"stores cols16 x64", stores<2, 64>},
      {"stores cols16 x16 pfw1", stores<11, 16>},
      {"stores cols16 x16 pfw2", stores<12, 16>},
      {"stores cols16 x16 pfw4", stores<14, 16>},
      {"stores cols16 x16 pfw8", stores<18, 16>},
      {"stores cols16 x16 pad", stores<3, 16>},
      {"stores cols4 x16", stores<4, 16>},
      {"stores cols4 x64", stores<4, 64>},
      {"stores cols16 x16 ymm", stores<5, 16>},
      {"loads seq", loads<0, 16>},
      {"loads col-outer", loads<1, 16>},
  };
  const int kRounds = 5;
  std::vector<std::vector<double>> res(sizeof(ks) / sizeof(ks[0]));
  for (int round = 0; round < kRounds; ++round)
    for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); ++k) {
      for (int i = 0; i < 50; ++i) ks[k].f(in, out);
      double best = 1e9;
      for (int t = 0; t < 5; ++t) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i) {
          ks[k].f(in, out);
          asm volatile("" ::: "memory");
        }
        auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
      }
      res[k].push_back(best);
    }
  for (size_t k = 0; k < res.size(); ++k) {
    std::sort(res[k].begin(), res[k].end());
    printf("N=%d %-24s min %.3f med %.3f us\n", N, ks[k].name, res[k][0], res[k][kRounds / 2]);
  }
}
