#include "png_image.hpp"

#include <png.h>

#include <cmath>
#include <limits>
#include <vector>

#include "atomic_file.hpp"
#include "einops/ops.hpp"
#include "tool_errors.hpp"
#include "mapped_file.hpp"

namespace einops::tool {
namespace {

/// A bound on what a small, highly compressed file may make the tool allocate.
constexpr std::uint64_t kMaxDecodedBytes = std::uint64_t{4} << 30;

/// libpng's simplified API keeps its state in png_image; this frees it on every path.
struct ImageGuard {
  png_image image{};
  ImageGuard() { image.version = PNG_IMAGE_VERSION; }
  ~ImageGuard() { png_image_free(&image); }
};

int channels_of(const AnyTensor& x) { return x.rank() == 2 ? 1 : static_cast<int>(x.shape()[2]); }

std::uint32_t format_for(int channels) {
  switch (channels) {
    case 1: return PNG_FORMAT_GRAY;
    case 2: return PNG_FORMAT_GA;
    case 3: return PNG_FORMAT_RGB;
    default: return PNG_FORMAT_RGBA;
  }
}

/// The row-major pixels of `x` as bytes, or the reason they do not fit in [0, 255].
std::vector<unsigned char> to_bytes(const AnyTensor& x, std::string& problem) {
  const AnyTensor pixels = einops::contiguous(x);
  const auto count = static_cast<std::size_t>(pixels.size());
  std::vector<unsigned char> bytes(count);
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* values = static_cast<const T*>(pixels.data());
    for (std::size_t i = 0; i < count && problem.empty(); ++i) {
      const double v = static_cast<double>(values[i]);
      if constexpr (is_floating_element_v<T>) {
        if (!(v >= 0.0 && v <= 1.0)) problem = "a float picture must hold values in [0, 1], found " + std::to_string(v);
        else bytes[i] = static_cast<unsigned char>(std::lround(v * 255.0));
      } else if constexpr (std::is_same_v<T, bool>) {
        bytes[i] = values[i] ? 255 : 0;
      } else {
        if (v < 0.0 || v > 255.0)
          problem = "an integer picture must hold values in [0, 255], found " + std::to_string(values[i]);
        else bytes[i] = static_cast<unsigned char>(values[i]);
      }
    }
  });
  return bytes;
}

/// The header of a PNG file, and the layout load_png gives it.
struct PngHeader {
  std::shared_ptr<const MappedFile> file;
  ImageGuard guard;
  int channels = 0;
};

void begin_read(const std::string& path, PngHeader& header) {
  header.file = MappedFile::open(path);
  png_image& image = header.guard.image;
  const auto bytes = header.file->bytes();
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    throw FileError(path, std::string("cannot read PNG: ") + image.message);
  const bool color = (image.format & PNG_FORMAT_FLAG_COLOR) != 0;
  const bool alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
  header.channels = (color ? 3 : 1) + (alpha ? 1 : 0);
}

}  // namespace

Shape png_shape(const std::string& path) {
  PngHeader header;
  begin_read(path, header);
  return {header.guard.image.height, header.guard.image.width, header.channels};
}

AnyTensor load_png(const std::string& path) {
  PngHeader header;
  begin_read(path, header);
  png_image& image = header.guard.image;
  const int channels = header.channels;
  image.format = format_for(channels);
  const std::uint64_t bytes = std::uint64_t{image.width} * image.height * static_cast<std::uint64_t>(channels);
  if (bytes > kMaxDecodedBytes)
    throw FileError(path, "PNG of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                              " pixels is larger than the " + std::to_string(kMaxDecodedBytes >> 30) +
                              " GiB this tool decodes");
  AnyTensor pixels(DType::uint8, Shape{image.height, image.width, channels});
  if (!png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr))
    throw FileError(path, std::string("cannot read PNG: ") + image.message);
  return pixels;
}

std::optional<std::string> png_shape_problem(const AnyTensor& x) {
  const bool shape_ok = x.rank() == 2 || (x.rank() == 3 && x.shape()[2] >= 1 && x.shape()[2] <= 4);
  if (!shape_ok) return "a PNG holds h w or h w c with c = 1, 2, 3 or 4, not shape " + detail::format_shape(x.shape());
  constexpr auto kMaxSide = static_cast<std::int64_t>(PNG_UINT_31_MAX);
  if (x.shape()[0] < 1 || x.shape()[1] < 1 || x.shape()[0] > kMaxSide || x.shape()[1] > kMaxSide)
    return "a PNG needs a height and width of at least 1, not shape " + detail::format_shape(x.shape());
  return std::nullopt;
}

void save_png(const std::string& path, const AnyTensor& x) {
  if (auto problem = png_shape_problem(x)) throw FileError(path, "cannot write PNG: " + *problem);
  std::string problem;
  const std::vector<unsigned char> bytes = to_bytes(x, problem);
  if (!problem.empty()) throw FileError(path, "cannot write PNG: " + problem);
  ImageGuard guard;
  png_image& image = guard.image;
  image.width = static_cast<png_uint_32>(x.shape()[1]);
  image.height = static_cast<png_uint_32>(x.shape()[0]);
  image.format = format_for(channels_of(x));
  AtomicFile out(path);
  if (!png_image_write_to_stdio(&image, out.stream(), 0, bytes.data(), 0, nullptr))
    out.fail(std::string("cannot write PNG: ") + image.message);
  out.commit();
}

}  // namespace einops::tool
