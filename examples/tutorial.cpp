// The README's tutorial as a program: every line of it compiles, runs and has its shape checked.
#include <einops/einops.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <span>
#include <vector>

namespace {

int failures = 0;

template <class Tensor>
void expect_shape(const char* what, const Tensor& t, einops::Shape expected) {
  const auto shape = t.shape();
  if (!std::equal(shape.begin(), shape.end(), expected.begin(), expected.end())) {
    std::cerr << what << ": got " << einops::detail::format_shape(shape) << ", expected "
              << einops::detail::format_shape(expected) << '\n';
    ++failures;
  }
}

}  // namespace

int main() {
  using namespace einops;
  Tensor<float> ims = Tensor<float>::arange({6, 96, 96, 3});

  Tensor<float> t = rearrange(ims, "b h w c -> b c h w");
  expect_shape("transpose", t, {6, 3, 96, 96});
  t = rearrange(ims, "b h w c -> (b h) w c");
  expect_shape("compose", t, {576, 96, 3});
  t = rearrange(ims, "b h w c -> h (b w) c");
  expect_shape("side by side", t, {96, 576, 3});
  t = rearrange(ims, "(b1 b2) h w c -> (b1 h) (b2 w) c", {{"b1", 2}});
  expect_shape("grid", t, {192, 288, 3});
  t = rearrange(ims, "b h w c -> b (h w c)");
  expect_shape("flatten", t, {6, 27648});
  if (!t.shares_storage_with(ims)) {
    std::cerr << "flatten of a contiguous tensor should share memory\n";
    ++failures;
  }
  t = rearrange(ims, "b (h h2) (w w2) c -> b h w (c h2 w2)", {{"h2", 2}, {"w2", 2}});
  expect_shape("space-to-depth", t, {6, 48, 48, 12});

  Tensor<float> mean_image = reduce(ims, "b h w c -> h w c", "mean");
  expect_shape("mean", mean_image, {96, 96, 3});
  Tensor<float> pooled = reduce(ims, "b (h 2) (w 2) c -> b h w c", "max");
  expect_shape("max-pool", pooled, {6, 48, 48, 3});
  AnyTensor per_channel = reduce(ims, "b h w c -> c", "sum");
  expect_shape("sum", per_channel, {3});
  Tensor<float> spread = reduce(ims, "b h w c -> b c", [](std::span<const float> v) {
    auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    return *hi - *lo;
  });
  expect_shape("callable", spread, {6, 3});
  if (spread.at({0, 0}) != static_cast<float>(95 * 96 * 3 + 95 * 3)) {
    std::cerr << "callable: wrong spread " << spread.at({0, 0}) << '\n';
    ++failures;
  }

  t = rearrange(ims, "b h w c -> b 1 h w 1 c");
  expect_shape("unit axes", t, {6, 1, 96, 96, 1, 3});
  t = repeat(ims, "b h w c -> b h (w 2) c");
  expect_shape("upsample", t, {6, 96, 192, 3});
  t = repeat(mean_image, "h w c -> b h w c", {{"b", 4}});
  expect_shape("new axis", t, {4, 96, 96, 3});

  std::vector<Tensor<float>> frames(4, Tensor<float>::arange({96, 96, 3}));
  t = rearrange(frames, "b h w c -> h (b w) c");
  expect_shape("list", t, {96, 384, 3});

  std::vector<double> buffer(2 * 3);
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<double>(i);
  TensorView<double> view(buffer.data(), {3, 2}, {1, 3});
  Tensor<double> copy = rearrange(view, "a b -> b a");
  expect_shape("view", copy, {2, 3});
  if (copy.to_vector() != buffer) {
    std::cerr << "view: transposing a transposed view should give the buffer back\n";
    ++failures;
  }

  try {
    rearrange(ims, "b h w c -> b (h w) c2");
    std::cerr << "error: expected an EinopsError\n";
    ++failures;
  } catch (const EinopsError& e) {
    std::cout << e.what() << '\n';
  }
  std::cout << (failures == 0 ? "tutorial: all steps as documented\n" : "tutorial: FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
