// A probe, not part of the suite: where the time of a warm (L2-resident) tokens <-> maps transpose
// goes, [N, 64] float32 -> [64, N] with N = 256 (output lines 1 KB apart) or 1024 (4 KB apart: a
// tile's 16 output lines in one L1 set). The library's 16 x 16 tiles in its band order ("band")
// and column-block order ("col"); "access-only" moves the loaded lines unchanged (no shuffles),
// "shuffle-only" transposes without memory traffic; "pfw" prefetches the next band's output lines
// for writing; "stacked" loads 16-byte blocks of four rows per vector (two shuffle stages);
// "staged rbR xK" transposes a column block of R rows into an L1 buffer, then writes K output
// lines at a time along it; "pipelined" writes the previous chunk's buffer between the tiles of
// the next. "m2t" is maps -> tokens ([64, N] -> [N, 64]): bands, positions outer, and input rows
// staged in an L1 buffer first.
//   g++ -O3 -std=c++20 -mavx512f -mavx512vl -mavx2 bench/kernels/warm_transpose_probe.cpp -o /tmp/warm_transpose_probe
//   taskset -c 1 /tmp/warm_transpose_probe 1024 1000; taskset -c 1 /tmp/warm_transpose_probe 256 4000
#include <immintrin.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

static inline void tr16(__m512 (&v)[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {
    v[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[4 * i]), _mm512_castps_pd(t[4 * i + 2])));
    v[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[4 * i]), _mm512_castps_pd(t[4 * i + 2])));
    v[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t[4 * i + 1]), _mm512_castps_pd(t[4 * i + 3])));
    v[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t[4 * i + 1]), _mm512_castps_pd(t[4 * i + 3])));
  }
  // v[4g + k]: group g (rows 4g..4g+3), in each 128-bit block b: column 4b + k' (k order 0,2,1,3)
  for (int k = 0; k < 4; ++k) {
    t[0 * 4 + k] = _mm512_shuffle_f32x4(v[0 + k], v[4 + k], 0x44);  // blocks 0,1 of g0, 0,1 of g1
    t[1 * 4 + k] = _mm512_shuffle_f32x4(v[0 + k], v[4 + k], 0xEE);
    t[2 * 4 + k] = _mm512_shuffle_f32x4(v[8 + k], v[12 + k], 0x44);
    t[3 * 4 + k] = _mm512_shuffle_f32x4(v[8 + k], v[12 + k], 0xEE);
  }
  for (int k = 0; k < 4; ++k) {
    v[0 * 4 + k] = _mm512_shuffle_f32x4(t[0 + k], t[8 + k], 0x88);
    v[1 * 4 + k] = _mm512_shuffle_f32x4(t[0 + k], t[8 + k], 0xDD);
    v[2 * 4 + k] = _mm512_shuffle_f32x4(t[4 + k], t[12 + k], 0x88);
    v[3 * 4 + k] = _mm512_shuffle_f32x4(t[4 + k], t[12 + k], 0xDD);
  }
}

// Stacked loads: 128-bit blocks of 4 rows (i, i+4, i+8, i+12) into one zmm; 2 stages only.
static inline __m512 stack4(const float* a, const float* b, const float* c, const float* d) {
  __m512 s = _mm512_castps128_ps512(_mm_loadu_ps(a));
  s = _mm512_insertf32x4(s, _mm_loadu_ps(b), 1);
  s = _mm512_insertf32x4(s, _mm_loadu_ps(c), 2);
  s = _mm512_insertf32x4(s, _mm_loadu_ps(d), 3);
  return s;
}

static inline void tr4x4blocks(__m512 (&v)[4]) {
  __m512 t0 = _mm512_unpacklo_ps(v[0], v[1]), t1 = _mm512_unpackhi_ps(v[0], v[1]);
  __m512 t2 = _mm512_unpacklo_ps(v[2], v[3]), t3 = _mm512_unpackhi_ps(v[2], v[3]);
  v[0] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  v[1] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t0), _mm512_castps_pd(t2)));
  v[2] = _mm512_castpd_ps(_mm512_unpacklo_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
  v[3] = _mm512_castpd_ps(_mm512_unpackhi_pd(_mm512_castps_pd(t1), _mm512_castps_pd(t3)));
}

static inline void tr4x4blocks256(__m256 (&v)[4]) {
  __m256 t0 = _mm256_unpacklo_ps(v[0], v[1]), t1 = _mm256_unpackhi_ps(v[0], v[1]);
  __m256 t2 = _mm256_unpacklo_ps(v[2], v[3]), t3 = _mm256_unpackhi_ps(v[2], v[3]);
  v[0] = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
  v[1] = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t0), _mm256_castps_pd(t2)));
  v[2] = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
  v[3] = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(t1), _mm256_castps_pd(t3)));
}

int N = 1024;
const int C = 64;

// rows r..r+15 of in (stride C), cols c..c+15 -> out (c+j)*N + r
template <int kMode>
static inline void tile(const float* in, float* out, int r, int c) {
  const float* src = in + (long)r * C + c;
  float* dst = out + (long)c * N + r;
  if constexpr (kMode == 0) {  // access only: 16 loads, 16 stores
    __m512 v[16];
    for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(src + i * C);
    for (int j = 0; j < 16; ++j) _mm512_storeu_ps(dst + (long)j * N, v[j]);
  } else if constexpr (kMode == 1) {  // full 4-stage 512
    __m512 v[16];
    for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(src + i * C);
    tr16(v);
    for (int j = 0; j < 16; ++j) _mm512_storeu_ps(dst + (long)j * N, v[j]);
  } else if constexpr (kMode == 2) {  // stacked inserts + 2 stages, 512
    for (int cg = 0; cg < 16; cg += 4) {
      __m512 v[4];
      for (int i = 0; i < 4; ++i)
        v[i] = stack4(src + i * C + cg, src + (i + 4) * C + cg, src + (i + 8) * C + cg, src + (i + 12) * C + cg);
      tr4x4blocks(v);
      const int order[4] = {0, 1, 2, 3};
      for (int f = 0; f < 4; ++f) _mm512_storeu_ps(dst + (long)(cg + order[f]) * N, v[f]);
    }
  } else if constexpr (kMode == 3) {  // AVX2: stacked 2 blocks + 2 stages, two halves
    for (int cg = 0; cg < 16; cg += 4) {
      __m256 v[2][4];
      for (int p = 0; p < 2; ++p) {
        for (int i = 0; i < 4; ++i) {
          const float* a = src + (p * 8 + i) * C + cg;
          v[p][i] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a)), _mm_loadu_ps(a + 4 * C), 1);
        }
        tr4x4blocks256(v[p]);
      }
      const int order[4] = {0, 1, 2, 3};
      for (int f = 0; f < 4; ++f)
        for (int p = 0; p < 2; ++p) _mm256_storeu_ps(dst + (long)(cg + order[f]) * N + p * 8, v[p][f]);
    }
  } else if constexpr (kMode == 4) {  // shuffles only, no memory (loads from first row only)
    __m512 v[16];
    for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(src + (i & 1) * 16);
    tr16(v);
    __m512 s = v[0];
    for (int j = 1; j < 16; ++j)
      s = _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(s), _mm512_castps_si512(v[j])));
    _mm512_storeu_ps(dst, s);
  } else if constexpr (kMode == 5) {  // full 4-stage 256-bit version? (8x8 transposes) skip
  }
}

template <int kMode, int kOrder, int kPf>
void run(const float* in, float* out) {
  if constexpr (kOrder == 0) {  // bands outer (library order)
    for (int r = 0; r < N; r += 16)
      for (int c = 0; c < C; c += 16) {
        if constexpr (kPf) {
          if (r + 16 < N)
            for (int j = 0; j < 16; ++j) _mm_prefetch((const char*)(out + (long)(c + j) * N + r + 16), _MM_HINT_ET0);
        }
        tile<kMode>(in, out, r, c);
      }
  } else {  // column tiles outer
    for (int c = 0; c < C; c += 16)
      for (int r = 0; r < N; r += 16) {
        if constexpr (kPf) {
          if (r + 16 < N)
            for (int j = 0; j < 16; ++j) _mm_prefetch((const char*)(out + (long)(c + j) * N + r + 16), _MM_HINT_ET0);
        }
        tile<kMode>(in, out, r, c);
      }
  }
}

template <int kRB, int kChanPerPhase, int kPad = 0>
void staged(const float* in, float* out) {
  constexpr int kS = kRB + kPad;
  alignas(64) static float buf[16 * kS];
  for (int c = 0; c < C; c += 16)
    for (int rb = 0; rb < N; rb += kRB) {
      for (int r = rb; r < rb + kRB; r += 16) {
        __m512 v[16];
        const float* src = in + (long)r * C + c;
        for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(src + i * C);
        tr16(v);
        for (int j = 0; j < 16; ++j) _mm512_store_ps(buf + j * kS + (r - rb), v[j]);
      }
      for (int cc = 0; cc < 16; cc += kChanPerPhase)
        for (int q = 0; q < kRB; q += 16)
          for (int j = cc; j < cc + kChanPerPhase; ++j)
            _mm512_storeu_ps(out + (long)(c + j) * N + rb + q, _mm512_load_ps(buf + j * kS + q));
    }
}
// Pipelined: two buffers of kRB rows; after each tile of chunk i, one pass (2 lines along the
// chunk) of chunk i-1 leaves its buffer.
template <int kRB>
void pipelined(const float* in, float* out) {
  constexpr int kTiles = kRB / 16;  // passes per chunk must equal tiles per chunk: 16 / 2 = 8
  static_assert(kTiles == 8);
  alignas(64) static float buf[2][16 * kRB];
  struct Pending {
    float* dst;
    int n;
  } pend{nullptr, 0};
  auto copy_pass = [&](const float* b, float* dst, int pass) {
    for (int q = 0; q < kRB; q += 16)
      for (int j = 2 * pass; j < 2 * pass + 2; ++j)
        _mm512_storeu_ps(dst + (long)j * N + q, _mm512_load_ps(b + j * kRB + q));
  };
  int cur = 0;
  for (int c = 0; c < C; c += 16)
    for (int rb = 0; rb < N; rb += kRB) {
      for (int t = 0; t < kTiles; ++t) {
        const int r = rb + 16 * t;
        __m512 v[16];
        const float* src = in + (long)r * C + c;
        for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(src + i * C);
        tr16(v);
        for (int j = 0; j < 16; ++j) _mm512_store_ps(buf[cur] + j * kRB + 16 * t, v[j]);
        if (pend.dst) copy_pass(buf[1 - cur], pend.dst, t);
      }
      pend.dst = out + (long)c * N + rb;
      cur = 1 - cur;
    }
  for (int t = 0; t < kTiles; ++t) copy_pass(buf[1 - cur], pend.dst, t);
}
// maps -> tokens: in [64][N], out [N][64]
template <int kOrder>
void m2t(const float* in, float* out) {
  auto tile = [&](int r, int p) {  // channels r..r+15, positions p..p+15
    __m512 v[16];
    for (int i = 0; i < 16; ++i) v[i] = _mm512_loadu_ps(in + (long)(r + i) * N + p);
    tr16(v);
    for (int j = 0; j < 16; ++j) _mm512_storeu_ps(out + (long)(p + j) * C + r, v[j]);
  };
  if constexpr (kOrder == 0) {
    for (int r = 0; r < C; r += 16)
      for (int p = 0; p < N; p += 16) tile(r, p);
  } else if constexpr (kOrder >= 2) {  // input rows staged: kOrder positions per chunk, stride padded
    constexpr int kRB = kOrder, kS = kRB + 16;
    alignas(64) static float buf[16 * kS];
    for (int r = 0; r < C; r += 16)
      for (int pb = 0; pb < N; pb += kRB) {
        for (int i = 0; i < 16; ++i)
          for (int q = 0; q < kRB; q += 16)
            _mm512_store_ps(buf + i * kS + q, _mm512_loadu_ps(in + (long)(r + i) * N + pb + q));
        for (int p = 0; p < kRB; p += 16) {
          __m512 v[16];
          for (int i = 0; i < 16; ++i) v[i] = _mm512_load_ps(buf + i * kS + p);
          tr16(v);
          for (int j = 0; j < 16; ++j) _mm512_storeu_ps(out + (long)(pb + p + j) * C + r, v[j]);
        }
      }
  } else {
    for (int p = 0; p < N; p += 16)
      for (int r = 0; r < C; r += 16) tile(r, p);
  }
}
int main(int argc, char** argv) {
  N = argc > 1 ? atoi(argv[1]) : 1024;
  const int reps = argc > 2 ? atoi(argv[2]) : 2000;
  size_t bytes = (size_t)N * C * 4;
  float* in = (float*)aligned_alloc(4096, bytes);
  float* out = (float*)aligned_alloc(4096, bytes);
  for (size_t i = 0; i < bytes / 4; ++i) in[i] = (float)i;
  memset(out, 0, bytes);
  struct K {
    const char* name;
    void (*f)(const float*, float*);
  };
  K ks[] = {
      {"memcpy", [](const float* a, float* b) { memcpy(b, a, (size_t)N * C * 4); }},
      {"access-only band", run<0, 0, 0>},
      {"access-only col", run<0, 1, 0>},
      {"shuffle-only", run<4, 0, 0>},
      {"512 4stage band", run<1, 0, 0>},
      {"512 4stage col", run<1, 1, 0>},
      {"512 4stage band pfw", run<1, 0, 1>},
      {"512 stacked band", run<2, 0, 0>},
      {"512 stacked col", run<2, 1, 0>},
      {"256 stacked band", run<3, 0, 0>},
      {"256 stacked col", run<3, 1, 0>},
      {"256 stacked band pfw", run<3, 0, 1>},
      {"512 staged rb256 x4", staged<256, 4>},
      {"512 staged rb256 x2", staged<256, 2>},
      {"512 staged rb128 x4", staged<128, 4>},
      {"512 staged rb64 x4", staged<64, 4>},
      {"512 staged rb256 x16", staged<256, 16>},
      {"512 staged rb256 x1", staged<256, 1>},
      {"512 pipelined rb128", pipelined<128>},
      {"512 staged rb256 x1 pad", staged<256, 1, 16>},
      {"512 staged rb256 x2 pad", staged<256, 2, 16>},
      {"512 staged rb256 x4 pad", staged<256, 4, 16>},
      {"512 staged rb128 x2 pad", staged<128, 2, 16>},
      {"m2t bands", m2t<0>},
      {"m2t pos-outer", m2t<1>},
      {"m2t staged 256", m2t<256>},
      {"m2t staged 128", m2t<128>},
      {"m2t staged 64", m2t<64>},
  };
  // check correctness of transposes
  for (int m : {4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}) {
    memset(out, 0, bytes);
    ks[m].f(in, out);
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < C; ++c)
        if (out[(long)c * N + r] != in[(long)r * C + c]) {
          printf("BAD %s\n", ks[m].name);
          return 1;
        }
  }
  for (size_t m = 0; m < sizeof(ks) / sizeof(ks[0]); ++m) {
    if (std::string(ks[m].name).rfind("m2t", 0) != 0) continue;
    memset(out, 0, bytes);
    ks[m].f(in, out);
    for (int p = 0; p < N; ++p)
      for (int c = 0; c < C; ++c)
        if (out[(long)p * C + c] != in[(long)c * N + p]) {
          printf("BAD %s\n", ks[m].name);
          return 1;
        }
  }
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
