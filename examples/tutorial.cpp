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

  // pack and unpack: tensors of different ranks in one, and back (the parts are views)
  Tensor<float> rgb = Tensor<float>::arange({6, 96, 96, 3}), depth({6, 96, 96}), masks({6, 96, 96, 2});
  auto [packed, packed_shapes] = pack({rgb, depth, masks}, "b h w *");
  expect_shape("pack", packed, {6, 96, 96, 6});
  if (packed_shapes != std::vector<Shape>{{3}, {}, {2}}) {
    std::cerr << "pack: wrong packed shapes\n";
    ++failures;
  }
  std::vector<Tensor<float>> parts = unpack(packed, packed_shapes, "b h w *");
  expect_shape("unpack", parts[2], {6, 96, 96, 2});
  if (parts[0].to_vector() != rgb.to_vector() || !parts[0].shares_storage_with(packed)) {
    std::cerr << "unpack: the first part should be a view holding rgb\n";
    ++failures;
  }

  // parse_shape: lengths by name, usable as axis lengths
  ParsedShape dims = parse_shape(ims, "b h w _");
  if (dims["h"] != 96 || dims.size() != 3) {
    std::cerr << "parse_shape: wrong lengths\n";
    ++failures;
  }
  Tensor<float> flat = rearrange(ims, "b h w c -> b (h w c)");
  t = rearrange(flat, "b (h w c) -> b h w c", dims);
  expect_shape("parse_shape lengths", t, {6, 96, 96, 3});

  // einsum: names of any length, tensors first and the pattern last
  Tensor<float> queries = Tensor<float>::arange({2, 4, 16, 8}), keys = Tensor<float>::arange({2, 4, 32, 8});
  Tensor<float> scores = einsum(queries, keys, "batch head q d, batch head k d -> batch head q k");
  expect_shape("attention scores", scores, {2, 4, 16, 32});
  Tensor<float> square = Tensor<float>::arange({3, 3});
  Tensor<float> trace = einsum(square, "i i ->");  // repeated names: a diagonal, summed
  if (trace.to_vector() != std::vector<float>{12.0f}) {
    std::cerr << "einsum: wrong trace\n";
    ++failures;
  }
  t = einsum(ims, mean_image, "b h w c, h w c -> b c");  // names missing on the right are summed
  expect_shape("einsum sum", t, {6, 3});

  try {
    rearrange(ims, runtime("b h w c -> b (h w) c2"));  // as a literal, this would not compile
    std::cerr << "error: expected an EinopsError\n";
    ++failures;
  } catch (const EinopsError& e) {
    std::cout << e.what() << '\n';
  }
  std::cout << (failures == 0 ? "tutorial: all steps as documented\n" : "tutorial: FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
