#include "cases.hpp"

#include <algorithm>
#include <numeric>

namespace bench {
namespace {

using einops::DType;

std::int64_t product(const einops::Shape& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

Case permute(std::string pattern, einops::Shape shape, DType dtype, einops::Shape view,
             std::vector<std::int64_t> permutation, std::vector<std::pair<std::string, std::int64_t>> lengths = {},
             std::string group = "") {
  return Case{.kind = Kind::permute,
              .pattern = std::move(pattern),
              .lengths = std::move(lengths),
              .input_shape = std::move(shape),
              .dtype = dtype,
              .view = std::move(view),
              .permutation = std::move(permutation),
              .group = std::move(group)};
}

Case reduce(std::string pattern, std::string reduction, einops::Shape shape, DType dtype, einops::Shape view,
            std::vector<std::int64_t> axes, std::vector<std::pair<std::string, std::int64_t>> lengths = {}) {
  return Case{.kind = Kind::reduce,
              .pattern = std::move(pattern),
              .lengths = std::move(lengths),
              .input_shape = std::move(shape),
              .dtype = dtype,
              .reduction = std::move(reduction),
              .view = std::move(view),
              .axes = std::move(axes)};
}

/// A permutation of a 4-d (or 3-d) image tensor without compositions: the view is the shape.
Case image(std::string pattern, einops::Shape shape, DType dtype, std::vector<std::int64_t> permutation) {
  einops::Shape view = shape;
  return permute(std::move(pattern), std::move(shape), dtype, std::move(view), std::move(permutation), {}, "channels");
}

/// Non-overlapping k x k pooling of [b, c, h, w] (NCHW) or [b, h, w, c] (channels_last); h and w
/// divisible by k.
Case pool(std::string pattern, std::string reduction, einops::Shape shape, DType dtype, std::int64_t k,
          bool channels_last) {
  const einops::Shape view = channels_last ? einops::Shape{shape[0], shape[1] / k, k, shape[2] / k, k, shape[3]}
                                           : einops::Shape{shape[0], shape[1], shape[2] / k, k, shape[3] / k, k};
  Case c = reduce(std::move(pattern), std::move(reduction), std::move(shape), dtype, view,
                  channels_last ? std::vector<std::int64_t>{2, 4} : std::vector<std::int64_t>{3, 5});
  c.pool_window = k;
  c.channels_last = channels_last;
  c.group = "pooling";
  return c;
}

std::vector<Case> make_cases() {
  std::vector<Case> all;
  const einops::Shape square{4096, 4096}, bchw{32, 64, 56, 56};
  for (DType dtype : {DType::float32, DType::float16, DType::float64, DType::int8}) {
    all.push_back(permute("h w -> w h", square, dtype, square, {1, 0}));
    all.push_back(permute("b c h w -> b h w c", bchw, dtype, bchw, {0, 2, 3, 1}));
  }
  all.push_back(permute("b h w c -> b c h w", {32, 56, 56, 64}, DType::float32, {32, 56, 56, 64}, {0, 3, 1, 2}));
  all.push_back(permute("b (h h2) (w w2) c -> b h w (c h2 w2)", {16, 56, 56, 64}, DType::float32,
                        {16, 28, 2, 28, 2, 64}, {0, 1, 3, 5, 2, 4}, {{"h2", 2}, {"w2", 2}}));
  all.push_back(
      permute("a b c d e -> e d c b a", {16, 16, 16, 16, 64}, DType::float32, {16, 16, 16, 16, 64}, {4, 3, 2, 1, 0}));
  all.push_back(permute("a b c -> b a c", {256, 1024, 64}, DType::float32, {256, 1024, 64}, {1, 0, 2}));

  all.push_back(reduce("b c h w -> b c", "sum", bchw, DType::float32, bchw, {2, 3}));
  all.push_back(reduce("b c h w -> b h w", "sum", bchw, DType::float32, bchw, {1}));
  all.push_back(reduce("b c h w -> c h w", "max", bchw, DType::float32, bchw, {0}));
  all.push_back(reduce("b c h w -> b c", "mean", bchw, DType::float16, bchw, {2, 3}));
  all.push_back(reduce("b c h w -> b h w", "mean", bchw, DType::float16, bchw, {1}));

  all.push_back(Case{.kind = Kind::repeat,
                     .pattern = "b c -> b c h w",
                     .lengths = {{"h", 56}, {"w", 56}},
                     .input_shape = {32, 64},
                     .dtype = DType::float32,
                     .view = {32, 64, 1, 1},
                     .expand = {32, 64, 56, 56}});
  all.push_back(Case{.kind = Kind::repeat,
                     .pattern = "h w -> (h 2) (w 2)",
                     .input_shape = {2048, 2048},
                     .dtype = DType::float32,
                     .view = {2048, 1, 2048, 1},
                     .expand = {2048, 2, 2048, 2}});

  // The shapes image and vision users have (issue 31), after the cases above so that those keep
  // their rows. Channels-last <-> channels-first of 3- and 4-channel images:
  const einops::Shape nhwc{64, 224, 224, 3}, nchw{64, 3, 224, 224};
  all.push_back(image("b h w c -> b c h w", {128, 224, 224, 3}, DType::uint8, {0, 3, 1, 2}));
  all.push_back(image("b h w c -> b c h w", nhwc, DType::float32, {0, 3, 1, 2}));
  all.push_back(image("b h w c -> b c h w", nhwc, DType::float16, {0, 3, 1, 2}));
  all.push_back(image("b c h w -> b h w c", {128, 3, 224, 224}, DType::uint8, {0, 2, 3, 1}));
  all.push_back(image("b c h w -> b h w c", nchw, DType::float32, {0, 2, 3, 1}));
  all.push_back(image("h w c -> c h w", {2160, 3840, 4}, DType::uint8, {2, 0, 1}));
  all.push_back(image("c h w -> h w c", {4, 2160, 3840}, DType::uint8, {1, 2, 0}));
  // One image: input and output fit in the caches.
  all.push_back(image("b h w c -> b c h w", {1, 224, 224, 3}, DType::float32, {0, 3, 1, 2}));
  // ViT patches of 16 x 16 x 3 and back.
  const einops::Shape patches{64, 14, 16, 14, 16, 3};
  all.push_back(permute("b (h p1) (w p2) c -> b (h w) (p1 p2 c)", nhwc, DType::float32, patches, {0, 1, 3, 2, 4, 5},
                        {{"p1", 16}, {"p2", 16}}, "patchify"));
  all.push_back(permute("b (h w) (p1 p2 c) -> b (h p1) (w p2) c", {64, 196, 768}, DType::float32,
                        {64, 14, 14, 16, 16, 3}, {0, 1, 3, 2, 4, 5}, {{"h", 14}, {"p1", 16}, {"p2", 16}}, "patchify"));
  // Pooling windows, NCHW and NHWC.
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "max", bchw, DType::float32, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "mean", bchw, DType::float32, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "mean", bchw, DType::float16, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "max", bchw, DType::uint8, 2, false));
  all.push_back(pool("b c (h 3) (w 3) -> b c h w", "max", {32, 64, 57, 57}, DType::float32, 3, false));
  all.push_back(pool("b c (h 4) (w 4) -> b c h w", "mean", bchw, DType::float32, 4, false));
  all.push_back(pool("b (h 2) (w 2) c -> b h w c", "max", {32, 56, 56, 64}, DType::float32, 2, true));
  all.push_back(pool("b (h 2) (w 2) c -> b h w c", "max", {32, 224, 224, 3}, DType::uint8, 2, true));
  // The same windows on inputs of about 100 MB, beyond the last-level cache: a ResNet stem's
  // feature maps, and 4K frames.
  const einops::Shape stem{32, 64, 112, 112};
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "max", stem, DType::float32, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "mean", stem, DType::float32, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "mean", {64, 64, 112, 112}, DType::float16, 2, false));
  all.push_back(pool("b c (h 2) (w 2) -> b c h w", "max", {128, 64, 112, 112}, DType::uint8, 2, false));
  all.push_back(pool("b (h 2) (w 2) c -> b h w c", "max", {4, 2160, 3840, 3}, DType::uint8, 2, true));
  // Warm calls: float32 tensors of 16 KB to 1 MB that stay in L2 from call to call (model code's
  // inner loops), and the per-call floor: a [2,3,4,5] tensor.
  const DType f32 = DType::float32;
  all.push_back(permute("b c h w -> b h w c", {2, 3, 4, 5}, f32, {2, 3, 4, 5}, {0, 2, 3, 1}, {}, "warm"));
  for (const std::int64_t n : {16, 64, 197})  // head split, d = 64
    all.push_back(permute("b n (h d) -> b h n d", {1, n, 768 / (n == 197 ? 1 : 3)}, f32, {1, n, n == 197 ? 12 : 4, 64},
                          {0, 2, 1, 3}, {{"h", n == 197 ? 12 : 4}}, "warm"));
  for (const std::int64_t n : {64, 197})  // head merge
    all.push_back(permute("b h n d -> b n (h d)", {1, n == 197 ? 12 : 4, n, 64}, f32, {1, n == 197 ? 12 : 4, n, 64},
                          {0, 2, 1, 3}, {}, "warm"));
  for (const std::int64_t side : {64, 128, 256}) {  // HWC <-> CHW
    all.push_back(permute("h w c -> c h w", {side, side, 3}, f32, {side, side, 3}, {2, 0, 1}, {}, "warm"));
    all.push_back(permute("c h w -> h w c", {3, side, side}, f32, {3, side, side}, {1, 2, 0}, {}, "warm"));
  }
  for (const std::int64_t side : {16, 32}) {  // tokens <-> feature maps, 64 channels
    all.push_back(permute("b (h w) c -> b c h w", {1, side * side, 64}, f32, {1, side, side, 64}, {0, 3, 1, 2},
                          {{"h", side}}, "warm"));
    all.push_back(
        permute("b c h w -> b (h w) c", {1, 64, side, side}, f32, {1, 64, side, side}, {0, 2, 3, 1}, {}, "warm"));
  }
  return all;
}

}  // namespace

std::string Case::label() const {
  std::string text = pattern;
  if (!group.empty()) {
    text += " [";
    for (std::size_t i = 0; i < input_shape.size(); ++i) {
      if (i > 0) text += ',';
      text += std::to_string(input_shape[i]);
    }
    text += "]";
  }
  if (kind == Kind::reduce) text += " (" + reduction + ")";
  return text;
}

einops::AxisLengths Case::axis_lengths() const {
  einops::AxisLengths out;
  for (const auto& [name, length] : lengths) out.add(name, length);
  return out;
}

std::int64_t Case::input_elements() const { return product(input_shape); }

einops::Shape Case::output_view() const {
  einops::Shape shape;
  switch (kind) {
    case Kind::permute:
      for (std::int64_t axis : permutation) shape.push_back(view[static_cast<std::size_t>(axis)]);
      break;
    case Kind::repeat: shape = expand; break;
    case Kind::reduce:
      for (std::size_t i = 0; i < view.size(); ++i)
        if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(i)) == axes.end()) shape.push_back(view[i]);
      break;
  }
  return shape;
}

std::int64_t Case::output_elements() const { return product(output_view()); }

std::int64_t Case::output_bytes() const { return output_elements() * static_cast<std::int64_t>(element_size()); }

std::int64_t Case::reference_bytes() const {
  return kind == Kind::reduce ? input_elements() * static_cast<std::int64_t>(element_size()) : output_bytes();
}

std::int64_t Case::traffic_bytes() const {
  return (input_elements() + output_elements()) * static_cast<std::int64_t>(element_size());
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

}  // namespace bench
