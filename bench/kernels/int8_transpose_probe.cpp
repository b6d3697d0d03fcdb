// A probe, not part of the suite: int8 `b c h w -> b h w c` on [32,64,56,56] (64 x 3136 bytes per
// b) with the library's tile scheme written in plain AVX-512 intrinsics (16-byte blocks of four
// row groups stacked in a vector by inserts, four interleave stages, one whole output line per
// vector), next to the same loads and stores without the shuffles, and memcpy. With the data in
// L2 (b = 2) and at full size (b = 32). The argument is the core clock in GHz.
// Variants of the tile: a second one loads each row's line whole and block-transposes four
// parked groups at the end (no inserts, a quarter of the loads); two build each stacked vector
// from four 128-bit broadcast loads merged by blends, or by masked broadcasts; two as Highway's
// Combine builds it (two 256-bit halves, each a load and an insert, then a 512-bit insert, with
// or without zero-extending the low half).
// Zen 5, 4 December, two runs each: with the data in L2, inserts 274-352 cycles per 4 KB, whole
// lines 249-362, broadcast+blend 387-511, masked broadcasts 259-424, Combine 396-497 (1.25-1.43x
// the inserts in the same run); at full size Combine 1.2-1.5x the inserts' time. The library
// built its stacked vectors with Combine until then; it now inserts from memory as here (int8
// `b c h w -> b h w c` 0.80x the time with one and two threads, five alternating runs).
// (Figures of this probe before 4 December 23:40 UTC, 420-424 cycles, were taken with the stages
// in a function that was not inlined.)
//   g++ -O3 -mavx512f -mavx512bw -mavx512vl -mavx512dq -std=c++20 bench/kernels/int8_transpose_probe.cpp -o /tmp/i8p
//   /tmp/i8p 3.56
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "int8_tile_probe.hpp"

#include "probe_memory.hpp"

namespace {

using int8_tile::block;
using int8_tile::column_of_vector;
using int8_tile::interleave_stages;

constexpr std::int64_t kChannels = 64, kPixels = 3136, kSlice = kChannels * kPixels;

/// One 64 x 64 tile: rows `in + r * stride`, output lines `out + column * 64`; `load(in, stride,
/// cg, v)` builds the 16 stacked vectors of column group cg (the variants differ only there).
template <class Load>
inline void stacked_tile(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out, Load load) {
  for (int cg = 0; cg < 64; cg += 16) {
    __m512i v[16];
    load(in, stride, cg, v);
    interleave_stages(v);
    for (int f = 0; f < 16; ++f) _mm512_store_si512(out + (cg + column_of_vector[f]) * 64, v[f]);
  }
}

/// Stacked by three inserts from memory (the library's way since 4 December).
__attribute__((noinline)) void transpose_tile(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  // A lambda, not the function's address: a pointer would not be inlined.
  stacked_tile(in, stride, out, [](const std::uint8_t* rows, std::int64_t step, int cg, __m512i* v) {
    int8_tile::load_stacked_blocks(rows, step, cg, v);
  });
}

/// Four 128-bit broadcast loads merged by blends (ALU ports) instead of inserts (shuffle ports).
__attribute__((noinline)) void transpose_tile_blend(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  stacked_tile(in, stride, out, [](const std::uint8_t* rows, std::int64_t step, int cg, __m512i* v) {
    for (int i = 0; i < 16; ++i) {
      const __m512i x = _mm512_broadcast_i32x4(block(rows + i * step + cg));
      const __m512i y = _mm512_broadcast_i32x4(block(rows + (16 + i) * step + cg));
      const __m512i z = _mm512_broadcast_i32x4(block(rows + (32 + i) * step + cg));
      const __m512i w = _mm512_broadcast_i32x4(block(rows + (48 + i) * step + cg));
      v[i] = _mm512_mask_blend_epi64(0xF0, _mm512_mask_blend_epi64(0x0C, x, y), _mm512_mask_blend_epi64(0xC0, z, w));
    }
  });
}

/// Masked broadcast loads merging into one register.
__attribute__((noinline)) void transpose_tile_masked(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  stacked_tile(in, stride, out, [](const std::uint8_t* rows, std::int64_t step, int cg, __m512i* v) {
    for (int i = 0; i < 16; ++i) {
      __m512i x = _mm512_broadcast_i32x4(block(rows + i * step + cg));
      x = _mm512_mask_broadcast_i32x4(x, 0x00F0, block(rows + (16 + i) * step + cg));
      x = _mm512_mask_broadcast_i32x4(x, 0x0F00, block(rows + (32 + i) * step + cg));
      v[i] = _mm512_mask_broadcast_i32x4(x, 0xF000, block(rows + (48 + i) * step + cg));
    }
  });
}

/// As Highway's Combine builds them (the library's way until 4 December): two 256-bit halves, each
/// a 128-bit load plus an insert, then a 512-bit insert; the low half zero-extended (kZext, as
/// Highway does) or not.
template <bool kZext>
__attribute__((noinline)) void transpose_tile_combine(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  stacked_tile(in, stride, out, [](const std::uint8_t* rows, std::int64_t step, int cg, __m512i* v) {
    const auto pair = [&](int first, int second) {
      return _mm256_inserti128_si256(_mm256_castsi128_si256(block(rows + first * step + cg)), block(rows + second * step + cg), 1);
    };
    for (int i = 0; i < 16; ++i) {
      const __m256i lo = pair(i, 16 + i), hi = pair(32 + i, 48 + i);
      v[i] = kZext ? _mm512_inserti32x8(_mm512_zextsi256_si512(lo), hi, 1) : _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
    }
  });
}

/// The tile from whole-line loads: each group of 16 rows (one 64-byte line each) goes through the
/// four interleave stages, leaving in block k of vector f column 16k + column_of_vector[f] of its
/// rows; the groups wait in an L1 buffer, then a 4 x 4 block transpose across them makes each
/// output line. Four times fewer loads and no inserts, for 128 block shuffles and a buffer.
__attribute__((noinline)) void transpose_tile_lines(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  alignas(64) __m512i groups[4][16];
  for (int g = 0; g < 4; ++g) {
    __m512i v[16];
    for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_si512(in + (16 * g + i) * stride);
    interleave_stages(v);
    for (int f = 0; f < 16; ++f) groups[g][f] = v[f];
  }
  for (int f = 0; f < 16; ++f) {
    const __m512i a = groups[0][f], b = groups[1][f], c = groups[2][f], d = groups[3][f];
    const __m512i ab_low = _mm512_shuffle_i64x2(a, b, 0x44), ab_high = _mm512_shuffle_i64x2(a, b, 0xEE);
    const __m512i cd_low = _mm512_shuffle_i64x2(c, d, 0x44), cd_high = _mm512_shuffle_i64x2(c, d, 0xEE);
    std::uint8_t* line = out + column_of_vector[f] * 64;
    _mm512_store_si512(line, _mm512_shuffle_i64x2(ab_low, cd_low, 0x88));
    _mm512_store_si512(line + 16 * 64, _mm512_shuffle_i64x2(ab_low, cd_low, 0xDD));
    _mm512_store_si512(line + 32 * 64, _mm512_shuffle_i64x2(ab_high, cd_high, 0x88));
    _mm512_store_si512(line + 48 * 64, _mm512_shuffle_i64x2(ab_high, cd_high, 0xDD));
  }
}

/// The same tile's loads and stores, lines moved as they are.
__attribute__((noinline)) void move_tile(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out) {
  for (int r = 0; r < 64; ++r) _mm512_store_si512(out + r * 64, _mm512_loadu_si512(in + r * stride));
}

template <class Tile>
void run(const std::uint8_t* in, std::uint8_t* out, std::int64_t batch, Tile tile) {
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t c = 0; c < kPixels; c += 64) tile(in + b * kSlice + c, kPixels, out + b * kSlice + c * 64);
}

}  // namespace

int main(int argc, char** argv) {
  const double ghz = argc > 1 ? std::atof(argv[1]) : 3.0;
  int8_tile::find_columns();
  const std::size_t bytes = 32 * kSlice;
  auto* in = static_cast<std::uint8_t*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
  auto* out = static_cast<std::uint8_t*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
  madvise(in, bytes, MADV_HUGEPAGE);
  madvise(out, bytes, MADV_HUGEPAGE);
  for (std::size_t i = 0; i < bytes; ++i) in[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
  std::memset(out, 0, bytes);
  for (auto tile : {transpose_tile, transpose_tile_lines, transpose_tile_blend, transpose_tile_masked, transpose_tile_combine<true>, transpose_tile_combine<false>}) {
    std::memset(out, 0, bytes);
    run(in, out, 32, tile);
    for (std::int64_t b = 0; b < 32; ++b)
      for (std::int64_t c = 0; c < kChannels; ++c)
        for (std::int64_t x = 0; x < kPixels; ++x)
          if (out[b * kSlice + x * 64 + c] != in[b * kSlice + c * kPixels + x]) return std::printf("wrong transpose\n"), 1;
  }
  for (std::int64_t batch : {2, 32}) {
    const auto report = [&](const char* name, auto pass) {
      double best = 1e9;
      for (int repeat = 0; repeat < (batch == 2 ? 400 : 40); ++repeat) {
        const double start = probe::seconds();
        pass();
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("b=%2lld %-26s %8.4f ms %6.0f cycles per 4 KB at %.2f GHz\n", static_cast<long long>(batch), name,
                  best * 1e3, best * ghz * 1e9 / (static_cast<double>(batch * kSlice) / 4096), ghz);
    };
    report("memcpy", [&] { std::memcpy(out, in, static_cast<std::size_t>(batch * kSlice)); });
    report("transpose", [&] { run(in, out, batch, transpose_tile); });
    report("transpose, whole lines", [&] { run(in, out, batch, transpose_tile_lines); });
    report("transpose, broadcast+blend", [&] { run(in, out, batch, transpose_tile_blend); });
    report("transpose, masked broadcast", [&] { run(in, out, batch, transpose_tile_masked); });
    report("transpose, combine (library)", [&] { run(in, out, batch, transpose_tile_combine<true>); });
    report("transpose, combine, no zext", [&] { run(in, out, batch, transpose_tile_combine<false>); });
    report("loads and stores only", [&] { run(in, out, batch, move_tile); });
  }
  std::free(in);
  std::free(out);
}
