// einsum: the pattern rules (at compile time too), differential tests against a naive reference
// on random problems (repeated names, broadcasting, summed names, several operands, every
// element type, any strides), the BLAS layouts, the public call forms, and every misuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "einops/einsum.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_checks.hpp"
#include "error_message.hpp"

using einops::AnyTensor;
using einops::PatternErrorKind;
using einops::Shape;
using einops::Tensor;
using einops::TensorView;

namespace {

using einops_test::message_of;

// ---- the pattern, in constant evaluation ----------------------------------------------------------

constexpr PatternErrorKind einsum_error(std::string_view pattern) {
  const auto parsed = einops::parse_einsum_pattern(pattern);
  if (!parsed.ok()) return parsed.error.kind;
  return einops::check_einsum_pattern(parsed.value).kind;
}
constexpr std::size_t operand_count(std::string_view pattern) {
  return einops::parse_einsum_pattern(pattern).value.inputs.size();
}
static_assert(einsum_error("batch i k, batch k j -> batch i j") == PatternErrorKind::none);
static_assert(operand_count("a b, b c, c d -> a d") == 3);
static_assert(operand_count(", a -> a") == 2);  // an empty operand is a scalar
static_assert(einsum_error("i i ->") == PatternErrorKind::none);
static_assert(einsum_error("_ b -> b") == PatternErrorKind::none);
static_assert(einsum_error("(a) b -> b") == PatternErrorKind::none);
static_assert(einsum_error("... a, ... a -> ...") == PatternErrorKind::none);
static_assert(einsum_error("a b") == PatternErrorKind::arrow_count);
static_assert(einsum_error("a -> a -> a") == PatternErrorKind::arrow_repeated);
static_assert(einsum_error("a b -> (a b)") == PatternErrorKind::einsum_composition);
static_assert(einsum_error("(a b) -> a") == PatternErrorKind::einsum_composition);
static_assert(einsum_error("a 2 -> a") == PatternErrorKind::einsum_anonymous);
static_assert(einsum_error("a () -> a") == PatternErrorKind::einsum_unit_axis);
static_assert(einsum_error("a 1 -> a") == PatternErrorKind::einsum_unit_axis);
static_assert(einsum_error("a -> a 1") == PatternErrorKind::einsum_unit_axis);
static_assert(einsum_error("a (...) -> a") == PatternErrorKind::ellipsis_in_group);
static_assert(einsum_error("i j -> k") == PatternErrorKind::einsum_unknown_output_axis);
static_assert(einsum_error("i j -> i i") == PatternErrorKind::duplicate_axis);
static_assert(einsum_error("_ _ -> _ _") == PatternErrorKind::duplicate_axis);  // numpy refuses a repeated output
static_assert(einsum_error("i 2j -> i") == PatternErrorKind::invalid_identifier);
static_assert(einsum_error("a$ -> ") == PatternErrorKind::unknown_character);
static_assert(einsum_error("a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S "
                           "T U V W X Y Z extra ->") == PatternErrorKind::einsum_too_many_axes);
static_assert(einsum_error("a b c d e f g h i j k l m n o p q r s t u v w x y z, A B C D E F G H I J K L M N O P Q R S "
                           "T U V W X Y Z ->") == PatternErrorKind::none);  // exactly 52 names
static_assert(einops::check_einsum_pattern(einops::parse_einsum_pattern("i j -> k").value).position == 7);
static_assert(std::string_view(einops::check_einsum_pattern(einops::parse_einsum_pattern("i j -> k").value).reason) ==
              einops::reason_text(PatternErrorKind::einsum_unknown_output_axis));

// ---- a naive reference --------------------------------------------------------------------------

/// One operand of a generated problem: a label per dimension (repeats allowed), and its tensor.
struct Operand {
  std::vector<int> labels;
  Shape shape;  // 1 where the operand broadcasts the label
};

template <class T>
using Sum = std::conditional_t<std::is_floating_point_v<T>, double, std::uint64_t>;

/// out[o] = Σ over every assignment of the other labels of Π operand values, straight from the
/// definition (numpy's broadcasting: a dimension of length 1 reads index 0).
template <class T>
std::vector<T> reference(const std::vector<Operand>& operands, const std::vector<std::vector<T>>& values,
                         const std::vector<int>& output, const std::vector<std::int64_t>& extent) {
  const int label_count = static_cast<int>(extent.size());
  std::vector<int> summed;
  for (int label = 0; label < label_count; ++label) {
    bool in_output = false;
    for (int o : output) in_output = in_output || o == label;
    if (!in_output) summed.push_back(label);
  }
  std::int64_t out_size = 1, sum_size = 1;
  for (int o : output) out_size *= extent[static_cast<std::size_t>(o)];
  for (int s : summed) sum_size *= extent[static_cast<std::size_t>(s)];
  std::vector<T> out(static_cast<std::size_t>(out_size));
  std::vector<std::int64_t> index(static_cast<std::size_t>(label_count));
  for (std::int64_t o = 0; o < out_size; ++o) {
    std::int64_t rest = o;
    for (std::size_t d = output.size(); d-- > 0;) {
      index[static_cast<std::size_t>(output[d])] = rest % extent[static_cast<std::size_t>(output[d])];
      rest /= extent[static_cast<std::size_t>(output[d])];
    }
    Sum<T> total{0};
    for (std::int64_t s = 0; s < sum_size; ++s) {
      std::int64_t r = s;
      for (std::size_t d = summed.size(); d-- > 0;) {
        index[static_cast<std::size_t>(summed[d])] = r % extent[static_cast<std::size_t>(summed[d])];
        r /= extent[static_cast<std::size_t>(summed[d])];
      }
      Sum<T> term{1};
      for (std::size_t k = 0; k < operands.size(); ++k) {
        std::int64_t flat = 0;
        for (std::size_t d = 0; d < operands[k].labels.size(); ++d) {
          const std::int64_t length = operands[k].shape[d];
          flat = flat * length + (length == 1 ? 0 : index[static_cast<std::size_t>(operands[k].labels[d])]);
        }
        term *= static_cast<Sum<T>>(values[k][static_cast<std::size_t>(flat)]);
      }
      total += term;
    }
    if constexpr (std::is_same_v<T, bool>) out[static_cast<std::size_t>(o)] = total != 0;
    else out[static_cast<std::size_t>(o)] = static_cast<T>(total);
  }
  return out;
}

std::string name_of(int label) { return std::string("ax").append(std::to_string(label)); }

template <class T>
T random_value(std::mt19937& rng) {
  if constexpr (std::is_same_v<T, bool>) return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(std::uniform_int_distribution<int>(-8, 8)(rng)) / 4;
  else return static_cast<T>(std::uniform_int_distribution<int>(-100, 100)(rng));
}

template <class T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>)
      ASSERT_NEAR(got[i], want[i], 1e-4 * (1 + std::fabs(want[i]))) << what << " at " << i;
    else ASSERT_EQ(got[i], want[i]) << what << " at " << i;
  }
}

/// Random problems: 1-4 operands, 1-5 labels of length 1-4, repeated labels, labels broadcast
/// (length 1 in some operands), summed labels, outputs in any order.
template <class T>
void differential(unsigned seed, int trials) {
  std::mt19937 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < trials; ++trial) {
    const int label_count = pick(1, 5);
    std::vector<std::int64_t> extent(static_cast<std::size_t>(label_count));
    for (auto& e : extent) e = pick(1, 4);
    std::vector<Operand> operands(static_cast<std::size_t>(pick(1, 4)));
    std::vector<bool> used(static_cast<std::size_t>(label_count));
    for (Operand& op : operands) {
      const int rank = pick(0, 4);
      for (int d = 0; d < rank; ++d) {
        const int label = pick(0, label_count - 1);
        used[static_cast<std::size_t>(label)] = true;
        op.labels.push_back(label);
      }
      for (std::size_t d = 0; d < op.labels.size(); ++d) {
        // A repeated label must keep one length within an operand; a fresh one may broadcast.
        bool repeated = false;
        for (std::size_t e = 0; e < d; ++e) repeated = repeated || op.labels[e] == op.labels[d];
        std::int64_t length = extent[static_cast<std::size_t>(op.labels[d])];
        if (repeated) {
          for (std::size_t e = 0; e < d; ++e)
            if (op.labels[e] == op.labels[d]) length = op.shape[e];
        } else if (pick(0, 5) == 0) {
          length = 1;
        }
        op.shape.push_back(length);
      }
    }
    std::vector<int> output;
    for (int label = 0; label < label_count; ++label)
      if (used[static_cast<std::size_t>(label)] && pick(0, 1) == 1) output.push_back(label);
    std::shuffle(output.begin(), output.end(), rng);
    // Labels no operand uses do not exist for the reference either.
    std::vector<std::int64_t> effective = extent;
    for (int label = 0; label < label_count; ++label) {
      std::int64_t seen = 1;
      for (const Operand& op : operands)
        for (std::size_t d = 0; d < op.labels.size(); ++d)
          if (op.labels[d] == label && op.shape[d] != 1) seen = op.shape[d];
      effective[static_cast<std::size_t>(label)] = used[static_cast<std::size_t>(label)] ? seen : 1;
    }

    std::string pattern;
    std::vector<AnyTensor> tensors;
    std::vector<std::vector<T>> values;
    for (std::size_t k = 0; k < operands.size(); ++k) {
      if (k > 0) pattern += ", ";
      for (int label : operands[k].labels) pattern.append(name_of(label)).append(" ");
      Tensor<T> tensor(operands[k].shape);
      for (std::int64_t i = 0; i < tensor.size(); ++i) tensor.data()[i] = random_value<T>(rng);
      values.push_back(tensor.to_vector());
      tensors.emplace_back(tensor);
    }
    pattern += "->";
    for (int label : output) pattern.append(" ").append(name_of(label));

    const AnyTensor got = einops::einsum(std::span<const AnyTensor>(tensors), pattern);
    Shape want_shape;
    for (int label : output) want_shape.push_back(effective[static_cast<std::size_t>(label)]);
    ASSERT_EQ(Shape(got.shape().begin(), got.shape().end()), want_shape) << pattern;
    ASSERT_EQ(got.dtype(), einops::dtype_v<T>) << pattern;
    expect_close(got.as<T>().to_vector(), reference<T>(operands, values, output, effective), pattern);
  }
}

Tensor<double> random_tensor(const Shape& shape, unsigned seed) {
  std::mt19937 rng(seed);
  Tensor<double> t(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = random_value<double>(rng);
  return t;
}

/// The naive matrix product of row-major a (m x k) and b (k x n).
std::vector<double> matmul(const std::vector<double>& a, const std::vector<double>& b, std::int64_t m, std::int64_t k,
                           std::int64_t n) {
  std::vector<double> c(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (std::int64_t p = 0; p < k; ++p)
        sum += a[static_cast<std::size_t>(i * k + p)] * b[static_cast<std::size_t>(p * n + j)];
      c[static_cast<std::size_t>(i * n + j)] = sum;
    }
  return c;
}

}  // namespace

// ---- results -------------------------------------------------------------------------------------

TEST(EinsumDifferential, Float64) { differential<double>(1, 400); }
TEST(EinsumDifferential, Float32) { differential<float>(2, 300); }
TEST(EinsumDifferential, Int64) { differential<std::int64_t>(3, 300); }
TEST(EinsumDifferential, Int32) { differential<std::int32_t>(4, 200); }
TEST(EinsumDifferential, Int8WrapsAsNumpy) { differential<std::int8_t>(5, 200); }
TEST(EinsumDifferential, Uint16) { differential<std::uint16_t>(6, 200); }
TEST(EinsumDifferential, Bool) { differential<bool>(7, 200); }

TEST(Einsum, EinopsDocExamples) {
  const Tensor<double> x = random_tensor({4, 5, 6}, 1), y = random_tensor({6, 5, 3}, 2),
                       z = random_tensor({4, 2, 7}, 3);
  const Tensor<double> out = einops::einsum(x, y, z, "a b c, c b d, a g k -> a b k");
  EXPECT_EQ(Shape(out.shape().begin(), out.shape().end()), (Shape{4, 5, 7}));
  // out[a,b,k] = (Σ_c x[a,b,c] Σ_d y[c,b,d]) (Σ_g z[a,g,k])
  const double want = [&] {
    double xy = 0, zz = 0;
    for (std::int64_t c = 0; c < 6; ++c) {
      double ysum = 0;
      for (std::int64_t d = 0; d < 3; ++d) ysum += y.at({c, 1, d});
      xy += x.at({2, 1, c}) * ysum;
    }
    for (std::int64_t g = 0; g < 2; ++g) zz += z.at({2, g, 3});
    return xy * zz;
  }();
  EXPECT_NEAR(out.at({2, 1, 3}), want, 1e-9 * (1 + std::fabs(want)));

  const Tensor<double> m = random_tensor({10, 10}, 4);
  const Tensor<double> trace = einops::einsum(m, "i i ->");
  double want_trace = 0;
  for (std::int64_t i = 0; i < 10; ++i) want_trace += m.at({i, i});
  EXPECT_EQ(trace.rank(), 0u);
  EXPECT_DOUBLE_EQ(trace.to_vector()[0], want_trace);

  const Tensor<double> weights = random_tensor({10, 20}, 5), data = random_tensor({5, 3, 20}, 6);
  const Tensor<double> projected = einops::einsum(weights, data, "out_dim in_dim, ... in_dim -> ... out_dim");
  EXPECT_EQ(Shape(projected.shape().begin(), projected.shape().end()), (Shape{5, 3, 10}));
}

TEST(Einsum, EllipsisBroadcastsAsNumpy) {
  const Tensor<double> a = random_tensor({2, 1, 3}, 1), b = random_tensor({4, 3}, 2);
  const Tensor<double> out = einops::einsum(a, b, "... k, ... k -> ...");
  ASSERT_EQ(Shape(out.shape().begin(), out.shape().end()), (Shape{2, 4}));
  for (std::int64_t i = 0; i < 2; ++i)
    for (std::int64_t j = 0; j < 4; ++j) {
      double want = 0;
      for (std::int64_t k = 0; k < 3; ++k) want += a.at({i, 0, k}) * b.at({j, k});
      EXPECT_DOUBLE_EQ(out.at({i, j}), want);
    }
  EXPECT_EQ(einops::einsum(a, "... -> ...").to_vector(), a.to_vector());
}

/// Products large enough for BLAS, in every layout the mapping distinguishes: plain, transposed
/// operands, a column-major result, a batch axis between the others, strided and reversed inputs.
TEST(Einsum, MatrixProductLayoutsMatchNaive) {
  const std::int64_t m = 33, k = 40, n = 29;
  const Tensor<double> a = random_tensor({m, k}, 11), b = random_tensor({k, n}, 12);
  const auto want = matmul(a.to_vector(), b.to_vector(), m, k, n);
  const auto check = [&](const Tensor<double>& got, bool transposed_result, const char* what) {
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        const double value = transposed_result ? got.at({j, i}) : got.at({i, j});
        ASSERT_NEAR(value, want[static_cast<std::size_t>(i * n + j)], 1e-9) << what;
      }
  };
  check(einops::einsum(a, b, "i k, k j -> i j"), false, "plain");
  check(einops::einsum(a, b, "i k, k j -> j i"), true, "column-major result");
  // Transposed copies of the operands, read through their strides.
  const Tensor<double> at = einops::einsum(a, "i k -> k i"), bt = einops::einsum(b, "k j -> j k");
  check(einops::einsum(at, bt, "k i, j k -> i j"), false, "transposed operands");
  const TensorView<const double> at_view(a.data(), {k, m}, {1, k});
  check(einops::einsum(at_view, b, "k i, k j -> i j"), false, "strided view");
  // Reversed rows (negative stride) and a broadcast (zero stride) operand take the packing path.
  const TensorView<const double> reversed(a.data() + (m - 1) * k, {m, k}, {-k, 1});
  const Tensor<double> flipped = einops::einsum(reversed, b, "i k, k j -> i j");
  for (std::int64_t j = 0; j < n; ++j)
    ASSERT_NEAR(flipped.at({0, j}), want[static_cast<std::size_t>((m - 1) * n + j)], 1e-9);
  std::vector<double> row(static_cast<std::size_t>(k));
  for (std::int64_t p = 0; p < k; ++p) row[static_cast<std::size_t>(p)] = static_cast<double>(p % 5) - 2;
  const TensorView<const double> broadcast(row.data(), {m, k}, {0, 1});
  const Tensor<double> same_rows = einops::einsum(broadcast, b, "i k, k j -> i j");
  for (std::int64_t i = 1; i < m; ++i) ASSERT_EQ(same_rows.at({i, 7}), same_rows.at({0, 7}));

  // Batch axis in the middle of the output, and float32 through sgemm.
  const Tensor<double> x = random_tensor({3, m, k}, 13), y = random_tensor({3, k, n}, 14);
  const Tensor<double> middle = einops::einsum(x, y, "b i k, b k j -> i b j");
  for (std::int64_t batch = 0; batch < 3; ++batch) {
    std::vector<double> xb, yb;
    for (std::int64_t i = 0; i < m * k; ++i) xb.push_back(x.data()[batch * m * k + i]);
    for (std::int64_t i = 0; i < k * n; ++i) yb.push_back(y.data()[batch * k * n + i]);
    const auto wb = matmul(xb, yb, m, k, n);
    ASSERT_NEAR(middle.at({5, batch, 7}), wb[static_cast<std::size_t>(5 * n + 7)], 1e-9);
  }
  Tensor<float> af({m, k}), bf({k, n});
  for (std::int64_t i = 0; i < m * k; ++i) af.data()[i] = static_cast<float>(a.data()[i]);
  for (std::int64_t i = 0; i < k * n; ++i) bf.data()[i] = static_cast<float>(b.data()[i]);
  const Tensor<float> cf = einops::einsum(af, bf, "i k, k j -> i j");
  for (std::int64_t i = 0; i < m; ++i) ASSERT_NEAR(cf.at({i, 3}), want[static_cast<std::size_t>(i * n + 3)], 1e-3);
}

TEST(Einsum, AttentionScoresMatchNaive) {
  const Tensor<double> q = random_tensor({2, 3, 17, 8}, 21), kt = random_tensor({2, 3, 19, 8}, 22);
  const Tensor<double> scores = einops::einsum(q, kt, "b h q d, b h k d -> b h q k");
  ASSERT_EQ(Shape(scores.shape().begin(), scores.shape().end()), (Shape{2, 3, 17, 19}));
  double want = 0;
  for (std::int64_t d = 0; d < 8; ++d) want += q.at({1, 2, 16, d}) * kt.at({1, 2, 18, d});
  EXPECT_NEAR(scores.at({1, 2, 16, 18}), want, 1e-9);
}

TEST(Einsum, IntegersAndLargeProducts) {
  Tensor<std::int64_t> a({40, 30}), b({30, 50});
  for (std::int64_t i = 0; i < a.size(); ++i) a.data()[i] = i % 7 - 3;
  for (std::int64_t i = 0; i < b.size(); ++i) b.data()[i] = i % 5 - 2;
  const Tensor<std::int64_t> c = einops::einsum(a, b, "i k, k j -> i j");
  std::int64_t want = 0;
  for (std::int64_t p = 0; p < 30; ++p) want += a.at({39, p}) * b.at({p, 49});
  EXPECT_EQ(c.at({39, 49}), want);
}

TEST(Einsum, HalfPrecisionComputesInFloat) {
  Tensor<einops::float16> a({2, 3}), b({3});
  for (std::int64_t i = 0; i < 6; ++i) a.data()[i] = einops::float16(static_cast<float>(i));
  for (std::int64_t i = 0; i < 3; ++i) b.data()[i] = einops::float16(0.5f);
  const Tensor<einops::float16> c = einops::einsum(a, b, "i k, k -> i");
  EXPECT_EQ(static_cast<float>(c.at({0})), 1.5f);
  EXPECT_EQ(static_cast<float>(c.at({1})), 6.0f);
}

TEST(Einsum, ZeroLengthAxes) {
  const Tensor<double> a({0, 3}), b({3, 4});
  const Tensor<double> c = einops::einsum(a, b, "i k, k j -> i j");
  EXPECT_EQ(Shape(c.shape().begin(), c.shape().end()), (Shape{0, 4}));
  const Tensor<double> summed = einops::einsum(Tensor<double>({4, 0}), Tensor<double>({0, 2}), "i k, k j -> i j");
  EXPECT_EQ(summed.to_vector(), std::vector<double>(8, 0.0));  // an empty sum is 0
}

TEST(Einsum, CallForms) {
  const Tensor<float> a = Tensor<float>::arange({2, 3}), b = Tensor<float>::arange({3});
  const auto typed = einops::einsum(a, b, "i k, k -> i");
  static_assert(std::is_same_v<std::remove_const_t<decltype(typed)>, Tensor<float>>);
  EXPECT_EQ(typed.to_vector(), (std::vector<float>{5, 14}));
  const auto any = einops::einsum(AnyTensor(a), b, "i k, k -> i");
  static_assert(std::is_same_v<std::remove_const_t<decltype(any)>, AnyTensor>);
  EXPECT_EQ(any.as<float>().to_vector(), (std::vector<float>{5, 14}));
  const std::vector<Tensor<float>> list = {a, b};
  EXPECT_EQ(einops::einsum(list, "i k, k -> i").to_vector(), (std::vector<float>{5, 14}));
  const std::string pattern = "i k -> k";
  EXPECT_EQ(einops::einsum(a, pattern).to_vector(), (std::vector<float>{3, 5, 7}));
  EXPECT_EQ(einops::einsum(a, "i k -> k").to_vector(), einops::einsum(a, "i k -> k").to_vector());  // cached plan
}

// ---- errors --------------------------------------------------------------------------------------

TEST(EinsumErrors, NamePatternShapesAndReason) {
  const Tensor<float> a({2, 3}), b({3, 4}), c({5, 4});
  const auto fails = [](auto&& call, const char* pattern, const char* shapes, const char* reason) {
    const std::string message = message_of(call);
    EXPECT_NE(message.find("einsum pattern \"" + std::string(pattern) + "\""), std::string::npos) << message;
    EXPECT_NE(message.find(shapes), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << pattern << ": " << message;
  };
  fails([&] { einops::einsum(a, einops::runtime("i j -> k")); }, "i j -> k", "(2, 3)",
        "Unknown axis k on right side of einsum i j -> k.");
  fails([&] { einops::einsum(a, b, einops::runtime("i k -> i")); }, "i k -> i", "(2, 3), (3, 4)",
        "1 operand(s), but 2 tensor(s)");
  fails([&] { einops::einsum(a, einops::runtime("i j k -> i")); }, "i j k -> i", "(2, 3)",
        "rank 2, but its pattern names 3 axes");
  fails([&] { einops::einsum(a, c, einops::runtime("i k, k j -> i j")); }, "i k, k j -> i j", "(2, 3), (5, 4)",
        "Axis 'k' has length 3 in an earlier operand but 5 in operand 1");
  fails([&] { einops::einsum(a, einops::runtime("i i -> i")); }, "i i -> i", "(2, 3)",
        "repeats in operand 0 with different lengths");
  fails(
      [&] {
        einops::einsum(Tensor<float>({2, 3, 4}), einops::runtime("i ... -> i"));
      },
      "i ... -> i", "(2, 3, 4)", "no '...' to put them");
  fails([&] { einops::einsum(a, einops::runtime("i j -> i i")); }, "i j -> i i", "(2, 3)", "duplicate dimension");
  fails([&] { einops::einsum(a, einops::runtime("(i j) -> i")); }, "(i j) -> i", "(2, 3)", "Shape rearrangement");
  fails([&] { einops::einsum(a, einops::runtime("i 3 -> i")); }, "i 3 -> i", "(2, 3)", "Anonymous axes");
  fails([&] { einops::einsum(a, einops::runtime("i j")); }, "i j", "(2, 3)", "Einsum pattern must contain '->'.");
  fails([&] { einops::einsum(AnyTensor(a), AnyTensor(Tensor<double>({3})), einops::runtime("i k, k -> i")); },
        "i k, k -> i", "(2, 3), (3,)", "one dtype");
  fails([] { einops::einsum(std::span<const AnyTensor>(), einops::runtime("-> ")); }, "-> ", "", "at least one tensor");
}
