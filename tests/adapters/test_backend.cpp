// The backend interface (backend.hpp) with user types of both kinds: one that exposes memory
// (column-major, static rank) and one that brings its own ops (naive loops written here, no
// einops inside). Every result is compared with the built-in tensor's on the same data.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <einops/backend.hpp>

namespace {

using einops::EinopsError;
using einops::Shape;

// ---- a user type exposing memory: column-major, rank fixed at compile time --------------------------

template <class T, std::size_t N>
struct ColumnMajor {
  std::array<std::int64_t, N> shape{};
  std::vector<T> values;  // first index fastest
};

}  // namespace

template <class T, std::size_t N>
struct einops::tensor_traits<ColumnMajor<T, N>> {
  using value_type = T;
  static constexpr std::size_t rank = N;
  static const T* data(const ColumnMajor<T, N>& x) { return x.values.data(); }
  static T* data(ColumnMajor<T, N>& x) { return x.values.data(); }
  static std::array<std::int64_t, N> shape(const ColumnMajor<T, N>& x) { return x.shape; }
  static std::array<std::int64_t, N> strides(const ColumnMajor<T, N>& x) {
    std::array<std::int64_t, N> strides{};
    std::int64_t step = 1;
    for (std::size_t i = 0; i < N; ++i, step *= x.shape[i - 1]) strides[i] = step;
    return strides;
  }
  template <class U, std::size_t M>
    requires(M != einops::dynamic_rank)
  static ColumnMajor<U, M> make(std::span<const std::int64_t> shape) {
    ColumnMajor<U, M> result;
    std::int64_t count = 1;
    for (std::size_t i = 0; i < M; ++i) count *= result.shape[i] = shape[i];
    result.values.resize(static_cast<std::size_t>(count));
    return result;
  }
};

namespace {

template <std::size_t N>
ColumnMajor<double, N> column_major(const einops::Tensor<double>& x) {
  ColumnMajor<double, N> out = einops::tensor_traits<ColumnMajor<double, N>>::template make<double, N>(x.shape());
  einops::rearrange_into(x, out, einops::runtime(N == 3 ? "a b c -> a b c" : "a b c d -> a b c d"));
  return out;
}

einops::Tensor<double> counting(Shape shape) {
  einops::Tensor<double> x(std::move(shape));
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<double>((i * 37 + 11) % 101 - 50);
  return x;
}

template <class X>
std::vector<double> values_of(const X& x) {
  return einops::Tensor<double>(einops::rearrange(einops::view(x), einops::runtime("... -> ..."))).to_vector();
}

TEST(MemoryBackend, ReadsAndWritesTheUsersLayout) {
  const einops::Tensor<double> reference = counting({2, 3, 4});
  const ColumnMajor<double, 3> x = column_major<3>(reference);
  EXPECT_EQ(x.values[1], reference.at({1, 0, 0}));  // really column-major
  const auto y = einops::rearrange<"a b c -> c (a b)">(x);
  static_assert(std::is_same_v<std::remove_const_t<decltype(y)>, ColumnMajor<double, 2>>);
  EXPECT_EQ(values_of(y), einops::rearrange(reference, "a b c -> c (a b)").to_vector());
  const auto m = einops::reduce<"a b c -> b">(x, "max");
  EXPECT_EQ(values_of(m), einops::Tensor<double>(einops::reduce(reference, "a b c -> b", "max")).to_vector());
  const auto r = einops::repeat<4>(x, "a b c -> a b c r", {{"r", 2}});
  EXPECT_EQ(values_of(r), einops::repeat(reference, "a b c -> a b c r", {{"r", 2}}).to_vector());
  EXPECT_THROW((void)einops::rearrange<2>(x, std::string("a b c -> a b c")), EinopsError);
}

// ---- a user type with its own ops ----------------------------------------------------------------

/// Row-major values and a shape; every op is a naive loop, and each call is counted.
struct Naive {
  Shape shape;
  std::vector<double> values;
};

std::map<std::string, int>& op_calls() {
  static std::map<std::string, int> calls;
  return calls;
}

Shape strides_of(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}
std::int64_t count_of(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t length : shape) n *= length;
  return n;
}
/// Calls f(index) for every multi-index of `shape` in row-major order.
void for_each_index(const Shape& shape, const std::function<void(const Shape&)>& f) {
  if (count_of(shape) == 0) return;
  Shape index(shape.size(), 0);
  for (std::int64_t n = count_of(shape); n > 0; --n) {
    f(index);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}
std::int64_t offset_of(const Shape& index, const Shape& strides) {
  std::int64_t offset = 0;
  for (std::size_t d = 0; d < index.size(); ++d) offset += index[d] * strides[d];
  return offset;
}

Naive naive(const einops::Tensor<double>& x) { return {Shape(x.shape().begin(), x.shape().end()), x.to_vector()}; }

}  // namespace

template <>
struct einops::tensor_traits<Naive> {
  using value_type = double;
  static const Shape& shape(const Naive& x) { return x.shape; }
  static Naive reshape(const Naive& x, std::span<const std::int64_t> shape) {
    ++op_calls()["reshape"];
    return {Shape(shape.begin(), shape.end()), x.values};
  }
  static Naive permute(const Naive& x, std::span<const std::int64_t> axes) {
    ++op_calls()["permute"];
    Naive out{Shape(axes.size()), {}};
    for (std::size_t i = 0; i < axes.size(); ++i) out.shape[i] = x.shape[static_cast<std::size_t>(axes[i])];
    const Shape in_strides = strides_of(x.shape);
    for_each_index(out.shape, [&](const Shape& index) {
      std::int64_t offset = 0;
      for (std::size_t i = 0; i < axes.size(); ++i) offset += index[i] * in_strides[static_cast<std::size_t>(axes[i])];
      out.values.push_back(x.values[static_cast<std::size_t>(offset)]);
    });
    return out;
  }
  static Naive reduce(const Naive& x, einops::Reduction reduction, std::span<const std::int64_t> axes) {
    ++op_calls()["reduce"];
    const auto reduced = [&](std::size_t d) {
      return std::find(axes.begin(), axes.end(), std::int64_t(d)) != axes.end();
    };
    Naive out;
    for (std::size_t d = 0; d < x.shape.size(); ++d)
      if (!reduced(d)) out.shape.push_back(x.shape[d]);
    std::vector<std::vector<double>> groups(static_cast<std::size_t>(count_of(out.shape)));
    const Shape out_strides = strides_of(out.shape);
    std::size_t i = 0;
    for_each_index(x.shape, [&](const Shape& index) {
      Shape kept;
      for (std::size_t d = 0; d < index.size(); ++d)
        if (!reduced(d)) kept.push_back(index[d]);
      groups[static_cast<std::size_t>(offset_of(kept, out_strides))].push_back(x.values[i++]);
    });
    for (const auto& g : groups) {
      double v = 0;
      switch (reduction) {
        case einops::Reduction::sum:
          for (double e : g) v += e;
          break;
        case einops::Reduction::mean:
          for (double e : g) v += e / static_cast<double>(g.size());
          break;
        case einops::Reduction::prod:
          v = 1;
          for (double e : g) v *= e;
          break;
        case einops::Reduction::min: v = *std::min_element(g.begin(), g.end()); break;
        case einops::Reduction::max: v = *std::max_element(g.begin(), g.end()); break;
        case einops::Reduction::any: v = std::any_of(g.begin(), g.end(), [](double e) { return e != 0; }); break;
        case einops::Reduction::all: v = std::all_of(g.begin(), g.end(), [](double e) { return e != 0; }); break;
      }
      out.values.push_back(v);
    }
    return out;
  }
  static Naive broadcast(const Naive& x, std::span<const std::int64_t> shape) {
    ++op_calls()["broadcast"];
    Naive out{Shape(shape.begin(), shape.end()), {}};
    Shape in_strides = strides_of(x.shape);
    for (std::size_t d = 0; d < x.shape.size(); ++d)
      if (x.shape[d] == 1) in_strides[d] = 0;
    for_each_index(out.shape, [&](const Shape& index) {
      out.values.push_back(x.values[static_cast<std::size_t>(offset_of(index, in_strides))]);
    });
    return out;
  }
  static Naive concatenate(std::span<const Naive> parts, std::int64_t axis) {
    ++op_calls()["concatenate"];
    Naive out{parts.front().shape, {}};
    const auto a = static_cast<std::size_t>(axis);
    out.shape[a] = 0;
    for (const Naive& part : parts) out.shape[a] += part.shape[a];
    for_each_index(out.shape, [&](const Shape& index) {
      Shape local = index;
      for (const Naive& part : parts) {
        if (local[a] < part.shape[a]) {
          out.values.push_back(part.values[static_cast<std::size_t>(offset_of(local, strides_of(part.shape)))]);
          return;
        }
        local[a] -= part.shape[a];
      }
    });
    return out;
  }
  static Naive slice(const Naive& x, std::int64_t axis, std::int64_t begin, std::int64_t end) {
    ++op_calls()["slice"];
    Naive out{x.shape, {}};
    const auto a = static_cast<std::size_t>(axis);
    out.shape[a] = end - begin;
    for_each_index(out.shape, [&](const Shape& index) {
      Shape source = index;
      source[a] += begin;
      out.values.push_back(x.values[static_cast<std::size_t>(offset_of(source, strides_of(x.shape)))]);
    });
    return out;
  }
  /// einops' compact single-letter pattern, e.g. "ab,bc->ac" (no ellipsis in these tests).
  static Naive einsum(const std::string& pattern, std::span<const Naive> operands) {
    ++op_calls()["einsum"];
    const std::size_t arrow = pattern.find("->");
    std::vector<std::string> inputs(1);
    for (char c : pattern.substr(0, arrow)) {
      if (c == ',') inputs.emplace_back();
      else inputs.back().push_back(c);
    }
    const std::string output = pattern.substr(arrow + 2);
    std::string letters;
    Shape lengths;
    for (std::size_t k = 0; k < inputs.size(); ++k)
      for (std::size_t d = 0; d < inputs[k].size(); ++d)
        if (letters.find(inputs[k][d]) == std::string::npos) {
          letters.push_back(inputs[k][d]);
          lengths.push_back(operands[k].shape[d]);
        }
    Naive out;
    for (char c : output) out.shape.push_back(lengths[letters.find(c)]);
    out.values.assign(static_cast<std::size_t>(count_of(out.shape)), 0.0);
    for_each_index(lengths, [&](const Shape& at) {
      const auto value = [&](const std::string& labels, const Naive& x) {
        Shape index;
        for (char c : labels) index.push_back(at[letters.find(c)]);
        return x.values[static_cast<std::size_t>(offset_of(index, strides_of(x.shape)))];
      };
      double product = 1;
      for (std::size_t k = 0; k < inputs.size(); ++k) product *= value(inputs[k], operands[k]);
      Shape index;
      for (char c : output) index.push_back(at[letters.find(c)]);
      out.values[static_cast<std::size_t>(offset_of(index, strides_of(out.shape)))] += product;
    });
    return out;
  }
};

namespace {

static_assert(einops::TensorOps<Naive> && !einops::StridedTensor<Naive>);
static_assert(einops::StridedTensor<ColumnMajor<float, 2>> && !einops::TensorOps<ColumnMajor<float, 2>>);

void expect_same(const Naive& actual, const einops::AnyTensor& expected) {
  EXPECT_EQ(actual.shape, Shape(expected.shape().begin(), expected.shape().end()));
  std::vector<double> want;
  if (expected.dtype() == einops::DType::boolean)
    for (bool v : expected.as<bool>().to_vector()) want.push_back(v ? 1.0 : 0.0);
  else want = expected.as<double>().to_vector();
  ASSERT_EQ(actual.values.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(actual.values[i], want[i], 1e-9) << "at " << i;
}

TEST(OpsBackend, RearrangeReduceRepeatAgreeWithTheBuiltInTensor) {
  const einops::Tensor<double> x = counting({2, 3, 4, 6});
  const Naive n = naive(x);
  for (const char* pattern : {"b c h w -> b h w c", "b c h w -> (b c) (h w)", "b ... w -> w ... b",
                              "b c h w -> b 1 c h w ()", "... -> ..."}) {
    SCOPED_TRACE(pattern);
    expect_same(einops::rearrange(n, einops::runtime(pattern)), einops::rearrange(x, einops::runtime(pattern)));
  }
  expect_same(einops::rearrange(n, "b c (h h2) (w w2) -> b (c h2 w2) h w", {{"h2", 2}, {"w2", 3}}),
              einops::rearrange(x, "b c (h h2) (w w2) -> b (c h2 w2) h w", {{"h2", 2}, {"w2", 3}}));
  for (const char* reduction : {"sum", "mean", "min", "max", "prod", "any", "all"}) {
    SCOPED_TRACE(reduction);
    expect_same(einops::reduce(n, "b c (h 2) (w 3) -> c b h w", reduction),
                einops::reduce(x, "b c (h 2) (w 3) -> c b h w", reduction));
    expect_same(einops::reduce(n, "b ... -> b", reduction), einops::reduce(x, "b ... -> b", reduction));
  }
  expect_same(einops::repeat(n, "b c h w -> (r b) c (h 2) w k", {{"r", 2}, {"k", 3}}),
              einops::repeat(x, "b c h w -> (r b) c (h 2) w k", {{"r", 2}, {"k", 3}}));
  expect_same(einops::rearrange(std::vector<Naive>{n, n}, "l b c h w -> b (l c) h w"),
              einops::rearrange(std::vector<einops::Tensor<double>>{x, x}, "l b c h w -> b (l c) h w"));
}

TEST(OpsBackend, TheRecipeUsesTheLibrarysOps) {
  const Naive n = naive(counting({2, 3, 4}));
  op_calls().clear();
  (void)einops::rearrange(n, "a b c -> c a b");
  EXPECT_EQ(op_calls()["permute"], 1);
  EXPECT_EQ(op_calls()["reduce"], 0);
  op_calls().clear();
  (void)einops::reduce(n, "a b c -> a", "sum");
  EXPECT_EQ(op_calls()["reduce"], 1);
  EXPECT_EQ(op_calls()["permute"], 0);
  op_calls().clear();
  (void)einops::repeat(n, "a b c -> a b c k", {{"k", 2}});
  EXPECT_EQ(op_calls()["broadcast"], 1);
}

TEST(OpsBackend, PackUnpackEinsum) {
  const einops::Tensor<double> a = counting({2, 3, 4});
  const einops::Tensor<double> b = counting({2, 5});
  const auto packed = einops::pack(std::vector<Naive>{naive(a), naive(b)}, "i *");
  const auto reference = einops::pack({einops::AnyTensor(a), einops::AnyTensor(b)}, "i *");
  expect_same(packed.tensor, reference.tensor);
  EXPECT_EQ(packed.packed_shapes, reference.packed_shapes);
  const std::vector<Naive> parts = einops::unpack(packed.tensor, packed.packed_shapes, "i *");
  ASSERT_EQ(parts.size(), 2U);
  expect_same(parts[0], a);
  expect_same(parts[1], b);

  const einops::Tensor<double> m = counting({3, 4});
  const einops::Tensor<double> k = counting({4, 5});
  expect_same(einops::einsum(naive(m), naive(k), "row inner, inner col -> col row"),
              einops::einsum(m, k, "row inner, inner col -> col row"));
  expect_same(einops::einsum(naive(m), "i j -> j"), einops::einsum(m, "i j -> j"));
  EXPECT_EQ(einops::detail::compact_einsum_pattern("row inner, inner col -> col row"), "ab,bc->ca");
}

TEST(OpsBackend, ErrorsAreEinopsErrors) {
  const Naive n = naive(counting({2, 3}));
  try {
    (void)einops::rearrange(n, einops::runtime("a b -> a c"));
    FAIL();
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("a b -> a c"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3)"), std::string::npos) << message;
  }
  EXPECT_THROW((void)einops::rearrange(n, "(a a2) b -> a a2 b", {{"a2", 4}}), EinopsError);
  EXPECT_THROW((void)einops::unpack(n, {{2}, {2}}, "a *"), EinopsError);
  EXPECT_THROW((void)einops::pack(std::vector<Naive>{n, naive(counting({3, 3}))}, "a *"), EinopsError);
}

// ---- a user type whose element type is known at run time (as cv::Mat's) ----------------------------

/// Row-major bytes with a run-time dtype; `Loose` is the same without `make` (results built-in).
struct Dynamic {
  einops::DType dtype = einops::DType::float64;
  Shape shape;
  std::vector<unsigned char> bytes;
};
struct Loose : Dynamic {};

}  // namespace

template <class X>
  requires std::is_base_of_v<Dynamic, X>
struct einops::tensor_traits<X> {
  static einops::DType dtype(const Dynamic& x) { return x.dtype; }
  static const void* data(const Dynamic& x) { return x.bytes.data(); }
  static void* data(Dynamic& x) { return x.bytes.data(); }
  static const Shape& shape(const Dynamic& x) { return x.shape; }
  static Shape strides(const Dynamic& x) { return einops::detail::row_major_strides(x.shape); }
  static Dynamic make(einops::DType dtype, std::span<const std::int64_t> shape)
    requires std::is_same_v<X, Dynamic>
  {
    Dynamic result{dtype, Shape(shape.begin(), shape.end()), {}};
    result.bytes.resize(static_cast<std::size_t>(einops::detail::element_count(shape)) * einops::dtype_size(dtype));
    return result;
  }
};

namespace {

static_assert(einops::StridedTensor<Dynamic> && einops::StridedTensor<Loose> && !einops::TensorOps<Dynamic>);

template <class X = Dynamic>
X dynamic(const einops::AnyTensor& x) {
  X out;
  out.dtype = x.dtype();
  out.shape.assign(x.shape().begin(), x.shape().end());
  out.bytes.resize(static_cast<std::size_t>(x.size()) * einops::dtype_size(x.dtype()));
  einops::rearrange_into(x, out, einops::runtime("... -> ..."));
  return out;
}

void expect_same(const Dynamic& actual, const einops::AnyTensor& expected) {
  EXPECT_EQ(actual.dtype, expected.dtype());
  EXPECT_EQ(actual.shape, Shape(expected.shape().begin(), expected.shape().end()));
  const einops::AnyTensor packed = einops::contiguous(expected);
  ASSERT_EQ(actual.bytes.size(), static_cast<std::size_t>(packed.size()) * einops::dtype_size(packed.dtype()));
  EXPECT_TRUE(std::equal(actual.bytes.begin(), actual.bytes.end(), static_cast<const unsigned char*>(packed.data())));
}

TEST(RuntimeTypedBackend, ResultsHoldTheCallsElementType) {
  const einops::Tensor<double> reference = counting({2, 3, 4});
  const Dynamic x = dynamic(reference);
  expect_same(einops::rearrange(x, "a b c -> c (a b)"), einops::rearrange(reference, "a b c -> c (a b)"));
  expect_same(einops::reduce(x, "a b c -> a", "max"), einops::reduce(reference, "a b c -> a", "max"));
  expect_same(einops::repeat(x, "a b c -> a b c 2"), einops::repeat(reference, "a b c -> a b c 2"));
  expect_same(einops::rearrange<"a b c -> (a b c)">(x), einops::rearrange(reference, "a b c -> (a b c)"));
  // numpy's result types: the sum of int32 is int64; any gives bool.
  const Dynamic ints = dynamic(einops::Tensor<std::int32_t>::arange({2, 3}));
  const Dynamic sums = einops::reduce(ints, "a b -> a", "sum");
  EXPECT_EQ(sums.dtype, einops::DType::int64);
  expect_same(sums, einops::reduce(einops::Tensor<std::int32_t>::arange({2, 3}), "a b -> a", "sum"));
  EXPECT_EQ(einops::reduce(ints, "a b -> b", "any").dtype, einops::DType::boolean);
  EXPECT_THROW((void)einops::reduce<std::int32_t>(ints, einops::runtime("a b -> a"), "sum"), EinopsError);
}

TEST(RuntimeTypedBackend, ListsPackUnpackEinsumAndCopies) {
  const einops::Tensor<double> a = counting({2, 3});
  const einops::Tensor<double> b = einops::Tensor<double>::arange({2, 3});
  const std::vector<Dynamic> list{dynamic(a), dynamic(b)};
  expect_same(einops::rearrange(list, "n a b -> a (n b)"),
              einops::rearrange(std::vector<einops::Tensor<double>>{a, b}, "n a b -> a (n b)"));
  const auto packed = einops::pack(list, "a *");
  expect_same(packed.tensor, einops::pack(std::vector<einops::Tensor<double>>{a, b}, "a *").tensor);
  const std::vector<Dynamic> parts = einops::unpack(packed.tensor, packed.packed_shapes, "a *");
  ASSERT_EQ(parts.size(), 2u);
  expect_same(parts[1], b);
  expect_same(einops::einsum(list[0], list[1], "i j, k j -> i k"), einops::einsum(a, b, "i j, k j -> i k"));
  expect_same(einops::copy_to<Dynamic>(a), a);
  EXPECT_EQ(einops::view(list[0]).data(), static_cast<const void*>(list[0].bytes.data()));
}

TEST(RuntimeTypedBackend, WithoutMakeResultsAreBuiltIn) {
  const einops::Tensor<double> reference = counting({2, 3});
  const Loose x = dynamic<Loose>(reference);
  const einops::AnyTensor y = einops::rearrange(x, "a b -> b a");
  EXPECT_EQ(y.as<double>().to_vector(), einops::rearrange(reference, "a b -> b a").to_vector());
}

TEST(Backends, CheckShapeOnUserTypes) {
  using namespace einops::literals;
  // Memory with a static rank: a literal is checked against rank 3 by the compiler.
  const ColumnMajor<double, 3> x = column_major<3>(counting({2, 3, 4}));
  const einops::ParsedShape s = einops::check_shape(x, "a 3 (b 2)", "a"_ax = 2);
  EXPECT_EQ(s["b"], 2);
  // Own ops: only the shape is read.
  const Naive n = naive(counting({2, 6}));
  EXPECT_EQ(einops::check_shape(n, "a (b 3)", {})["b"], 2);
  try {
    (void)einops::check_shape(n, "a (b 4)", {});
    FAIL();
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("can't divide axis of length 6 in chunks of 4 (input dim 1, group (b 4))"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
