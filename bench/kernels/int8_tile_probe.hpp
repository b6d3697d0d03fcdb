// Shared by the int8 transpose probes (each still built by one g++ command): the library's tile
// scheme for 64 x 64 bytes in plain AVX-512 intrinsics. Four row groups' 16-byte blocks stacked in
// a vector, then four interleave stages that work per 128-bit block.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace int8_tile {

/// After interleave_stages, vector f holds column column_of_vector[f] (of each block's 16 columns).
inline int column_of_vector[16];

/// Interleaves 16 vectors in 8-, 16-, 32- and 64-bit lanes (per 128-bit block): a 16 x 16 byte
/// transpose in each block, its columns in the order column_of_vector gives.
inline void interleave_stages(__m512i* v) {
  __m512i t[16];
  for (int i = 0; i < 8; ++i) t[i] = _mm512_unpacklo_epi8(v[2 * i], v[2 * i + 1]), t[i + 8] = _mm512_unpackhi_epi8(v[2 * i], v[2 * i + 1]);
  for (int i = 0; i < 8; ++i) v[i] = _mm512_unpacklo_epi16(t[2 * i], t[2 * i + 1]), v[i + 8] = _mm512_unpackhi_epi16(t[2 * i], t[2 * i + 1]);
  for (int i = 0; i < 8; ++i) t[i] = _mm512_unpacklo_epi32(v[2 * i], v[2 * i + 1]), t[i + 8] = _mm512_unpackhi_epi32(v[2 * i], v[2 * i + 1]);
  for (int i = 0; i < 8; ++i) v[i] = _mm512_unpacklo_epi64(t[2 * i], t[2 * i + 1]), v[i + 8] = _mm512_unpackhi_epi64(t[2 * i], t[2 * i + 1]);
}

inline __m128i block(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

/// Vector i: the 16-byte blocks at column cg of rows i, 16 + i, 32 + i and 48 + i (row r at
/// in + r * stride), by inserts.
inline void load_stacked_blocks(const std::uint8_t* in, std::int64_t stride, int cg, __m512i* v) {
  for (int i = 0; i < 16; ++i) {
    __m512i x = _mm512_castsi128_si512(block(in + i * stride + cg));
    x = _mm512_inserti32x4(x, block(in + (16 + i) * stride + cg), 1);
    x = _mm512_inserti32x4(x, block(in + (32 + i) * stride + cg), 2);
    v[i] = _mm512_inserti32x4(x, block(in + (48 + i) * stride + cg), 3);
  }
}

/// Fills column_of_vector: the stages run over rows of bytes equal to their column.
inline void find_columns() {
  alignas(64) std::uint8_t lane[64];
  __m512i v[16];
  for (int k = 0; k < 64; ++k) lane[k] = static_cast<std::uint8_t>(k);
  for (auto& x : v) x = _mm512_load_si512(lane);
  interleave_stages(v);
  for (int f = 0; f < 16; ++f) {
    _mm512_store_si512(lane, v[f]);
    column_of_vector[f] = lane[0];
  }
}

}  // namespace int8_tile
