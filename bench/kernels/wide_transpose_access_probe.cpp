// A probe, not part of the suite: the memory traffic of int8 `h w -> w h` on [4096,4096] without
// the shuffles. Rows are 4 KB apart on both sides. "library order" moves whole lines in the
// kernel's order (blocks of 256 rows x 64 columns, bands of 64 rows: each tile reads one line of
// 64 rows and writes 64 lines into 64 output rows with streaming stores). "staged" takes 512 x 512
// blocks in three steps: each row's 512 bytes read in order into an L2 buffer, moved line by line
// into a second one laid out as the output, then streamed out in runs of 512 bytes. Next to them:
// memcpy (cached stores), a streaming copy, a read pass and a streaming write pass of the 16 MB.
//   g++ -O2 -mavx512f -std=c++20 bench/kernels/wide_transpose_access_probe.cpp -o /tmp/wide_transpose_access_probe
//   /tmp/wide_transpose_access_probe
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "probe_memory.hpp"

namespace {

constexpr std::int64_t kSide = 4096;  // bytes per row, rows
constexpr std::int64_t kBytes = kSide * kSide;


/// One 64 x 64 tile: line c of rows [r, r + 64) to lines r of output rows [c, c + 64).
void move_tile(const std::uint8_t* in, std::uint8_t* out, std::int64_t r, std::int64_t c) {
  __m512i v[64];
  for (int i = 0; i < 64; ++i) v[i] = _mm512_loadu_si512(in + (r + i) * kSide + c);
  for (int i = 0; i < 64; ++i) _mm512_stream_si512(reinterpret_cast<__m512i*>(out + (c + i) * kSide + r), v[i]);
}

void library_order(const std::uint8_t* in, std::uint8_t* out) {
  constexpr std::int64_t kBlockRows = 256;
  for (std::int64_t block = 0; block < kSide; block += kBlockRows)
    for (std::int64_t c = 0; c < kSide; c += 64)
      for (std::int64_t r = block; r < block + kBlockRows; r += 64) move_tile(in, out, r, c);
}

void staged(const std::uint8_t* in, std::uint8_t* out, std::uint8_t* rows, std::uint8_t* columns) {
  constexpr std::int64_t S = 512;
  for (std::int64_t rb = 0; rb < kSide; rb += S)
    for (std::int64_t cb = 0; cb < kSide; cb += S) {
      for (std::int64_t r = 0; r < S; ++r)
        for (std::int64_t c = 0; c < S; c += 64)
          _mm512_store_si512(reinterpret_cast<__m512i*>(rows + r * S + c), _mm512_loadu_si512(in + (rb + r) * kSide + cb + c));
      for (std::int64_t r = 0; r < S; r += 64)
        for (std::int64_t c = 0; c < S; c += 64) {
          __m512i v[64];
          for (int i = 0; i < 64; ++i) v[i] = _mm512_load_si512(rows + (r + i) * S + c);
          for (int i = 0; i < 64; ++i) _mm512_store_si512(reinterpret_cast<__m512i*>(columns + (c + i) * S + r), v[i]);
        }
      for (std::int64_t j = 0; j < S; ++j)
        for (std::int64_t q = 0; q < S; q += 64)
          _mm512_stream_si512(reinterpret_cast<__m512i*>(out + (cb + j) * kSide + rb + q), _mm512_load_si512(columns + j * S + q));
    }
}

}  // namespace

int main() {
  std::uint8_t* in = probe::huge_buffer<std::uint8_t>(kBytes, 1);
  std::uint8_t* out = probe::huge_buffer<std::uint8_t>(kBytes, 2);
  std::uint8_t* rows = probe::huge_buffer<std::uint8_t>(std::size_t{256} << 10, 3);
  std::uint8_t* columns = probe::huge_buffer<std::uint8_t>(std::size_t{256} << 10, 4);
  const auto report = [](const char* name, auto pass) {
    double best = 1e9;
    for (int repeat = 0; repeat < 30; ++repeat) {
      const double start = probe::seconds();
      pass();
      best = std::min(best, probe::seconds() - start);
    }
    std::printf("%-16s %7.3f ms\n", name, best * 1e3);
  };
  for (int round = 0; round < 2; ++round) {
    report("memcpy", [&] { std::memcpy(out, in, kBytes); });
    report("streaming copy", [&] {
      for (std::int64_t i = 0; i < kBytes; i += 64)
        _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i), _mm512_load_si512(in + i));
    });
    report("read pass", [&] {
      __m512i any = _mm512_setzero_si512();
      for (std::int64_t i = 0; i < kBytes; i += 64) any = _mm512_or_si512(any, _mm512_load_si512(in + i));
      volatile __mmask16 sink = _mm512_test_epi32_mask(any, any);
      (void)sink;
    });
    report("streaming write", [&] {
      const __m512i value = _mm512_set1_epi8(5);
      for (std::int64_t i = 0; i < kBytes; i += 64) _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i), value);
    });
    report("library order", [&] { library_order(in, out); });
    report("staged", [&] { staged(in, out, rows, columns); });
  }
  std::free(in);
  std::free(out);
  std::free(rows);
  std::free(columns);
}
