#include "sample.hpp"

#include <array>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace einops::tool {
namespace {

// 3x5 glyphs of the digits, one row per string, '#' lit.
constexpr std::array<std::array<const char*, 5>, 10> kGlyphs = {{
    {"###", "#.#", "#.#", "#.#", "###"},
    {".#.", "##.", ".#.", ".#.", "###"},
    {"###", "..#", "###", "#..", "###"},
    {"###", "..#", "###", "..#", "###"},
    {"#.#", "#.#", "###", "..#", "..#"},
    {"###", "#..", "###", "..#", "###"},
    {"###", "#..", "###", "#.#", "###"},
    {"###", "..#", ".#.", ".#.", ".#."},
    {"###", "#.#", "###", "#.#", "###"},
    {"###", "#.#", "###", "..#", "###"},
}};

/// A saturated colour for hue in [0, 1), as 0-255 RGB.
std::array<std::uint8_t, 3> hue_colour(double hue) {
  std::array<std::uint8_t, 3> rgb{};
  for (int c = 0; c < 3; ++c) {
    const double phase = std::fmod(hue + static_cast<double>(c) / 3.0, 1.0);
    const double level = 0.5 + 0.35 * std::cos(2.0 * std::numbers::pi * phase);
    rgb[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(std::lround(255.0 * level));
  }
  return rgb;
}

}  // namespace

AnyTensor sample_digits(std::int64_t count, std::int64_t size) {
  AnyTensor batch(DType::uint8, Shape{count, size, size, 3});
  auto* pixels = static_cast<std::uint8_t*>(batch.data());
  const auto at = [&](std::int64_t b, std::int64_t y, std::int64_t x) {
    return pixels + ((b * size + y) * size + x) * 3;
  };
  for (std::int64_t b = 0; b < count; ++b) {
    const auto background = hue_colour(static_cast<double>(b) / static_cast<double>(count > 0 ? count : 1));
    for (std::int64_t y = 0; y < size; ++y)
      for (std::int64_t x = 0; x < size; ++x) {
        std::uint8_t* p = at(b, y, x);
        const bool marker = y < size / 8 && x < size / 8;
        for (int c = 0; c < 3; ++c) p[c] = marker ? 0 : background[static_cast<std::size_t>(c)];
      }
    // The index in white, centred: glyphs are 3 wide with 1 column between them.
    const std::string digits = std::to_string(b);
    const auto glyph_columns = static_cast<std::int64_t>(digits.size() * 4 - 1);
    const std::int64_t scale = std::max<std::int64_t>(1, std::min(size * 3 / 4 / glyph_columns, size * 3 / 4 / 5));
    const std::int64_t left = (size - glyph_columns * scale) / 2;
    const std::int64_t top = (size - 5 * scale) / 2;
    for (std::size_t k = 0; k < digits.size(); ++k) {
      const auto& glyph = kGlyphs[static_cast<std::size_t>(digits[k] - '0')];
      for (std::int64_t y = 0; y < 5 * scale; ++y)
        for (std::int64_t x = 0; x < 3 * scale; ++x) {
          if (glyph[static_cast<std::size_t>(y / scale)][x / scale] != '#') continue;
          const std::int64_t px = left + static_cast<std::int64_t>(k) * 4 * scale + x;
          const std::int64_t py = top + y;
          if (px < 0 || py < 0 || px >= size || py >= size) continue;
          std::uint8_t* p = at(b, py, px);
          p[0] = p[1] = p[2] = 255;
        }
    }
  }
  return batch;
}

}  // namespace einops::tool
