#include "array_io.hpp"

#include <algorithm>
#include <cctype>

#include "npy_file.hpp"
#include "png_image.hpp"

namespace einops::tool {

bool is_png_path(const std::string& path) {
  if (path.size() < 4) return false;
  std::string suffix = path.substr(path.size() - 4);
  std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
  return suffix == ".png";
}

AnyTensor read_array(const std::string& path) { return is_png_path(path) ? load_png(path) : load_npy(path); }

std::pair<Shape, DType> array_shape(const std::string& path) {
  if (is_png_path(path)) return {png_shape(path), DType::uint8};
  return npy_shape(path);
}

void write_array(const std::string& path, const AnyTensor& x) {
  if (is_png_path(path)) save_png(path, x);
  else save_npy(path, x);
}

}  // namespace einops::tool
