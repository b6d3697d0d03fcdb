// einsum's small-product kernel (src/einsum/small_product.hpp) and its route: which contractions a
// plan sends there; the kernel against a naive reference on lengths around its tile edges (rows 1
// to kMaxTileRows + 1, columns 1 to kMaxTileVectors·lanes + 1 for every vector length a target
// may have), with row-major, transposed, padded, reversed and broadcast operands and outputs, on
// every SIMD target this CPU runs (the portable one included); exact on small integers, within a
// tolerance on random reals; einsum's results for the attention shapes, the 16-bit floats read in
// place; and bit-identical results for 1, 2, 3 and 8 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <array>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/detail/einsum_description.hpp"
#include "einops/detail/kernels.hpp"
#include "einops/einsum.hpp"
#include "einops/threads.hpp"
#include "einsum/einsum_plan.hpp"
#include "einsum/gemm.hpp"
#include "einsum/route.hpp"
#include "einsum/small_product.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"

using einops::AnyTensor;
using einops::Shape;
using einops::detail::einsum::BatchedGemm;
using einops::detail::einsum::MatrixLayout;
using einops::detail::einsum::Route;

namespace {

// ---- the route each plan records ----------------------------------------------------------------

Route route_of(std::string_view pattern, const std::vector<Shape>& shapes, einops::DType type) {
  std::vector<AnyTensor> operands;
  for (const Shape& shape : shapes) operands.emplace_back(type, shape);
  const einops::detail::CallContext context{"einsum", pattern, operands};
  const auto parsed = einops::detail::einsum_pattern(pattern, context);
  const auto plan = einops::detail::einsum::get_plan(*parsed, operands, context);
  EXPECT_EQ(plan->steps.size(), 1u) << pattern;
  return plan->steps.empty() ? Route::matrix_product : plan->steps.front().route;
}

/// The route of float32 products of m·n·k multiply-adds per entry with rows of C n long: a small
/// product below kBlasMinWork where BLAS takes float32 (or, with B read along a k of at most
/// kSmallAlongKMaxDepth, up to kSmallAlongKMaxWork), up to kSmallMaxWork where it does not, with
/// rows of at least kSmallMinRowBytes.
Route float32_route(double work, std::int64_t n, std::int64_t k, bool b_along_k) {
  namespace e = einops::detail::einsum;
  const bool along_k = b_along_k && static_cast<double>(k) <= e::kSmallAlongKMaxDepth && work <= e::kSmallAlongKMaxWork;
  const bool small = e::blas_takes(einops::DType::float32) ? work < static_cast<double>(e::kBlasMinWork) || along_k
                                                           : work <= e::kSmallMaxWork;
  return small && static_cast<double>(n) * 4 >= e::kSmallMinRowBytes ? Route::small_product : Route::matrix_product;
}

TEST(EinsumSmallRoute, AttentionOverShortSequencesIsSmall) {
  using einops::DType;
  for (std::int64_t q : {4, 8, 16, 32, 49, 64})
    for (std::int64_t d : {8, 16, 32, 64}) {
      if (q == 4 && static_cast<double>(d) >= einops::detail::einsum::kStreamMinDepth)
        continue;  // 4 x 4 dots of 64 stream
      const Shape queries{4, 8, q, d}, weights{4, 8, q, q};
      for (DType type : {DType::float16, DType::bfloat16}) {
        EXPECT_EQ(route_of("b h q d, b h k d -> b h q k", {queries, queries}, type), Route::small_product)
            << q << " " << d;
        EXPECT_EQ(route_of("b h q k, b h k d -> b h q d", {weights, queries}, type), Route::small_product)
            << q << " " << d;
      }
      const double work = static_cast<double>(q * q * d);
      EXPECT_EQ(route_of("b h q d, b h k d -> b h q k", {queries, queries}, DType::float32),
                float32_route(work, q, d, true))
          << q << " " << d;
      EXPECT_EQ(route_of("b h q k, b h k d -> b h q d", {weights, queries}, DType::float32),
                float32_route(work, d, q, false))
          << q << " " << d;
    }
  // Below a BLAS call's worth of work (the portable loops' range before): small in every build,
  // where a row of C fills a 256-bit vector (8 float32, 4 float64 elements).
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 8}}, DType::float32), Route::small_product);
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 4}}, DType::float64), Route::small_product);
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 7}}, DType::float32), Route::matrix_product);
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 3}}, DType::float64), Route::matrix_product);
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 3}}, DType::float16), Route::small_product);
  // B read along a short k (attention scores over d = 16): small up to kSmallAlongKMaxWork where
  // BLAS takes float32; the same sizes with B read along n stay BLAS's.
  if (einops::detail::einsum::blas_takes(DType::float32)) {
    EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 32, 16}, {64, 32, 16}}, DType::float32), Route::small_product);
    EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 48, 16}, {64, 48, 16}}, DType::float32), Route::matrix_product);
    EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 16, 32}, {64, 16, 32}}, DType::float32), Route::matrix_product);
    EXPECT_EQ(route_of("b q d, b d k -> b q k", {{64, 32, 16}, {64, 16, 32}}, DType::float32), Route::matrix_product);
    EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 8, 16}, {64, 8, 16}}, DType::float64), Route::small_product);
  }
  // Element types the kernel does not take stay matrix products.
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4096, 4, 4}, {4096, 4, 8}}, DType::int32), Route::matrix_product);
}

TEST(EinsumSmallRoute, LargeProductsStayMatrixProducts) {
  // Past kSmallMaxWork multiply-adds per entry, or B's panel past kSmallMaxPanel elements.
  using einops::DType;
  for (DType type : {DType::float32, DType::float16}) {
    EXPECT_EQ(route_of("b i k, b k j -> b i j", {{32, 256, 256}, {32, 256, 256}}, type), Route::matrix_product);
    EXPECT_EQ(route_of("b h q d, b h k d -> b h q k", {{8, 8, 512, 64}, {8, 8, 512, 64}}, type), Route::matrix_product);
    EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4, 65, 64}, {4, 64, 64}}, type), Route::matrix_product);
    EXPECT_EQ(route_of("b i k, b k j -> b i j", {{4, 8, 1024}, {4, 1024, 8}}, type), Route::matrix_product);
  }
}

TEST(EinsumSmallRoute, ExplainNamesTheKernel) {
  const std::vector<Shape> shapes = {{2, 4, 16, 32}, {2, 4, 16, 32}};
  const auto description =
      einops::detail::describe_einsum("b h q d, b h k d -> b h q k", shapes, einops::DType::float16);
  ASSERT_EQ(description.steps.size(), 1u);
  EXPECT_NE(description.steps.front().kernel.find("small products: 8 x [16 x 32] . [32 x 16]"), std::string::npos)
      << description.steps.front().kernel;
  EXPECT_NE(description.note.find("read in place"), std::string::npos) << description.note;
  // Element types the kernel does not take run in the matrix product's loops.
  const auto integers = einops::detail::describe_einsum("b h q d, b h k d -> b h q k", shapes, einops::DType::int32);
  EXPECT_NE(integers.steps.front().kernel.find("portable loops"), std::string::npos) << integers.steps.front().kernel;
  EXPECT_EQ(einops::detail::einsum::route_name(Route::small_product), std::string("small products"));
}

TEST(EinsumSmallRoute, WidenedHalvesFollowFloat32Routes) {
  // Three float16 operands are converted to float32 first: their steps are float32's, whose
  // products of 16·16·16 go to BLAS where the build has it (not to the tiles float16 would take).
  using einops::detail::describe_einsum;
  const std::vector<Shape> chain = {{64, 16, 16}, {64, 16, 16}, {64, 16, 16}};
  const auto half = describe_einsum("b i j, b j k, b k l -> b i l", chain, einops::DType::float16);
  const auto single = describe_einsum("b i j, b j k, b k l -> b i l", chain, einops::DType::float32);
  ASSERT_EQ(half.steps.size(), 2u);
  ASSERT_EQ(single.steps.size(), 2u);
  for (std::size_t s = 0; s < 2; ++s) EXPECT_EQ(half.steps[s].kernel, single.steps[s].kernel);
  EXPECT_NE(half.note.find("converted to float32"), std::string::npos) << half.note;
  // ... and their result is float32's, rounded once.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-2, 2);
  std::vector<einops::Tensor<einops::float16>> halves;
  std::vector<einops::Tensor<float>> singles;
  for (const Shape& shape : chain) {
    einops::Tensor<einops::float16> h(shape);
    einops::Tensor<float> f(shape);
    for (std::int64_t i = 0; i < h.size(); ++i) {
      f.data()[i] = static_cast<float>(small(rng));
      h.data()[i] = einops::float16(f.data()[i]);
    }
    halves.push_back(h);
    singles.push_back(f);
  }
  const auto got = einops::einsum(halves[0], halves[1], halves[2], "b i j, b j k, b k l -> b i l");
  const auto want = einops::einsum(singles[0], singles[1], singles[2], "b i j, b j k, b k l -> b i l");
  ASSERT_EQ(got.size(), want.size());
  for (std::int64_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got.data()[i].bits, einops::float16(want.data()[i]).bits) << i;
}

// ---- the kernel against a naive reference --------------------------------------------------------

/// Runs `check` with each instruction set this CPU and build have, then restores the choice.
template <class Check>
void on_every_simd_target(Check&& check) {
  for (const std::string& target : einops::detail::simd_targets()) {
    SCOPED_TRACE("SIMD target " + target);
    einops::detail::force_simd_target(target);
    check();
    einops::detail::force_simd_target("");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// How a rows x cols matrix (one batch entry) lies in memory.
enum class Layout { row_major, transposed, padded, reversed, broadcast_rows };

/// The strides of `layout`, and how many elements one entry spans (`offset`: where element
/// (0, 0) sits from the entry's start, for reversed layouts).
struct Placement {
  MatrixLayout layout;
  std::int64_t span = 0, offset = 0;
};

Placement place(Layout layout, std::int64_t rows, std::int64_t cols) {
  switch (layout) {
    case Layout::row_major: return {{cols, 1}, rows * cols, 0};
    case Layout::transposed: return {{1, rows}, rows * cols, 0};
    case Layout::padded: return {{2 * cols + 3, 2}, rows * (2 * cols + 3), 0};
    case Layout::reversed: return {{-cols, -1}, rows * cols, rows * cols - 1};
    case Layout::broadcast_rows: return {{0, 1}, cols, 0};  // every row the same memory
  }
  return {};
}

template <class T>
struct Problem {
  BatchedGemm gemm;
  std::vector<T> a, b, c;
  Placement pa, pb, pc;
  std::int64_t batch = 1;
};

/// The element (i, j) of entry e of a matrix placed by `p` in `data` (entries `p.span` apart).
template <class T>
T& at(std::vector<T>& data, const Placement& p, std::int64_t e, std::int64_t i, std::int64_t j) {
  return data[static_cast<std::size_t>(e * p.span + p.offset + i * p.layout.row_stride + j * p.layout.col_stride)];
}

/// A batch of `batch` products m x k by k x n, the operands filled by `fill`, C with NaN (every
/// element must be written).
template <class T, class Fill>
Problem<T> make_problem(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k, Layout la, Layout lb,
                        Layout lc, Fill&& fill) {
  Problem<T> p;
  p.batch = batch;
  p.pa = place(la, m, k);
  p.pb = place(lb, k, n);
  p.pc = place(lc == Layout::broadcast_rows ? Layout::row_major : lc, m, n);
  p.a.resize(static_cast<std::size_t>(batch * p.pa.span));
  p.b.resize(static_cast<std::size_t>(batch * p.pb.span));
  p.c.assign(static_cast<std::size_t>(batch * p.pc.span), static_cast<T>(NAN));
  for (auto& x : p.a) x = static_cast<T>(fill());
  for (auto& x : p.b) x = static_cast<T>(fill());
  BatchedGemm& g = p.gemm;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = p.a.data() + p.pa.offset;
  g.a_layout = p.pa.layout;
  g.b = p.b.data() + p.pb.offset;
  g.b_layout = p.pb.layout;
  g.c = p.c.data() + p.pc.offset;
  g.c_layout = p.pc.layout;
  if (batch > 1) {  // two batch dimensions, the outer one of length 2 where the batch is even
    const std::int64_t outer = batch % 2 == 0 ? 2 : 1;
    g.push_batch(outer, p.pa.span * (batch / outer), p.pb.span * (batch / outer), p.pc.span * (batch / outer));
    g.push_batch(batch / outer, p.pa.span, p.pb.span, p.pc.span);
  }
  return p;
}

/// The same batch walked from its last entry to its first (negative batch strides: entry offsets
/// below the first entry's).
template <class T>
void reverse_batch(Problem<T>& p) {
  BatchedGemm& g = p.gemm;
  const std::int64_t last = p.batch - 1;
  g.a = static_cast<const T*>(g.a) + last * p.pa.span;
  g.b = static_cast<const T*>(g.b) + last * p.pb.span;
  g.c = static_cast<T*>(g.c) + last * p.pc.span;
  for (int d = 0; d < g.batch_rank; ++d) {
    const auto i = static_cast<std::size_t>(d);
    g.a_batch_stride[i] = -g.a_batch_stride[i];
    g.b_batch_stride[i] = -g.b_batch_stride[i];
    g.c_batch_stride[i] = -g.c_batch_stride[i];
  }
}

/// Σ a·b in double for entry e, element (i, j).
template <class T>
double reference(Problem<T>& p, std::int64_t e, std::int64_t i, std::int64_t j, double* magnitude) {
  double sum = 0;
  *magnitude = 0;
  for (std::int64_t kk = 0; kk < p.gemm.k; ++kk) {
    const double product = static_cast<double>(at(p.a, p.pa, e, i, kk)) * static_cast<double>(at(p.b, p.pb, e, kk, j));
    sum += product;
    *magnitude += std::abs(product);
  }
  return sum;
}

/// Every element of every entry against the reference: exactly (`tolerance` 0) or within
/// tolerance times the sum of the products' magnitudes.
template <class T>
void expect_matches(Problem<T>& p, double tolerance, const std::string& what) {
  int failures = 0;
  for (std::int64_t e = 0; e < p.batch; ++e)
    for (std::int64_t i = 0; i < p.gemm.m; ++i)
      for (std::int64_t j = 0; j < p.gemm.n; ++j) {
        double magnitude = 0;
        const double want = reference(p, e, i, j, &magnitude);
        const double got = static_cast<double>(at(p.c, p.pc, e, i, j));
        const bool ok = tolerance == 0 ? got == static_cast<double>(static_cast<T>(want))
                                       : std::abs(got - want) <= tolerance * magnitude + 1e-30;
        if (!ok && failures++ < 5)
          ADD_FAILURE() << what << " entry " << e << " (" << i << ", " << j << "): " << got << " vs " << want;
      }
}

template <class T>
einops::DType type_of() {
  return einops::dtype_of<T>::value;
}

const Layout kLayouts[] = {Layout::row_major, Layout::transposed, Layout::padded, Layout::reversed};
const char* kLayoutNames[] = {"row-major", "transposed", "padded", "reversed", "broadcast rows"};

/// Integers in [-2, 2]: every product and sum up to k = 64 is exact in every element type
/// (bfloat16 holds integers to 256), so any summation order gives the reference exactly.
template <class T>
void exact_on_tile_edges(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> small(-2, 2);
  const auto fill = [&] { return small(rng); };
  // Rows 1 .. kMaxTileRows + 1 and more; columns around one, two and three vectors of 1, 4 and 8
  // lanes (the targets' float lanes; double has half as many) and the attention lengths.
  const std::vector<std::int64_t> rows = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 17};
  const std::vector<std::int64_t> cols = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 23, 24, 25, 49};
  const std::vector<std::int64_t> depths = {1, 2, 5, 16, 33, 64};
  std::uniform_int_distribution<std::size_t> pick_row(0, rows.size() - 1), pick_col(0, cols.size() - 1);
  std::uniform_int_distribution<std::size_t> pick_depth(0, depths.size() - 1), pick_layout(0, 3);
  std::uniform_int_distribution<std::int64_t> pick_batch(1, 6);
  on_every_simd_target([&] {
    // Every rows x cols pair once, with a random depth and layouts.
    for (std::int64_t m : rows)
      for (std::int64_t n : cols) {
        const std::int64_t k = depths[pick_depth(rng)];
        const auto la = static_cast<std::size_t>(pick_layout(rng)), lb = static_cast<std::size_t>(pick_layout(rng));
        const auto lc = static_cast<std::size_t>(pick_layout(rng));
        auto p = make_problem<T>(pick_batch(rng), m, n, k, kLayouts[la], kLayouts[lb], kLayouts[lc], fill);
        const bool reversed = (m + n) % 2 == 1;  // half of the problems walk their batch backwards
        if (reversed) reverse_batch(p);
        einops::detail::einsum::small_batched_product(type_of<T>(), p.gemm);
        expect_matches(p, 0,
                       std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " A " +
                           kLayoutNames[la] + ", B " + kLayoutNames[lb] + ", C " + kLayoutNames[lc] +
                           (reversed ? ", batch reversed" : ""));
        if (::testing::Test::HasFailure()) return;
      }
    // A broadcast row of A and of B (zero row stride), every layout of C.
    for (std::size_t lc = 0; lc < 4; ++lc) {
      auto p = make_problem<T>(3, 9, 17, 5, Layout::broadcast_rows, Layout::broadcast_rows, kLayouts[lc], fill);
      einops::detail::einsum::small_batched_product(type_of<T>(), p.gemm);
      expect_matches(p, 0, std::string("broadcast operands, C ") + kLayoutNames[lc]);
    }
  });
}

TEST(EinsumSmallKernel, Float32ExactOnTileEdges) { exact_on_tile_edges<float>(1); }
TEST(EinsumSmallKernel, Float64ExactOnTileEdges) { exact_on_tile_edges<double>(2); }
TEST(EinsumSmallKernel, Float16ExactOnTileEdges) { exact_on_tile_edges<einops::float16>(3); }
TEST(EinsumSmallKernel, Bfloat16ExactOnTileEdges) { exact_on_tile_edges<einops::bfloat16>(4); }

/// Random reals in [-1, 1): within a few units in the last place of the accumulator type times
/// the sum of the products' magnitudes (16-bit floats: plus the rounding of the result).
template <class T>
void close_on_random_reals(std::uint32_t seed, double tolerance) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto fill = [&] { return uniform(rng); };
  on_every_simd_target([&] {
    for (std::int64_t q : {8, 16, 49, 64})
      for (std::int64_t d : {16, 64}) {
        // scores: Q row-major times K^T (K row-major, read transposed); outputs: P times V.
        auto scores = make_problem<T>(3, q, q, d, Layout::row_major, Layout::transposed, Layout::row_major, fill);
        einops::detail::einsum::small_batched_product(type_of<T>(), scores.gemm);
        expect_matches(scores, tolerance, "scores q=" + std::to_string(q) + " d=" + std::to_string(d));
        auto outputs = make_problem<T>(3, q, d, q, Layout::row_major, Layout::row_major, Layout::row_major, fill);
        einops::detail::einsum::small_batched_product(type_of<T>(), outputs.gemm);
        expect_matches(outputs, tolerance, "outputs q=" + std::to_string(q) + " d=" + std::to_string(d));
      }
  });
}

TEST(EinsumSmallKernel, Float32CloseOnRandomReals) { close_on_random_reals<float>(5, 1e-6); }
TEST(EinsumSmallKernel, Float64CloseOnRandomReals) { close_on_random_reals<double>(6, 1e-14); }
TEST(EinsumSmallKernel, Float16CloseOnRandomReals) { close_on_random_reals<einops::float16>(7, 1e-3); }
TEST(EinsumSmallKernel, Bfloat16CloseOnRandomReals) { close_on_random_reals<einops::bfloat16>(8, 8e-3); }

// ---- through einsum ----------------------------------------------------------------------------

/// The attention shapes through einsum (16-bit floats read in place) against einsum in float64.
template <class T>
void attention_through_einsum(double tolerance) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  const auto tensor = [&](const Shape& shape) {
    einops::Tensor<T> t(shape);
    for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<T>(uniform(rng));
    return t;
  };
  const auto as_double = [](const einops::Tensor<T>& t) {
    einops::Tensor<double> wide({t.shape().begin(), t.shape().end()});
    for (std::int64_t i = 0; i < t.size(); ++i) wide.data()[i] = static_cast<double>(t.data()[i]);
    return wide;
  };
  for (std::string_view pattern : {"b h q d, b h k d -> b h q k", "b h q k, b h k d -> b h q d"}) {
    const bool scores = pattern.find("q d, b h k d") != std::string_view::npos;
    const auto x = tensor(scores ? Shape{2, 3, 49, 32} : Shape{2, 3, 49, 49});
    const auto y = tensor({2, 3, 49, 32});
    const auto got = einops::einsum(x, y, pattern);
    const auto want = einops::einsum(as_double(x), as_double(y), pattern);
    ASSERT_EQ(got.size(), want.size());
    const double depth = scores ? 32 : 49;
    for (std::int64_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(static_cast<double>(got.data()[i]), want.data()[i], tolerance * depth) << pattern << " at " << i;
  }
}

TEST(EinsumSmall, Float32AttentionMatchesFloat64) { attention_through_einsum<float>(1e-6); }
TEST(EinsumSmall, Float16AttentionMatchesFloat64) { attention_through_einsum<einops::float16>(2e-3); }
TEST(EinsumSmall, Bfloat16AttentionMatchesFloat64) { attention_through_einsum<einops::bfloat16>(1.6e-2); }

// ---- one result for any thread count -------------------------------------------------------------

struct ThreadCountGuard {
  int saved = einops::get_num_threads();
  ~ThreadCountGuard() { einops::set_num_threads(saved); }
};

/// Random reals (the last bits show the summation order), problems large enough for the pool.
template <class T>
void identical_for_any_thread_count() {
  const ThreadCountGuard guard;
  std::mt19937 rng(10);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto fill = [&] { return uniform(rng); };
  on_every_simd_target([&] {
    for (auto [m, n, k] : {std::array<std::int64_t, 3>{16, 16, 32}, {49, 49, 32}, {9, 25, 64}}) {
      auto p = make_problem<T>(67, m, n, k, Layout::row_major, Layout::transposed, Layout::row_major, fill);
      const auto bytes = p.c.size() * sizeof(T);
      einops::set_num_threads(1);
      einops::detail::einsum::small_batched_product(type_of<T>(), p.gemm);
      const std::vector<T> one = p.c;
      for (int threads : {2, 3, 8}) {
        einops::set_num_threads(threads);
        std::fill(p.c.begin(), p.c.end(), static_cast<T>(NAN));
        einops::detail::einsum::small_batched_product(type_of<T>(), p.gemm);
        EXPECT_EQ(std::memcmp(p.c.data(), one.data(), bytes), 0)
            << m << "x" << k << "x" << n << " with " << threads << " threads";
      }
    }
  });
}

TEST(EinsumSmallKernel, Float32IdenticalForAnyThreadCount) { identical_for_any_thread_count<float>(); }
TEST(EinsumSmallKernel, Float64IdenticalForAnyThreadCount) { identical_for_any_thread_count<double>(); }
TEST(EinsumSmallKernel, Bfloat16IdenticalForAnyThreadCount) { identical_for_any_thread_count<einops::bfloat16>(); }

}  // namespace
