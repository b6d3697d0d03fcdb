// Your own tensor type with einops: specialise einops::tensor_traits to expose its memory, and
// every operation accepts it (read in place) and returns it (written in place).
#include <einops/backend.hpp>

#include <cstdint>
#include <iostream>
#include <span>
#include <vector>

template <class T>
struct Grid {  // a user's tensor: row-major values and a shape
  std::vector<std::int64_t> shape;
  std::vector<T> values;
};

template <class T>
struct einops::tensor_traits<Grid<T>> {
  using value_type = T;
  static const T* data(const Grid<T>& g) { return g.values.data(); }
  static T* data(Grid<T>& g) { return g.values.data(); }
  static const std::vector<std::int64_t>& shape(const Grid<T>& g) { return g.shape; }
  static std::vector<std::int64_t> strides(const Grid<T>& g) {  // in elements
    std::vector<std::int64_t> strides(g.shape.size(), 1);
    for (std::size_t i = g.shape.size(); i-- > 1;) strides[i - 1] = strides[i] * g.shape[i];
    return strides;
  }
  template <class U, std::size_t Rank>  // a result; einops fills it
  static Grid<U> make(std::span<const std::int64_t> shape) {
    std::int64_t count = 1;
    for (std::int64_t length : shape) count *= length;
    return {{shape.begin(), shape.end()}, std::vector<U>(static_cast<std::size_t>(count))};
  }
};

int main() {
  Grid<float> image{{2, 3, 4}, {}};  // c h w
  for (int i = 0; i < 24; ++i) image.values.push_back(static_cast<float>(i));

  const Grid<float> hwc = einops::rearrange(image, "c h w -> h w c");
  const Grid<float> pooled = einops::reduce(image, "c h (w 2) -> c h w", "max");
  const Grid<float> tiled = einops::repeat(image, "c h w -> c (h 2) w");
  const Grid<float> both = einops::einsum(image, image, "c h w, c h w -> h w");

  std::cout << "hwc[0..5]: ";
  for (int i = 0; i < 6; ++i) std::cout << hwc.values[static_cast<std::size_t>(i)] << ' ';
  std::cout << "\npooled shape: " << pooled.shape[0] << 'x' << pooled.shape[1] << 'x' << pooled.shape[2]
            << ", tiled rows: " << tiled.shape[1] << ", einsum[0]: " << both.values[0] << '\n';
  // Each result checked against the element it must hold.
  const bool ok = hwc.values[1] == 12 && hwc.values[2] == 1 && pooled.values[0] == 1 && pooled.values[1] == 3 &&
                  tiled.values[4] == 0 && tiled.values[8] == 4 && both.values[0] == 0 + 144;
  std::cout << (ok ? "ok" : "MISMATCH") << '\n';
  return ok ? 0 : 1;
}
