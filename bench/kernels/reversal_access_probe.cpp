// A probe, not part of the suite: the memory traffic of `a b c d e -> e d c b a` on
// [16,16,16,16,64] float32 without the transposes. Each tile of the library's kernel reads one
// line from each of 16 rows 1 MB apart (the a axis) and writes 16 whole output lines 256 KB apart
// (the e axis) with streaming stores. Here the same tiles, in the same order, only read (reads
// only), only write registers of constants (stores only), or move the loaded lines unchanged
// (both); next to memcpy of the 16.8 MB. With the library at about the time of "both", the
// reversal runs at the speed of its access pattern, not of its shuffles. "staged" first copies
// each block's 16 rows of 4 KB whole into an L2 buffer (sequential reads), then reads the tiles
// from there: the rows no longer crowd one L2 set, but the copy costs as much as it saves.
//   g++ -O2 -mavx512f -std=c++20 bench/kernels/reversal_access_probe.cpp -o /tmp/reversal_access_probe
//   /tmp/reversal_access_probe
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memory.hpp"

namespace {

constexpr std::int64_t kElements = std::int64_t{16} * 16 * 16 * 16 * 64;
// Strides in floats. Input [a b c d e]: a 262144, b 16384, c 1024, d 64, e 1.
// Output [e d c b a]: e 65536, d 4096, c 256, b 16, a 1.
constexpr std::int64_t kInA = 262144, kInB = 16384, kInC = 1024, kInD = 64;
constexpr std::int64_t kOutE = 65536, kOutD = 4096, kOutC = 256, kOutB = 16;


enum class Traffic { reads, stores, both };
float sink;

/// Tiles as the library visits them: batch entries (c, d) with d inner (input order), bands of
/// 16 rows (one b), then the four 16-float lines of e.
template <Traffic kTraffic>
void tiles(const float* in, float* out) {
  __m512 sum = _mm512_setzero_ps();
  __m512 v[16];
  for (std::int64_t c = 0; c < 16; ++c)
    for (std::int64_t d = 0; d < 16; ++d)
      for (std::int64_t b = 0; b < 16; ++b)
        for (std::int64_t line = 0; line < 4; ++line) {
          const float* rows = in + c * kInC + d * kInD + b * kInB + line * 16;
          float* lines = out + line * 16 * kOutE + d * kOutD + c * kOutC + b * kOutB;
          for (int a = 0; a < 16; ++a)
            v[a] = kTraffic == Traffic::stores ? _mm512_set1_ps(static_cast<float>(a)) : _mm512_load_ps(rows + a * kInA);
          if constexpr (kTraffic == Traffic::reads) {
            for (int a = 0; a < 16; ++a) sum = _mm512_add_ps(sum, v[a]);
          } else {
            for (int e = 0; e < 16; ++e) _mm512_stream_ps(lines + e * kOutE, v[e]);
          }
        }
  _mm_sfence();
  alignas(64) float lanes[16];  // (_mm512_reduce_add_ps draws a false -Wuninitialized from GCC 12)
  _mm512_store_ps(lanes, sum);
  sink += lanes[0];
}

/// Staged: each (c, b) block's 16 rows of 4 KB (d and e) are first copied whole, one row after
/// another, into an L2 buffer (rows 4 KB and a line apart, so in different sets); the tiles then
/// read it, and store (kStores) or only add up what they read.
template <bool kStores>
void staged(const float* in, float* out) {
  constexpr std::int64_t kPitch = 1024 + 16;
  alignas(64) static float stage[16 * kPitch];
  __m512 sum = _mm512_setzero_ps();
  for (std::int64_t c = 0; c < 16; ++c)
    for (std::int64_t b = 0; b < 16; ++b) {
      for (int a = 0; a < 16; ++a) {
        const float* run = in + a * kInA + b * kInB + c * kInC;
        for (int i = 0; i < 1024; i += 16) _mm512_store_ps(stage + a * kPitch + i, _mm512_load_ps(run + i));
      }
      for (std::int64_t d = 0; d < 16; ++d)
        for (std::int64_t line = 0; line < 4; ++line) {
          __m512 v[16];
          for (int a = 0; a < 16; ++a) v[a] = _mm512_load_ps(stage + a * kPitch + d * 64 + line * 16);
          float* lines = out + line * 16 * kOutE + d * kOutD + c * kOutC + b * kOutB;
          if constexpr (kStores) {
            for (int e = 0; e < 16; ++e) _mm512_stream_ps(lines + e * kOutE, v[e]);
          } else {
            for (int a = 0; a < 16; ++a) sum = _mm512_add_ps(sum, v[a]);
          }
        }
    }
  _mm_sfence();
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, sum);
  sink += lanes[0];
}

}  // namespace

int main() {
  float* in = probe::huge_buffer<float>(static_cast<std::size_t>(kElements));
  float* out = probe::huge_buffer<float>(static_cast<std::size_t>(kElements));
  for (std::int64_t i = 0; i < kElements; ++i) in[i] = static_cast<float>(i % 1000);
  struct Variant {
    const char* name;
    void (*run)(const float*, float*);
  };
  const Variant variants[] = {
      {"memcpy", [](const float* x, float* y) { std::memcpy(y, x, static_cast<std::size_t>(kElements) * 4); }},
      {"reads only", tiles<Traffic::reads>},
      {"stores only", tiles<Traffic::stores>},
      {"both", tiles<Traffic::both>}, {"staged reads", staged<false>}, {"staged both", staged<true>}};
  for (int round = 0; round < 3; ++round) {
    for (const Variant& v : variants) {
      double best = 1e9;
      for (int repeat = 0; repeat < 20; ++repeat) {
        const double start = probe::seconds();
        v.run(in, out);
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("%-12s %7.3f ms\n", v.name, best * 1e3);
    }
    std::puts("");
  }
  std::free(in);
  std::free(out);
}
