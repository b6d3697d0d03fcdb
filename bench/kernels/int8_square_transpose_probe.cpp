// A probe, not part of the suite: int8 `h w -> w h` on [4096,4096] (16.8 MB) at full size, one
// thread, with the library's 64 x 64 tile (16-byte blocks of four row groups stacked by inserts,
// four interleave stages, one whole output line per vector) walked in different block shapes,
// orders, prefetch distances and store kinds; next to the same walks moving lines without the
// shuffles, and memcpy.
// Zen 5, 4 December, three rounds per run, two runs (the machine's phases moved memcpy 0.42-0.64
// ms): the library's walk (blocks of 256 rows x 64 columns along bands of rows, lines staged,
// streaming stores) 1.7-2.5 ms, 24-26% of memcpy; the same walk moving lines untransposed
// 1.5-2.1 ms. Moving lines with the transpose's reads but the output written in order: 0.77-1.0
// ms; with reads in order and the transpose's writes (each output row a 256-byte run per block):
// 1.3-1.6 ms. So the strided streaming writes, not the shuffles, take most of the time. No walk
// tried did better: 512-2048 rows per block 0.97-1.12x the time (and 2048 in the library 1.4x);
// prefetching 0, 2 or 4 blocks ahead within the noise; cached stores 1.4x; blocks down bands of
// columns (each output row written on, 64 output streams) 1.2-1.3x, cached 1.5x; a band's
// output transposed into an L2 buffer and streamed out in order 1.8x (the reads lose all order).
// Padding the output rows (4160 or 4352 bytes apart) 0.85-0.9x: a little of it is the power of two.
// Gathering a block's output runs in an L1 buffer, then writing each run in consecutive streaming
// stores: 0.85-0.95x here with 256 rows, 0.75-0.9x with 512; tried in the library (256 rows,
// bench_kernels, five alternating runs): int8 0.96x, float16 and float32 `h w -> w h` 1.25-1.4x
// the time. Not kept.
//   g++ -O3 -mavx512f -mavx512bw -std=c++20 bench/kernels/int8_square_transpose_probe.cpp -o /tmp/i8sq
//   /tmp/i8sq
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

constexpr std::int64_t kSide = 4096;

template <bool kStream>
inline void store_line(std::uint8_t* p, __m512i v) {
  if constexpr (kStream)
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  else
    _mm512_store_si512(p, v);
}

/// What a walk does besides the plain transpose of each tile.
enum class Order {
  transpose,
  writes_in_order,   // moves only: the tiles' reads, output lines written one after another
  reads_in_order,    // moves only: input lines read one after another, the tiles' writes
  buffered_band,     // a band of columns transposed into an L2 buffer, then streamed out in order
  gathered_runs,     // each block's output runs gathered in L1, each then written in one go
};

struct Walk {
  const char* name;
  std::int64_t block_rows, block_cols, prefetch_blocks;
  bool stream, shuffle, stage;
  Order order = Order::transpose;
  bool columns_outer = false;  // blocks walk down a band of columns (each output row written on)
};

/// One 64 x 64 tile: rows `in + r * stride`, output lines `out + column * kSide`.
template <bool kStream, bool kShuffle>
inline void tile(const std::uint8_t* in, std::int64_t stride, std::uint8_t* out, std::int64_t out_stride = kSide) {
  if constexpr (!kShuffle) {
    for (int r = 0; r < 64; ++r) store_line<kStream>(out + r * out_stride, _mm512_loadu_si512(in + r * stride));
    return;
  }
  for (int cg = 0; cg < 64; cg += 16) {
    __m512i v[16];
    int8_tile::load_stacked_blocks(in, stride, cg, v);
    interleave_stages(v);
    for (int f = 0; f < 16; ++f) store_line<kStream>(out + (cg + column_of_vector[f]) * out_stride, v[f]);
  }
}

template <bool kStream, bool kShuffle>
__attribute__((noinline)) void run(const std::uint8_t* in, std::uint8_t* out, const Walk& w) {
  alignas(64) std::uint8_t staged[64 * 64];
  alignas(64) static std::uint8_t grouped[64 * 1024];
  const std::int64_t blocks = (kSide / w.block_rows) * (kSide / w.block_cols);
  for (std::int64_t k = 0; k < blocks; ++k) {
      const std::int64_t r0 = w.columns_outer ? k % (kSide / w.block_rows) * w.block_rows : k / (kSide / w.block_cols) * w.block_rows;
      const std::int64_t c0 = w.columns_outer ? k / (kSide / w.block_rows) * w.block_cols : k % (kSide / w.block_cols) * w.block_cols;
      // The lines of the block prefetch_blocks ahead along the band, at this block's place.
      if (w.columns_outer) {
        const std::int64_t ahead = r0 + w.prefetch_blocks * w.block_rows;
        if (w.prefetch_blocks > 0 && ahead < kSide)
          for (std::int64_t r = ahead; r < ahead + w.block_rows; ++r)
            for (std::int64_t c = c0; c < c0 + w.block_cols; c += 64) _mm_prefetch(reinterpret_cast<const char*>(in + r * kSide + c), _MM_HINT_T1);
      } else {
        const std::int64_t ahead = c0 + w.prefetch_blocks * w.block_cols;
        if (w.prefetch_blocks > 0 && ahead < kSide)
          for (std::int64_t r = r0; r < r0 + w.block_rows; ++r)
            for (std::int64_t c = ahead; c < ahead + w.block_cols; c += 64) _mm_prefetch(reinterpret_cast<const char*>(in + r * kSide + c), _MM_HINT_T1);
      }
      for (std::int64_t r = r0; r < r0 + w.block_rows; r += 64)
        for (std::int64_t c = c0; c < c0 + w.block_cols; c += 64) {
          const std::uint8_t* rows = in + r * kSide + c;
          std::int64_t stride = kSide;
          if (w.stage) {
            for (int i = 0; i < 64; ++i) _mm512_store_si512(staged + i * 64, _mm512_loadu_si512(rows + i * kSide));
            rows = staged;
            stride = 64;
          }
          if (!kShuffle && w.order == Order::writes_in_order) {
            std::uint8_t* target = out + (r / 64 * (kSide / 64) + c / 64) * 4096;
            for (int i = 0; i < 64; ++i) store_line<kStream>(target + i * 64, _mm512_loadu_si512(rows + i * stride));
          } else if (!kShuffle && w.order == Order::reads_in_order) {
            const std::uint8_t* source = in + (r / 64 * (kSide / 64) + c / 64) * 4096;
            for (int i = 0; i < 64; ++i) store_line<kStream>(out + c * kSide + r + i * kSide, _mm512_loadu_si512(source + i * 64));
          } else if (w.order == Order::gathered_runs) {  // into the block's L1 buffer: its output rows side by side
            tile<false, kShuffle>(rows, stride, grouped + (c - c0) * w.block_rows + (r - r0), w.block_rows);
          } else {
            tile<kStream, kShuffle>(rows, stride, out + c * kSide + r);
          }
        }
      if (w.order == Order::gathered_runs)  // each output row's run in consecutive streaming stores
        for (std::int64_t j = 0; j < w.block_cols; ++j)
          for (std::int64_t q = 0; q < w.block_rows; q += 64)
            store_line<kStream>(out + (c0 + j) * kSide + r0 + q, _mm512_load_si512(grouped + j * w.block_rows + q));
    }
  if constexpr (kStream) _mm_sfence();
}

/// Bands of `band` columns: their tiles transposed with cached stores into an L2 buffer that holds
/// the band's output rows (contiguous in the output), which then streams out in order.
template <bool kShuffle>
__attribute__((noinline)) void run_buffered(const std::uint8_t* in, std::uint8_t* out, std::int64_t band, std::int64_t prefetch_tiles) {
  static std::uint8_t* buffer = static_cast<std::uint8_t*>(std::aligned_alloc(4096, 256 * kSide));
  alignas(64) std::uint8_t staged[64 * 64];
  for (std::int64_t c0 = 0; c0 < kSide; c0 += band) {
    for (std::int64_t r = 0; r < kSide; r += 64) {
      const std::int64_t ahead = r + prefetch_tiles * 64;
      if (prefetch_tiles > 0 && ahead < kSide)
        for (std::int64_t i = ahead; i < ahead + 64; ++i)
          for (std::int64_t c = c0; c < c0 + band; c += 64) _mm_prefetch(reinterpret_cast<const char*>(in + i * kSide + c), _MM_HINT_T1);
      for (std::int64_t c = c0; c < c0 + band; c += 64) {
        for (int i = 0; i < 64; ++i) _mm512_store_si512(staged + i * 64, _mm512_loadu_si512(in + (r + i) * kSide + c));
        tile<false, kShuffle>(staged, 64, buffer + (c - c0) * kSide + r);
      }
    }
    std::uint8_t* target = out + c0 * kSide;
    for (std::int64_t i = 0; i < band * kSide; i += 256) {
      const __m512i a = _mm512_load_si512(buffer + i), b = _mm512_load_si512(buffer + i + 64);
      const __m512i c = _mm512_load_si512(buffer + i + 128), d = _mm512_load_si512(buffer + i + 192);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(target + i), a);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(target + i + 64), b);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(target + i + 128), c);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(target + i + 192), d);
    }
  }
  _mm_sfence();
}

void run_walk(const std::uint8_t* in, std::uint8_t* out, const Walk& w) {
  if (w.order == Order::buffered_band) return w.shuffle ? run_buffered<true>(in, out, w.block_cols, w.prefetch_blocks) : run_buffered<false>(in, out, w.block_cols, w.prefetch_blocks);
  if (w.stream)
    w.shuffle ? run<true, true>(in, out, w) : run<true, false>(in, out, w);
  else
    w.shuffle ? run<false, true>(in, out, w) : run<false, false>(in, out, w);
}

}  // namespace

int main() {
  int8_tile::find_columns();
  const std::size_t bytes = kSide * kSide;
  auto* in = static_cast<std::uint8_t*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
  auto* out = static_cast<std::uint8_t*>(std::aligned_alloc(std::size_t{2} << 20, bytes));
  madvise(in, bytes, MADV_HUGEPAGE);
  madvise(out, bytes, MADV_HUGEPAGE);
  for (std::size_t i = 0; i < bytes; ++i) in[i] = static_cast<std::uint8_t>(i * 7 + i / 251);
  const Walk walks[] = {
      {"grouped writes 256x64", 256, 64, 1, true, true, true, Order::gathered_runs},
      {"grouped writes 512x64", 512, 64, 1, true, true, true, Order::gathered_runs},
      {"grouped writes 1024x64", 1024, 64, 1, true, true, true, Order::gathered_runs},
      {"grouped writes 256x64 moves", 256, 64, 1, true, false, true, Order::gathered_runs},
      {"buffered band 64, pf 1", 4096, 64, 1, true, true, true, Order::buffered_band},
      {"buffered band 64, pf 2", 4096, 64, 2, true, true, true, Order::buffered_band},
      {"buffered band 64, pf 0", 4096, 64, 0, true, true, true, Order::buffered_band},
      {"buffered band 128, pf 1", 4096, 128, 1, true, true, true, Order::buffered_band},
      {"buffered band 64, moves", 4096, 64, 1, true, false, true, Order::buffered_band},
      {"cols outer 256x64 pf1", 256, 64, 1, true, true, true, Order::transpose, true},
      {"cols outer 256x64 pf1 cached", 256, 64, 1, false, true, true, Order::transpose, true},
      {"cols outer 4096x64 pf1 cached", 4096, 64, 1, false, true, true, Order::transpose, true},
      {"cols outer 256x64 pf0", 256, 64, 0, true, true, true, Order::transpose, true},
      {"cols outer 64x64 pf1", 64, 64, 1, true, true, true, Order::transpose, true},
      {"cols outer 64x64 pf4", 64, 64, 4, true, true, true, Order::transpose, true},
      {"cols outer 256x128 pf1", 256, 128, 1, true, true, true, Order::transpose, true},
      {"cols outer 64x128 pf2", 64, 128, 2, true, true, true, Order::transpose, true},
      {"cols outer 256x64 moves", 256, 64, 1, true, false, true, Order::transpose, true},
      {"library: 256x64, pf 1, NT, staged", 256, 64, 1, true, true, true},
      {"  same, moves only", 256, 64, 1, true, false, true},
      {"  moves, writes in order", 256, 64, 1, true, false, false, Order::writes_in_order},
      {"  moves, reads in order", 256, 64, 1, true, false, false, Order::reads_in_order},
      {"  not staged", 256, 64, 1, true, true, false},
      {"  cached stores", 256, 64, 1, false, true, true},
      {"  pf 2", 256, 64, 2, true, true, true},
      {"  pf 4", 256, 64, 4, true, true, true},
      {"  pf 0", 256, 64, 0, true, true, true},
      {"64x64, pf 1", 64, 64, 1, true, true, true},
      {"64x64, pf 4", 64, 64, 4, true, true, true},
      {"128x64, pf 2", 128, 64, 2, true, true, true},
      {"256x128, pf 1", 256, 128, 1, true, true, true},
      {"512x64, pf 1", 512, 64, 1, true, true, true},
      {"1024x64, pf 1", 1024, 64, 1, true, true, true},
      {"1024x64, pf 0", 1024, 64, 0, true, true, true},
      {"2048x64, pf 1", 2048, 64, 1, true, true, true},
      {"1024x64, moves", 1024, 64, 1, true, false, true},
      {"64x1024, pf 1", 64, 1024, 1, true, true, true},
      {"64x4096 (row band), pf 0", 64, 4096, 0, true, true, true},
  };
  for (const Walk& w : walks) {
    std::memset(out, 0, bytes);
    run_walk(in, out, w);
    if (w.shuffle)
      for (std::int64_t r = 0; r < kSide; r += 61)
        for (std::int64_t c = 0; c < kSide; ++c)
          if (out[c * kSide + r] != in[r * kSide + c]) return std::printf("wrong transpose: %s\n", w.name), 1;
  }
  double memcpy_best = 1e9;
  for (int round = 0; round < 3; ++round) {
    for (int repeat = 0; repeat < 20; ++repeat) {
      const double start = probe::seconds();
      std::memcpy(out, in, bytes);
      memcpy_best = std::min(memcpy_best, probe::seconds() - start);
    }
    std::printf("round %d: memcpy %.3f ms\n", round, memcpy_best * 1e3);
    for (const Walk& w : walks) {
      double best = 1e9;
      for (int repeat = 0; repeat < 10; ++repeat) {
        const double start = probe::seconds();
        run_walk(in, out, w);
        best = std::min(best, probe::seconds() - start);
      }
      std::printf("  %-36s %7.3f ms  %4.0f%% of memcpy\n", w.name, best * 1e3, 100 * memcpy_best / best);
    }
  }
  std::free(in);
  std::free(out);
}
