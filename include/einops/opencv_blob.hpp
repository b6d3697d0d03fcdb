// A batch of images to a network's input blob and back, in one pass each (docs/preprocess.md):
//
//   #include <einops/opencv_blob.hpp>
//   einops::opencv::BlobParams p{.scale = 1 / 255.0, .mean = {0.485, 0.456, 0.406},
//                                .std = {0.229, 0.224, 0.225}, .swap_rb = true};
//   cv::Mat blob = einops::opencv::blob(images, "b h w c -> b c h w", p);   // N x C x H x W, CV_32F
//   std::vector<cv::Mat> back = einops::opencv::images(blob, "b c h w -> b h w c", p, CV_8U);
//
// blob: per channel k of the blob, (pixel - mean[k]) * scale / std[k], with cv::dnn::blobFromImages'
// meaning of scale, mean and swap_rb (mean in the blob's channel order; swap_rb exchanges the
// first and third channels, and with 1 or 2 channels makes channel 0 take mean[2], as
// blobFromImages does); std is ones by default and follows mean's order. Each image is read as `h w c` (c its 1 to 4
// channels, one included), in place (ROIs too), and never modified. The pattern's last input axis
// is the channel axis. The arithmetic is blobFromImages' own, in float32: (pixel - mean) rounded,
// then times scale / std rounded (scale / std computed in double), so with std = 1 the blob equals
// blobFromImages' bit for bit. Inputs of depth 8U 8S 16U 16S 16F 32F; blob depth (p.depth) 32F,
// 16F, 8U or 8S (8U/8S: nearest even, saturated).
//
// images: the inverse map, value * std[k] / scale + mean[k], into images of `depth` (8U by
// default: nearest even, saturated; NaN gives 0), swap_rb undone. The pattern's last output axis
// is the channel axis; its output must be `b h w c`-shaped (c of 1 to 4). The images share one
// allocation.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "einops/convert.hpp"
#include "einops/opencv.hpp"
#include "einops/plan.hpp"

namespace einops::opencv {

/// cv::dnn::blobFromImages' parameters (scalefactor, mean, swapRB, ddepth) and a per-channel
/// standard deviation.
struct BlobParams {
  double scale = 1.0;
  cv::Scalar mean = cv::Scalar();
  cv::Scalar std = cv::Scalar::all(1.0);
  bool swap_rb = false;
  int depth = CV_32F;
};

namespace detail_blob {

/// Most channels an image has (gray, gray + alpha, BGR, BGRA).
inline constexpr int kMaxChannels = 4;

/// The name of the last axis of one side of `pattern` (`left`: the input side), which must stand
/// alone as a named axis: the channel axis of blob and images.
inline std::string channel_axis(std::string_view pattern, bool left, const char* call) {
  const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(pattern);
  const Expression* side = parsed.ok() ? (left ? &parsed.value.left : &parsed.value.right) : nullptr;
  if (side == nullptr || side->groups.empty() || side->groups.back().parenthesized ||
      side->groups.back().axes.size() != 1 || side->groups.back().axes[0].kind != AxisKind::named)
    throw EinopsError(std::string("einops::opencv::") + call + ": the last " + (left ? "input" : "output") +
                      " axis of the pattern must be a named axis, the channels (\"" + std::string(pattern) + "\")");
  return side->groups.back().axes[0].name.str();
}

/// blobFromImages' channel order: with swap_rb (3 or 4 channels) position k reads channel order[k].
inline std::vector<int> channel_order(int channels, bool swap_rb) {
  std::vector<int> order(static_cast<std::size_t>(channels));
  for (int k = 0; k < channels; ++k) order[static_cast<std::size_t>(k)] = k;
  if (swap_rb && channels >= 3) std::swap(order[0], order[2]);
  return order;
}

/// The entry of mean and std that blob channel k takes: k, except that with swap_rb and fewer
/// than 3 channels, channel 0 takes entry 2 (blobFromImages exchanges the scalars' first and third
/// entries whatever the channel count, and the channels themselves only from 3 channels on).
inline int parameter_index(int k, int channels, bool swap_rb) { return swap_rb && channels < 3 && k == 0 ? 2 : k; }

/// A 2-D Mat of 1 to 4 channels as `h w c` (strides in elements, its step for the rows).
struct ImageRef {
  std::array<std::int64_t, 3> shape;
  std::array<std::int64_t, 3> strides;
  einops::detail::TensorRef ref(const cv::Mat& m) const {
    return {einops::detail::opencv::dtype_of_depth(m.depth()), m.data, shape, strides};
  }
};

inline ImageRef image_ref(const cv::Mat& m) {
  const auto element = static_cast<std::int64_t>(m.elemSize1());
  return {{m.rows, m.cols, m.channels()}, {static_cast<std::int64_t>(m.step[0]) / element, m.channels(), 1}};
}

}  // namespace detail_blob

/// The blob of `images` into `out` (see the header's comment): one pass, inputs read in place.
/// `out` is reallocated only when its shape or depth is not the blob's (cv::Mat::create's rule),
/// so a loop over batches reuses one blob and its pages.
inline void blob_into(const std::vector<cv::Mat>& images, cv::Mat& out,
                      const rearrange_pattern<>& pattern = "b h w c -> b c h w", const BlobParams& p = {}) {
  if (images.empty()) throw EinopsError("einops::opencv::blob: no images");
  const cv::Mat& first = images.front();
  const int channels = first.channels();
  for (const cv::Mat& image : images)
    if (image.dims != 2 || image.type() != first.type() || image.size() != first.size() ||
        channels > detail_blob::kMaxChannels)
      throw EinopsError("einops::opencv::blob: the images must be 2-D, of one size and one type, with 1 to 4 channels");
  const std::string axis = detail_blob::channel_axis(pattern.text(), true, "blob");
  std::vector<detail_blob::ImageRef> shapes;
  std::vector<einops::detail::TensorRef> refs;
  shapes.reserve(images.size());
  for (const cv::Mat& image : images) shapes.push_back(detail_blob::image_ref(image));
  for (std::size_t i = 0; i < images.size(); ++i) refs.push_back(shapes[i].ref(images[i]));

  // (x - mean[k]) * (scale / std[k]) for blob channel k.
  std::vector<float> scale, offset;
  for (int k = 0; k < channels; ++k) {
    const int entry = detail_blob::parameter_index(k, channels, p.swap_rb);
    scale.push_back(static_cast<float>(p.scale / p.std[entry]));
    offset.push_back(static_cast<float>(-p.mean[entry]));
  }
  const std::vector<int> order = detail_blob::channel_order(channels, p.swap_rb);
  einops::detail::ConvertRef map;
  map.scale = scale;
  map.offset = offset;
  map.offset_first = true;
  map.axis = axis;
  map.axis_order = order;

  Shape stacked{static_cast<std::int64_t>(images.size())};
  stacked.insert(stacked.end(), shapes[0].shape.begin(), shapes[0].shape.end());
  const auto plan = get_plan(Operation::rearrange, std::nullopt, pattern.ref(), stacked, {});
  const DType out_type = einops::detail::opencv::dtype_of_depth(p.depth);
  const auto out_shape = tensor_traits<cv::Mat>::shape(out);
  if (out.empty() || out.depth() != p.depth || !out.isContinuous() ||
      !std::equal(out_shape.begin(), out_shape.end(), plan->output_shape.begin(), plan->output_shape.end()))
    out = einops::detail::opencv::make_mat(out_type, plan->output_shape);
  const Shape strides = einops::detail::row_major_strides(plan->output_shape);
  einops::detail::rearrange_into(refs, einops::detail::TensorRef(out_type, out.data, plan->output_shape, strides),
                                 pattern.ref(), map, {});
}

/// The blob of `images` as a new Mat.
inline cv::Mat blob(const std::vector<cv::Mat>& images, const rearrange_pattern<>& pattern = "b h w c -> b c h w",
                    const BlobParams& p = {}) {
  cv::Mat out;
  blob_into(images, out, pattern, p);
  return out;
}

/// The images of a blob (see the header's comment): one pass, saturating to `depth`.
inline std::vector<cv::Mat> images(const cv::Mat& blob, const rearrange_pattern<>& pattern = "b c h w -> b h w c",
                                   const BlobParams& p = {}, int depth = CV_8U) {
  const std::string axis = detail_blob::channel_axis(pattern.text(), false, "images");
  const auto in_shape = tensor_traits<cv::Mat>::shape(blob);
  const auto in_strides = tensor_traits<cv::Mat>::strides(blob);
  const std::span<const std::int64_t> shape(in_shape.begin(), in_shape.size());
  const auto plan = get_plan(Operation::rearrange, std::nullopt, pattern.ref(), shape, {});
  const Shape& out_shape = plan->output_shape;
  if (out_shape.size() != 4 || out_shape[3] < 1 || out_shape[3] > detail_blob::kMaxChannels)
    throw EinopsError("einops::opencv::images: the pattern's output must be b h w c with 1 to 4 channels, not " +
                      einops::detail::format_shape(out_shape));
  const int channels = static_cast<int>(out_shape[3]);
  // Image channel j holds blob channel order[j]: value * std / scale + mean of that channel.
  const std::vector<int> order = detail_blob::channel_order(channels, p.swap_rb);
  std::vector<float> scale, offset;
  for (int j = 0; j < channels; ++j) {
    const int k = detail_blob::parameter_index(order[static_cast<std::size_t>(j)], channels, p.swap_rb);
    scale.push_back(static_cast<float>(p.std[k] / p.scale));
    offset.push_back(static_cast<float>(p.mean[k]));
  }
  einops::detail::ConvertRef map;
  map.scale = scale;
  map.offset = offset;
  map.axis = axis;
  map.axis_order = order;
  const DType out_type = einops::detail::opencv::dtype_of_depth(depth);
  const int rows = einops::detail::opencv::mat_length(out_shape[0] * out_shape[1]);
  cv::Mat all(rows, einops::detail::opencv::mat_length(out_shape[2]), CV_MAKETYPE(depth, channels));
  const Shape strides = einops::detail::row_major_strides(out_shape);
  einops::detail::rearrange_into(
      einops::detail::TensorRef(einops::detail::opencv::dtype_of_depth(blob.depth()), blob.data, shape,
                                std::span<const std::int64_t>(in_strides.begin(), in_strides.size())),
      einops::detail::TensorRef(out_type, all.data, out_shape, strides), pattern.ref(), map, {});
  std::vector<cv::Mat> result;
  const auto height = static_cast<int>(out_shape[1]);
  for (std::int64_t i = 0; i < out_shape[0]; ++i)
    result.push_back(all.rowRange(static_cast<int>(i) * height, static_cast<int>(i + 1) * height));
  return result;
}

}  // namespace einops::opencv
