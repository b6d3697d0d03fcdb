// The demonstration: classic einops transforms on the built-in tensor, each printed with its
// input and output shapes and values.
#include <einops/einops.hpp>

#include <cstdint>
#include <iostream>
#include <span>
#include <string>

namespace {

/// Prints a tensor one innermost row per line, with a blank line between matrices (small tensors only).
template <class T>
void print_values(const einops::Tensor<T>& t) {
  const auto values = t.to_vector();
  const auto shape = t.shape();
  const std::int64_t row = shape.empty() ? 1 : shape.back();
  const std::int64_t matrix = shape.size() < 2 ? row : row * shape[shape.size() - 2];
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto at = static_cast<std::int64_t>(i);
    if (at % row == 0) std::cout << (at > 0 && at % matrix == 0 ? "\n    " : "    ");
    std::cout << values[i] << (at % row == row - 1 ? "\n" : " ");
  }
}

template <class T>
void show(const std::string& title, const std::string& call, const einops::Tensor<T>& in,
          const einops::Tensor<T>& out) {
  std::cout << "== " << title << "\n   " << call << "\n   " << einops::detail::format_shape(in.shape()) << " -> "
            << einops::detail::format_shape(out.shape()) << '\n';
  print_values(out);
  std::cout << '\n';
}

}  // namespace

int main() {
  using einops::Tensor;
  const auto image = Tensor<float>::arange({1, 2, 4, 4});  // b c h w
  std::cout << "Input x = arange, shape (b=1, c=2, h=4, w=4):\n";
  print_values(image);
  std::cout << '\n';

  show("transpose (NCHW -> NHWC)", "rearrange(x, \"b c h w -> b h w c\")", image,
       einops::rearrange(image, "b c h w -> b h w c"));
  show("flatten", "rearrange(x, \"b c h w -> b (c h w)\")", image, einops::rearrange(image, "b c h w -> b (c h w)"));
  show("space-to-depth", "rearrange(x, \"b c (h h2) (w w2) -> b (c h2 w2) h w\", {{\"h2\", 2}, {\"w2\", 2}})", image,
       einops::rearrange(image, "b c (h h2) (w w2) -> b (c h2 w2) h w", {{"h2", 2}, {"w2", 2}}));
  show("2x2 max-pool", "reduce(x, \"b c (h 2) (w 2) -> b c h w\", \"max\")", image,
       einops::reduce(image, "b c (h 2) (w 2) -> b c h w", "max").as<float>());
  show("global mean pool", "reduce(x, \"b c h w -> b c\", \"mean\")", image,
       einops::reduce(image, "b c h w -> b c", "mean").as<float>());
  const auto tile = Tensor<float>::arange({2, 2});
  show("tiling", "repeat(t, \"h w -> (2 h) (3 w)\")", tile, einops::repeat(tile, "h w -> (2 h) (3 w)"));

  std::cout << "== errors name the pattern, the shape and the reason:\n";
  try {
    (void)einops::rearrange(image, "b c (h h2) w -> b c h (h2 w)", {{"h2", 3}});
  } catch (const einops::EinopsError& error) {
    std::cout << error.what() << '\n';
  }
  return 0;
}
