// The short-axis copy kernels (split_short_axis: channels-last -> planes, merge_short_axis: planes
// -> channels-last) against a naive reference: short axes of 1 to 17 elements, odd outer lengths,
// padded, strided and reversed inputs, every element size, every SIMD target this CPU runs and the
// scalar path; the kernel each layout selects (and its description); streaming stores on large
// outputs at aligned and unaligned starts; bit-identical results for 1, 2, 3 and 8 threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "kernels/copy_schedule.hpp"

namespace {

using einops::detail::TileKernel;
using einops::detail::Walk;

class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { einops::detail::force_simd_target(GetParam()); }
  void TearDown() override { einops::detail::force_simd_target(""); }
};

std::string target_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

struct Dim {
  std::int64_t extent;
  std::int64_t in_stride;
  std::int64_t out_stride;
};

/// A copy: output dims in output order, and where index 0 of each side lies in its buffer.
struct Copy {
  std::vector<Dim> dims;
  std::int64_t in_base = 0, in_size = 1;
  std::int64_t out_base = 0, out_size = 1;

  Walk walk() const {
    Walk w;
    for (const Dim& d : dims) w.push_output(d.extent, d.in_stride, d.out_stride);
    w.merge();
    return w;
  }
  einops::detail::CopySchedule schedule(std::size_t element_size) const {
    return einops::detail::make_copy_schedule(walk(), element_size);
  }
};

/// How the input of a case is laid out in memory, beyond row-major.
enum class Input {
  dense,
  padded_rows,      // each image row (w) has spare elements after it: h and w stay apart
  reversed_outer,   // h runs backwards
  reversed_pixels,  // w runs backwards: the pixel axis is not contiguous
  padded_pixels,    // one spare element after each pixel's (or plane's) channels
  reversed_channels,
};

/// Axis lengths of an image batch, and whether its channels are innermost in the input
/// (`b h w c -> b c h w`) or in the output (`b c h w -> b h w c`).
struct Image {
  std::int64_t b, h, w, c;
  bool channels_last_input;
};

/// The copy of `image` with input layout `input`; the output is row-major (out_offset elements in).
Copy image_copy(const Image& image, Input input, std::int64_t out_offset = 0) {
  const std::int64_t spare_row = input == Input::padded_rows ? 5 : 0;
  const std::int64_t spare_pixel = input == Input::padded_pixels ? 1 : 0;
  // Input strides of b, h, w, c (row-major in the input's own axis order, then reversed axes).
  std::int64_t sb = 0, sh = 0, sw = 0, sc = 0;
  if (image.channels_last_input) {  // b h w c
    sc = 1;
    sw = image.c + spare_pixel;
    sh = sw * image.w + spare_row;
    sb = sh * image.h;
  } else {  // b c h w
    sw = 1;
    sh = image.w + spare_row;
    sc = sh * image.h + spare_pixel;
    sb = sc * image.c;
  }
  Copy copy;
  copy.in_size = sb * image.b + 1;
  if (input == Input::reversed_outer) copy.in_base += sh * (image.h - 1), sh = -sh;
  if (input == Input::reversed_pixels) copy.in_base += sw * (image.w - 1), sw = -sw;
  if (input == Input::reversed_channels) copy.in_base += sc * (image.c - 1), sc = -sc;
  // Output: the other layout, row-major.
  const std::int64_t plane = image.h * image.w;
  if (image.channels_last_input)  // -> b c h w
    copy.dims = {Dim{image.b, sb, image.c * plane}, Dim{image.c, sc, plane}, Dim{image.h, sh, image.w},
                 Dim{image.w, sw, 1}};
  else  // -> b h w c
    copy.dims = {Dim{image.b, sb, plane * image.c}, Dim{image.h, sh, image.w * image.c}, Dim{image.w, sw, image.c},
                 Dim{image.c, sc, 1}};
  copy.out_base = out_offset;
  copy.out_size = image.b * image.c * plane + out_offset;
  return copy;
}

/// Whether the short-axis kernels take `copy` of `image`: a length they take, channels dense
/// on their innermost side, and a pixel axis (w, or h where w is 1) contiguous on the other side:
/// its input stride is c for a split (channels-last input) and 1 for a merge.
bool takes_short_axis_kernel(const Image& image, const Copy& copy) {
  if (!einops::detail::short_axis_kernel_takes(image.c) || image.h * image.w == 1) return false;
  // Output order: b c h w (split) or b h w c (merge).
  const Dim& channel = copy.dims[image.channels_last_input ? 1 : 3];
  const Dim& w = copy.dims[image.channels_last_input ? 3 : 2];
  const Dim& h = copy.dims[image.channels_last_input ? 2 : 1];
  const Dim& pixel = image.w > 1 ? w : h;
  if (image.channels_last_input) return channel.in_stride == 1 && pixel.in_stride == image.c;
  return pixel.in_stride == 1;
}

/// Checks the kernel `copy` selects. A transpose is both a split and a merge: an image of at
/// most kMaxShortAxis pixels may also run as the other one, with its pixels as the short axis.
/// A two-pass merge whose channels fill a cache line may keep the line transposes.
void expect_kernel(const Image& image, const Copy& copy, std::size_t element_size, const std::string& context) {
  const auto kernel = copy.schedule(element_size).kernel;
  const bool short_axis = kernel == TileKernel::split_short_axis || kernel == TileKernel::merge_short_axis;
  const bool line_merge = !image.channels_last_input && image.c > einops::detail::kMaxOnePassShortAxis &&
                          image.c * static_cast<std::int64_t>(element_size) >= 64;
  if (takes_short_axis_kernel(image, copy)) {
    EXPECT_TRUE(short_axis || (line_merge && kernel == TileKernel::transpose)) << context;
  } else if (image.h * image.w > einops::detail::kMaxShortAxis) {
    EXPECT_FALSE(short_axis) << context;
  }
}

template <class Word>
std::vector<Word> input_of(const Copy& copy) {
  std::vector<Word> in(static_cast<std::size_t>(copy.in_size));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<Word>(i * 2654435761u + 7);
  return in;
}

template <class Word>
std::vector<Word> reference(const Copy& copy, const std::vector<Word>& in) {
  std::vector<Word> expected(static_cast<std::size_t>(copy.out_size), Word{0});
  std::vector<std::int64_t> index(copy.dims.size(), 0);
  std::int64_t total = 1;
  for (const Dim& d : copy.dims) total *= d.extent;
  for (std::int64_t n = 0; n < total; ++n) {
    std::int64_t i = copy.in_base, o = copy.out_base;
    for (std::size_t k = 0; k < copy.dims.size(); ++k) {
      i += index[k] * copy.dims[k].in_stride;
      o += index[k] * copy.dims[k].out_stride;
    }
    expected[static_cast<std::size_t>(o)] = in[static_cast<std::size_t>(i)];
    for (std::size_t k = copy.dims.size(); k-- > 0;) {
      if (++index[k] < copy.dims[k].extent) break;
      index[k] = 0;
    }
  }
  return expected;
}

/// copy_strided's result; the output buffer starts on a cache line, so out_base sets the alignment.
template <class Word>
std::vector<Word> run_copy(const Copy& copy, const std::vector<Word>& in) {
  std::vector<Word> buffer(static_cast<std::size_t>(copy.out_size) + 64, Word{0});
  std::size_t shift = 0;
  while (reinterpret_cast<std::uintptr_t>(buffer.data() + shift) % 64 != 0) ++shift;
  Word* out = buffer.data() + shift;
  einops::detail::copy_strided(sizeof(Word), in.data() + copy.in_base, out + copy.out_base, copy.walk());
  return std::vector<Word>(out, out + copy.out_size);
}

template <class Word>
void check(const Copy& copy, const std::string& context) {
  const std::vector<Word> in = input_of<Word>(copy);
  ASSERT_EQ(run_copy(copy, in), reference(copy, in)) << context;
}

void check_every_size(const Copy& copy, const std::string& context) {
  check<std::uint8_t>(copy, context + " u8");
  check<std::uint16_t>(copy, context + " u16");
  check<std::uint32_t>(copy, context + " u32");
  check<std::uint64_t>(copy, context + " u64");
}

std::string describe(const Image& image, Input input) {
  return std::string(image.channels_last_input ? "b h w c -> b c h w" : "b c h w -> b h w c") + " [" +
         std::to_string(image.b) + "," + std::to_string(image.h) + "," + std::to_string(image.w) + "," +
         std::to_string(image.c) + "] input layout " + std::to_string(static_cast<int>(input));
}

constexpr std::int64_t kOddLengths[] = {1, 2, 3, 5, 7, 31, 33, 63, 65, 127, 129};

TEST_P(EveryTarget, EveryShortAxisLengthBothDirections) {
  // Rows of 1 to 129 pixels (vector bodies, 128-bit tails, scalar tails), short axes 1 to 17.
  for (const bool channels_last_input : {true, false})
    for (std::int64_t c = 1; c <= 17; ++c)
      for (const std::int64_t w : kOddLengths) {
        const Image image{2, 3, w, c, channels_last_input};
        const Copy copy = image_copy(image, Input::dense);
        expect_kernel(image, copy, 4, describe(image, Input::dense));
        check_every_size(copy, describe(image, Input::dense));
        if (HasFatalFailure()) return;
      }
}

TEST_P(EveryTarget, RandomShapesAndLayouts) {
  std::mt19937_64 rng(20250131);
  constexpr Input kInputs[] = {Input::dense,           Input::padded_rows,   Input::reversed_outer,
                               Input::reversed_pixels, Input::padded_pixels, Input::reversed_channels};
  for (int trial = 0; trial < 300; ++trial) {
    const auto pick = [&] { return kOddLengths[rng() % std::size(kOddLengths)]; };
    Image image{pick(), pick(), pick(), 1 + static_cast<std::int64_t>(rng() % 17), rng() % 2 == 0};
    while (image.b * image.h * image.w * image.c > 60000)
      image.b = std::max<std::int64_t>(1, image.b / 2), image.h = (image.h + 1) / 2;
    const Input input = kInputs[rng() % std::size(kInputs)];
    const Copy copy = image_copy(image, input, static_cast<std::int64_t>(rng() % 3));
    const std::string context = "trial " + std::to_string(trial) + " " + describe(image, input);
    const std::size_t element_size = std::size_t{1} << (rng() % 4);
    expect_kernel(image, copy, element_size, context);
    switch (element_size) {
      case 1: check<std::uint8_t>(copy, context + " u8"); break;
      case 2: check<std::uint16_t>(copy, context + " u16"); break;
      case 4: check<std::uint32_t>(copy, context + " u32"); break;
      default: check<std::uint64_t>(copy, context + " u64"); break;
    }
    if (HasFatalFailure()) return;
  }
}

TEST_P(EveryTarget, StreamingStoresAtEveryStart) {
  // Outputs over the streaming threshold, starting on a cache line and 1 or 3 elements past one
  // (the kernels store scalar pixels up to the first vector-aligned one, or stream nothing).
  for (const bool channels_last_input : {true, false})
    for (const std::int64_t c : {2, 3, 4})
      for (const std::int64_t offset : {0, 1, 3}) {
        const Image image{1, 1024, 1024 + 5, c, channels_last_input};
        const Copy copy = image_copy(image, Input::dense, offset);
        EXPECT_TRUE(copy.schedule(4).stream);
        const std::string context = describe(image, Input::dense) + " output offset " + std::to_string(offset);
        check<std::uint32_t>(copy, context + " u32");
        if (c == 3)
          check<std::uint8_t>(image_copy(Image{3, 1024, 1024 + 5, c, channels_last_input}, Input::dense, offset),
                              context + " u8");
        if (HasFatalFailure()) return;
      }
}

INSTANTIATE_TEST_SUITE_P(ShortAxes, EveryTarget, ::testing::ValuesIn(einops::detail::simd_targets()), target_name);

TEST(ShortAxisKernels, ChosenForImageChannelsAndNamed) {
  for (const std::int64_t c : {2, 3, 4}) {
    const std::string channels = std::to_string(c);
    const Copy planar = image_copy(Image{64, 224, 224, c, true}, Input::dense);  // 12.8 MB and more in float16
    const Copy packed = image_copy(Image{64, 224, 224, c, false}, Input::dense);
    for (const std::size_t element_size : {1, 2, 4, 8}) {
      EXPECT_EQ(planar.schedule(element_size).kernel, TileKernel::split_short_axis);
      EXPECT_EQ(packed.schedule(element_size).kernel, TileKernel::merge_short_axis);
    }
    EXPECT_EQ(einops::detail::describe_copy(planar.walk(), 2),
              "deinterleave " + channels + " channels of whole rows (full vectors), non-temporal stores");
    EXPECT_EQ(einops::detail::describe_copy(packed.walk(), 4),
              "interleave " + channels + " rows into channels (full vectors), non-temporal stores");
  }
  // Sixteen float32 channels are a cache line: their merge keeps the line transposes.
  EXPECT_EQ(image_copy(Image{8, 224, 224, 16, false}, Input::dense).schedule(4).kernel, TileKernel::transpose);
  EXPECT_EQ(image_copy(Image{8, 224, 224, 16, false}, Input::dense).schedule(2).kernel, TileKernel::merge_short_axis);
  EXPECT_EQ(image_copy(Image{8, 224, 224, 16, true}, Input::dense).schedule(4).kernel, TileKernel::split_short_axis);
  // The pixel axis is one loop: with padded image rows, h is an outer loop of its own.
  const auto rows_apart = image_copy(Image{2, 5, 7, 3, true}, Input::padded_rows).schedule(4);
  EXPECT_EQ(rows_apart.kernel, TileKernel::split_short_axis);
  EXPECT_EQ(rows_apart.rows, 7);
  EXPECT_EQ(einops::detail::describe_copy(image_copy(Image{2, 5, 7, 3, true}, Input::dense).walk(), 4),
            "deinterleave 3 channels of whole rows (full vectors)");
}

TEST(ShortAxisKernels, ResultsAreBitIdenticalForAnyThreadCount) {
  const int before = einops::get_num_threads();
  // Above kShortAxisParallelMinBytes of traffic, so that the threads share the copy.
  for (const bool channels_last_input : {true, false}) {
    const Copy copy = image_copy(Image{9, 129, 257, 3, channels_last_input}, Input::padded_rows, 1);
    const std::vector<std::uint32_t> in = input_of<std::uint32_t>(copy);
    const std::vector<std::uint32_t> expected = reference(copy, in);
    for (const int threads : {1, 2, 3, 8}) {
      einops::set_num_threads(threads);
      EXPECT_EQ(run_copy(copy, in), expected) << threads << " threads";
    }
  }
  einops::set_num_threads(before);
}

TEST(ShortAxisKernels, PublicApiChannelsBothWays) {
  // Through rearrange_into on the built-in tensor, float32 and uint8, with 1 and 2 threads.
  const int before = einops::get_num_threads();
  for (const int threads : {1, 2}) {
    einops::set_num_threads(threads);
    const auto x = einops::Tensor<float>::arange({3, 37, 41, 3});
    const einops::Tensor<float> planes({3, 3, 37, 41});
    einops::rearrange_into(x, planes, "b h w c -> b c h w");
    const einops::Tensor<float> back({3, 37, 41, 3});
    einops::rearrange_into(planes, back, "b c h w -> b h w c");
    for (std::int64_t i = 0; i < 3 * 37 * 41 * 3; ++i) ASSERT_EQ(back.data()[i], x.data()[i]) << i;
    EXPECT_EQ(planes.data()[1 * 3 * 37 * 41 + 2 * 37 * 41 + 5 * 41 + 7], x.data()[((1 * 37 + 5) * 41 + 7) * 3 + 2]);
  }
  einops::set_num_threads(before);
}

}  // namespace
