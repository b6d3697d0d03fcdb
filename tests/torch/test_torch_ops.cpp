// einops/torch.hpp: every operation on torch tensors (views, dtypes, lists, errors), gradients
// against finite differences, and calls from 8 threads at once. This file and
// test_torch_layers.cpp both include the adapter and the layers (the two-translation-unit test).
#include <einops/layers/torch.hpp>
#include <einops/torch.hpp>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "einops/einops.hpp"
#include "torch_test_util.hpp"

using einops::EinopsError;
using einops_torch_test::distinct;
using einops_torch_test::gradient_error;
using namespace einops::literals;

// Defined here, called from test_torch_layers.cpp: the two translation units share one adapter.
at::Tensor rearrange_in_ops_unit(const at::Tensor& x) { return einops::rearrange(x, "b c h w -> b h w c"); }
einops::layers::torch::Rearrange flatten_layer_from_ops_unit() {
  return einops::layers::torch::Rearrange("b c h w -> b (c h w)");
}

namespace {

at::Tensor arange(at::IntArrayRef shape, at::ScalarType type = at::kFloat) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return at::arange(n, at::TensorOptions(type)).reshape(shape);
}

TEST(TorchAdapter, PermutationIsAView) {
  const at::Tensor x = arange({2, 3, 4, 5});
  const at::Tensor y = einops::rearrange(x, "b c h w -> b h w c");
  EXPECT_TRUE(y.is_alias_of(x));
  EXPECT_EQ(y.sizes(), (std::vector<std::int64_t>{2, 4, 5, 3}));
  EXPECT_TRUE(at::equal(y, x.permute({0, 2, 3, 1})));
}

TEST(TorchAdapter, ReshapeIsAView) {
  const at::Tensor x = arange({2, 3, 4, 5});
  const at::Tensor y = einops::rearrange(x, "b c h w -> b (c h w)");
  EXPECT_TRUE(y.is_alias_of(x));
  EXPECT_TRUE(at::equal(y, x.reshape({2, 60})));
  const at::Tensor z = einops::rearrange(x, "b c h w -> b c h w");
  EXPECT_TRUE(z.is_alias_of(x));
}

TEST(TorchAdapter, RearrangeViewSharesStorage) {
  const at::Tensor x = arange({2, 3, 4, 5});
  const at::Tensor y = einops::rearrange_view(x, "b c (h h2) w -> b h (h2 w) c", "h2"_ax = 2);
  EXPECT_TRUE(y.is_alias_of(x));
  EXPECT_EQ(y.data_ptr(), x.data_ptr());
  EXPECT_TRUE(at::equal(y, einops::rearrange(x, "b c (h h2) w -> b h (h2 w) c", {{"h2", 2}})));
  {
    const at::NoGradGuard no_grad;
    y[1][1][3][2].fill_(-1.0);  // b=1, h=1, h2=0, w=3, c=2: x[1][2][2][3]
  }
  EXPECT_EQ(x[1][2][2][3].item<float>(), -1.0f);
  // Strided and negative-stride inputs, as torch's view handles them.
  const at::Tensor columns = arange({4, 6}).t();  // (6, 4), strides (1, 6)
  EXPECT_TRUE(einops::rearrange_view(columns, "a b -> (b a)", {}).is_alias_of(columns));
  const at::Tensor every_other = arange({4, 8}).slice(1, 0, 8, 2);  // (4, 4), strides (8, 2)
  EXPECT_TRUE(at::equal(einops::rearrange_view(every_other, "a b -> (a b)"), every_other.reshape({16})));
}

TEST(TorchAdapter, RearrangeViewFailsWhereTorchsViewFails) {
  const at::Tensor t = arange({2, 3, 4}).permute({2, 1, 0});  // (4, 3, 2), strides (1, 4, 12)
  EXPECT_THROW((void)t.view({12, 2}), c10::Error);
  try {
    (void)einops::rearrange_view(t, "w h b -> (w h) b");
    ADD_FAILURE() << "no EinopsError";
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("'w' and 'h'"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)einops::rearrange_view(t, std::string("w h b -> w h"), {}), EinopsError);
}

TEST(TorchAdapter, RearrangeViewKeepsAutograd) {
  const at::Tensor x = arange({3, 4}).to(at::kDouble).requires_grad_(true);
  const at::Tensor y = einops::rearrange_view(x, "(a a2) b -> b a a2", "a2"_ax = 3);
  EXPECT_TRUE(y.requires_grad());
  EXPECT_LT(gradient_error([](const at::Tensor& v) { return einops::rearrange_view(v, "a b -> b a"); }, arange({3, 4})),
            1e-6);
}

TEST(TorchAdapter, RepeatToANewAxisIsAnExpand) {
  const at::Tensor x = arange({2, 3});
  const at::Tensor y = einops::repeat(x, "a b -> a b k", {{"k", 4}});
  EXPECT_TRUE(y.is_alias_of(x));
  EXPECT_EQ(y.stride(2), 0);
  const at::Tensor z = einops::repeat(x, "a b -> a (b k)", "k"_ax = 2);
  EXPECT_TRUE(at::equal(z, x.repeat_interleave(2, 1)));
}

TEST(TorchAdapter, MatchesTheBuiltInTensor) {
  const auto check = [](const char* pattern, at::IntArrayRef shape, const einops::AxisLengths& lengths) {
    const at::Tensor x = arange(shape, at::kDouble);
    const einops::Tensor<double> b = einops::Tensor<double>::arange(einops::Shape(shape.begin(), shape.end()));
    const at::Tensor y = einops::rearrange(x, std::string(pattern), lengths).contiguous();
    const einops::Tensor<double> z = einops::rearrange(b, std::string(pattern), lengths);
    ASSERT_EQ(static_cast<std::int64_t>(z.size()), y.numel()) << pattern;
    const einops::Tensor<double> zc = einops::rearrange(z, "... -> (...)");
    for (std::int64_t i = 0; i < y.numel(); ++i) EXPECT_EQ(y.reshape({-1})[i].item<double>(), zc.data()[i]) << pattern;
  };
  check("b c (h h2) (w w2) -> b (c h2 w2) h w", {2, 3, 4, 6}, {{"h2", 2}, {"w2", 3}});
  check("b ... c -> c b ...", {2, 3, 4, 5}, {});
  check("(a b) c -> c b a", {6, 5}, {{"a", 2}});
  check("a 1 b () -> b a", {3, 1, 4, 1}, {});
}

TEST(TorchAdapter, Reductions) {
  const at::Tensor x = distinct({2, 4, 6});
  EXPECT_TRUE(at::allclose(einops::reduce(x, "b (h 2) w -> b h w", "max"), x.reshape({2, 2, 2, 6}).amax(2)));
  EXPECT_TRUE(at::allclose(einops::reduce(x, "b h w -> b", "mean"), x.mean({1, 2})));
  EXPECT_TRUE(at::allclose(einops::reduce(x, "b h w -> w h", "sum"), x.sum(0).t()));
  EXPECT_TRUE(at::allclose(einops::reduce(x, "b h w -> h", "prod"), x.prod(2).prod(0)));
  EXPECT_TRUE(at::allclose(einops::reduce(x, "b h w -> b h", "min"), x.amin(2)));
  const at::Tensor flags = x > 1.0;
  EXPECT_TRUE(at::equal(einops::reduce(flags, "b h w -> b", "any"), flags.any(2).any(1)));
  EXPECT_TRUE(at::equal(einops::reduce(flags, "b h w -> b", "all"), flags.all(2).all(1)));
  EXPECT_EQ(einops::reduce(flags, "b h w -> b", "sum").scalar_type(), at::kLong);
}

TEST(TorchAdapter, EveryDtype) {
  for (const at::ScalarType type : {at::kHalf, at::kBFloat16, at::kFloat, at::kDouble, at::kInt, at::kLong, at::kShort,
                                    at::kChar, at::kByte, at::kBool}) {
    const at::Tensor x = arange({2, 3, 4}, at::kFloat).to(type);
    const at::Tensor y = einops::rearrange(x, "a b c -> c (a b)");
    EXPECT_EQ(y.scalar_type(), type);
    EXPECT_TRUE(at::equal(y, x.permute({2, 0, 1}).reshape({4, 6})));
    const at::Tensor m = einops::reduce(x, "a b c -> a", "max");
    EXPECT_TRUE(at::equal(m, x.amax({1, 2})));
    if (at::isFloatingType(type)) {
      EXPECT_TRUE(
          at::allclose(einops::reduce(x, "a b c -> a c", "mean").to(at::kFloat), x.to(at::kFloat).mean(1), 1e-2, 1e-2));
    } else {
      EXPECT_THROW(einops::reduce(x, "a b c -> a c", "mean"), EinopsError);
    }
  }
}

TEST(TorchAdapter, ListsAreStacked) {
  const std::vector<at::Tensor> frames = {arange({3, 4}), arange({3, 4}) + 1, arange({3, 4}) + 2};
  const at::Tensor y = einops::rearrange(frames, "t h w -> h (t w)");
  EXPECT_TRUE(at::equal(y, at::stack(frames).permute({1, 0, 2}).reshape({3, 12})));
  EXPECT_TRUE(at::equal(einops::reduce(frames, "t h w -> h w", "sum"), at::stack(frames).sum(0)));
  EXPECT_THROW(einops::rearrange(std::vector<at::Tensor>{}, "t h -> h t"), EinopsError);
  EXPECT_THROW(einops::rearrange(std::vector<at::Tensor>{arange({2}), arange({3})}, "t h -> h t"), EinopsError);
}

TEST(TorchAdapter, ErrorsAreEinopsErrors) {
  const at::Tensor x = arange({2, 3, 4});
  EXPECT_THROW(einops::rearrange(x, "a b -> b a"), EinopsError);                        // rank
  EXPECT_THROW(einops::rearrange(x, "a (b c) d -> a b c d", {{"c", 2}}), EinopsError);  // 3 % 2
  EXPECT_THROW(einops::rearrange(x, std::string("a b c -> a b")), EinopsError);         // run-time pattern
  EXPECT_THROW(einops::reduce(x, "a b c -> a", "median"), EinopsError);
  EXPECT_THROW(einops::reduce(arange({2, 0}), "a b -> a", "min"), EinopsError);
  try {
    einops::rearrange(x, einops::runtime("a b c -> a (b c) d2"), {{"d2", 1}});  // a literal would not compile
    FAIL();
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("a b c -> a (b c) d2"), std::string::npos) << e.what();
  }
}

TEST(TorchAdapter, PackUnpackParseShapeEinsum) {
  const at::Tensor a = arange({2, 3, 5}), b = arange({2, 5});
  auto [packed, shapes] = einops::pack({a, b}, "i * k");
  EXPECT_EQ(packed.sizes(), (std::vector<std::int64_t>{2, 4, 5}));
  ASSERT_EQ(shapes.size(), 2u);
  const std::vector<at::Tensor> parts = einops::unpack(packed, shapes, "i * k");
  EXPECT_TRUE(at::equal(parts[0], a));
  EXPECT_TRUE(at::equal(parts[1], b));
  EXPECT_TRUE(parts[0].is_alias_of(packed));
  const einops::ParsedShape s = einops::parse_shape(a, "b _ w");
  EXPECT_EQ(s.entries().size(), 2u);
  EXPECT_EQ(s.entries()[1].second, 5);
  const at::Tensor q = distinct({2, 3, 4}), k = distinct({2, 5, 4}, 3);
  EXPECT_TRUE(at::allclose(einops::einsum(q, k, "b i d, b j d -> b i j"), at::bmm(q, k.transpose(1, 2))));
  EXPECT_TRUE(at::allclose(einops::einsum(std::vector<at::Tensor>{q}, "batch i d -> batch"), q.sum({1, 2})));
  EXPECT_THROW(einops::einsum(q, k, "b i d, b i d -> b"), EinopsError);  // lengths of i differ
}

TEST(TorchAdapter, CheckShape) {
  const at::Tensor x = arange({2, 7, 12});
  const einops::ParsedShape s = einops::check_shape(x, "b t (h p)", "t"_ax = 7, "p"_ax = 3);
  EXPECT_EQ(s["h"], 4);
  EXPECT_EQ(einops::check_shape(x, std::string("b ... 12"), {})["b"], 2);
  try {
    (void)einops::check_shape(x, "b t (h p)", {{"t", 8}, {"p", 5}});
    FAIL();
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("Shape mismatch, 7 != 8 (input dim 1, group t)\n"), std::string::npos) << message;
    EXPECT_NE(message.find("can't divide axis of length 12 in chunks of 5 (input dim 2, group (h p))"),
              std::string::npos)
        << message;
  }
}

// ---- gradients against finite differences (double) ---------------------------------------------

TEST(TorchGradients, EveryOperation) {
  const at::Tensor x = distinct({2, 4, 3});
  const auto expect_gradient = [&](const char* what, const std::function<at::Tensor(const at::Tensor&)>& f,
                                   const at::Tensor& input) { EXPECT_LT(gradient_error(f, input), 1e-6) << what; };
  expect_gradient(
      "rearrange",
      [](const at::Tensor& t) {
        return einops::rearrange(t, "a (b c) d -> (d a) c b", {{"c", 2}});
      },
      x);
  for (const char* reduction : {"sum", "mean", "max", "min", "prod"})
    expect_gradient(
        reduction,
        [reduction](const at::Tensor& t) {
          return einops::reduce(t, "a (b c) d -> c a", reduction, {{"c", 2}});
        },
        x);
  expect_gradient(
      "repeat",
      [](const at::Tensor& t) {
        return einops::repeat(t, "a b c -> a (b r) c k", {{"r", 2}, {"k", 3}});
      },
      x);
  expect_gradient(
      "list",
      [](const at::Tensor& t) {
        return einops::rearrange(std::vector<at::Tensor>{t, t * 2}, "l a b c -> a (l b) c");
      },
      x);
  expect_gradient(
      "pack",
      [](const at::Tensor& t) {
        return einops::pack({t, t.sum(1) * 3}, "a * c").tensor;
      },
      x);
  expect_gradient(
      "unpack",
      [](const at::Tensor& t) {
        const auto parts = einops::unpack(t, {{2}, {2}}, "a * c");
        return parts[0] * parts[1];
      },
      x);
  const at::Tensor w = distinct({3, 5}, 11);
  expect_gradient(
      "einsum", [&](const at::Tensor& t) { return einops::einsum(t, w, "a b c, c d -> d a"); }, x);
  expect_gradient(
      "einsum weight", [&](const at::Tensor& t) { return einops::einsum(x, t, "a b c, c d -> d a"); }, w);
}

// ---- 8 threads at once --------------------------------------------------------------------------

TEST(TorchConcurrency, EightThreadsMixedPatternsAndShapes) {
  struct Job {
    std::string pattern;
    einops::AxisLengths lengths;
    std::string reduction;  // empty: rearrange; "repeat": repeat
    at::Tensor input;
    at::Tensor expected;
  };
  std::vector<Job> jobs;
  for (std::int64_t n : {1, 2, 3, 5}) {
    jobs.push_back({"b c h w -> b h w c", {}, "", arange({n, 3, 4, 2}), {}});
    jobs.push_back({"b c (h h2) w -> b (c h2) h w", {{"h2", 2}}, "", arange({n, 2, 4, 3}), {}});
    jobs.push_back({"b c h w -> b c", {}, "sum", arange({n, 3, 2, 2}), {}});
    jobs.push_back({"b c h w -> c", {}, "max", arange({2, n, 2, 3}), {}});
    jobs.push_back({"b c -> b c r", {{"r", 3}}, "repeat", arange({n, 4}), {}});
  }
  const auto run = [](const Job& job) {
    if (job.reduction.empty()) return einops::rearrange(job.input, job.pattern, job.lengths).contiguous();
    if (job.reduction == "repeat") return einops::repeat(job.input, job.pattern, job.lengths).contiguous();
    return einops::reduce(job.input, job.pattern, job.reduction, job.lengths);
  };
  for (Job& job : jobs) job.expected = run(job).clone();
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 400; ++i) {
        const Job& job = jobs[static_cast<std::size_t>(i * 7 + t) % jobs.size()];
        // Literal patterns too: their steps are cached by the literal's address.
        const at::Tensor literal = einops::rearrange(job.input.reshape({-1}), "(a b) -> b a", {{"a", 1}});
        if (!at::equal(run(job), job.expected) || !at::equal(literal, job.input.reshape({-1, 1}))) ++mismatches;
      }
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
