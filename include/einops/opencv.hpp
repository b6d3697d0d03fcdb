// OpenCV adapter: every einops operation on cv::Mat (and cv::Mat_<T>), read in place, with
// results as cv::Mat.
//
//   #include <einops/opencv.hpp>
//   std::vector<cv::Mat> images = ...;                                 // CV_32FC3, h x w each
//   cv::Mat blob = einops::rearrange(images, "b h w c -> b c h w");    // cv::dnn::blobFromImages' blob
//   cv::Mat grid = einops::rearrange(batch, "(b1 b2) h w c -> (b1 h) (b2 w) c", {{"b1", 4}});
//   cv::imwrite("grid.png", grid);                                     // a 2-D 3-channel image
//
// Reading: a 2-D Mat is `h w c`, c its channels (`h w` when it has one); an n-dimensional Mat is
// its sizes, then its channels when it has several. Submatrices and ROIs are read through their
// steps, without a copy. A std::vector<cv::Mat> is a list input, stacked on a new leading axis.
//
// Results (cv::Mat, always a new matrix): a rank-3 result whose last axis has 1 to 4 elements,
// the channel counts images have, is a 2-D Mat with that many channels, so cv::imwrite and
// cv::imshow take it; a rank-2 result is a 2-D single-channel Mat; ranks 0 and 1, which OpenCV
// stores as 2-D, are a 1 x 1 and an n x 1 Mat; every other rank is an n-dimensional
// single-channel Mat. einops::opencv::as_image and as_array switch between the two forms of the
// same elements.
//
// Element types: OpenCV's depths 8U 8S 16U 16S 32S 32F 64F 16F are einops' uint8 int8 uint16
// int16 int32 float32 float64 float16. A result of a type OpenCV lacks (int64 from the sum of
// integers, bool from any/all) throws EinopsError naming what to do instead.
//
// Only this header includes OpenCV; link einops::opencv (Debian: libopencv-dev).
#pragma once

#include <opencv2/core.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "einops/backend.hpp"

namespace einops {
namespace detail::opencv {

/// OpenCV's CV_MAX_DIM: most dimensions a cv::Mat has.
inline constexpr std::size_t kMaxMatDims = 32;
/// The channel counts of images (gray, gray + alpha, BGR, BGRA): a rank-3 result whose last
/// axis is one of them comes back as a 2-D Mat with that many channels.
inline constexpr std::int64_t kMaxImageChannels = 4;

/// Lengths or strides of a Mat as einops reads them: its dimensions, then its channels.
class Lengths {
 public:
  void push_back(std::int64_t value) { values_[size_++] = value; }
  const std::int64_t* begin() const { return values_.data(); }
  const std::int64_t* end() const { return values_.data() + size_; }
  std::size_t size() const { return size_; }

 private:
  std::array<std::int64_t, kMaxMatDims + 1> values_{};
  std::size_t size_ = 0;
};

inline DType dtype_of_depth(int depth) {
  switch (depth) {
    case CV_8U: return DType::uint8;
    case CV_8S: return DType::int8;
    case CV_16U: return DType::uint16;
    case CV_16S: return DType::int16;
    case CV_32S: return DType::int32;
    case CV_32F: return DType::float32;
    case CV_64F: return DType::float64;
    case CV_16F: return DType::float16;
    default: throw EinopsError("einops: a cv::Mat of depth " + std::to_string(depth) + " has no einops element type");
  }
}

/// What to do instead when a result would hold `dtype`, which no cv::Mat holds.
inline std::string advice_for_missing(DType dtype) {
  switch (dtype) {
    case DType::int64:
    case DType::uint64:
      return "the sum and product of integers are " + std::string(dtype_name(dtype)) +
             " in einops, as in numpy: convert the input to CV_32F or CV_64F first (x.convertTo), or reduce "
             "einops::view(x) to get a built-in einops::AnyTensor";
    case DType::boolean:
      return "any and all give bool, as in numpy: on OpenCV's 0/255 masks use \"max\" (any) and \"min\" (all), or "
             "reduce einops::view(x) to get a built-in einops::AnyTensor";
    default: return "convert the tensor to an element type OpenCV has first, or keep it as a built-in einops::Tensor";
  }
}

inline int depth_of(DType dtype) {
  switch (dtype) {
    case DType::uint8: return CV_8U;
    case DType::int8: return CV_8S;
    case DType::uint16: return CV_16U;
    case DType::int16: return CV_16S;
    case DType::int32: return CV_32S;
    case DType::float32: return CV_32F;
    case DType::float64: return CV_64F;
    case DType::float16: return CV_16F;
    default:
      throw EinopsError("A cv::Mat cannot hold the result's " + std::string(dtype_name(dtype)) +
                        " elements (OpenCV's depths are 8U 8S 16U 16S 32S 32F 64F 16F): " + advice_for_missing(dtype) +
                        ".");
  }
}

/// A length as OpenCV's int, or EinopsError.
inline int mat_length(std::int64_t length) {
  if (length > INT_MAX)
    throw EinopsError("A cv::Mat dimension holds at most " + std::to_string(INT_MAX) + " elements, not " +
                      std::to_string(length));
  return static_cast<int>(length);
}

/// A new cv::Mat for a result of `shape` (the rule in this header's comment).
inline cv::Mat make_mat(DType dtype, std::span<const std::int64_t> shape) {
  const int depth = depth_of(dtype);
  if (shape.size() == 3 && shape[2] >= 1 && shape[2] <= kMaxImageChannels)
    return cv::Mat(mat_length(shape[0]), mat_length(shape[1]), CV_MAKETYPE(depth, static_cast<int>(shape[2])));
  if (shape.size() <= 1) return cv::Mat(shape.empty() ? 1 : mat_length(shape[0]), 1, depth);
  if (shape.size() > kMaxMatDims)
    throw EinopsError("A cv::Mat has at most " + std::to_string(kMaxMatDims) + " dimensions, the result has " +
                      std::to_string(shape.size()) + ": call the operation on einops::view(x) for a built-in tensor");
  std::array<int, kMaxMatDims> sizes{};
  for (std::size_t i = 0; i < shape.size(); ++i) sizes[i] = mat_length(shape[i]);
  return cv::Mat(static_cast<int>(shape.size()), sizes.data(), depth);
}

/// Mats are reference-counted headers; einops' list inputs and results are Mats, not Mat_<T>s.
template <class X>
concept mat = std::is_base_of_v<cv::Mat, X>;

}  // namespace detail::opencv

/// cv::Mat with the element type known at run time (docs/backends.md, way 1).
template <detail::opencv::mat X>
struct tensor_traits<X> {
  static DType dtype(const cv::Mat& m) { return detail::opencv::dtype_of_depth(m.depth()); }
  static const void* data(const cv::Mat& m) { return m.data; }
  static void* data(cv::Mat& m) { return m.data; }
  static detail::opencv::Lengths shape(const cv::Mat& m) {
    detail::opencv::Lengths lengths;
    if (m.dims == 0) {  // an empty Mat is OpenCV's 0 x 0 matrix
      lengths.push_back(0);
      lengths.push_back(0);
    }
    for (int i = 0; i < m.dims; ++i) lengths.push_back(m.size[i]);
    if (m.channels() > 1) lengths.push_back(m.channels());
    return lengths;
  }
  /// OpenCV's steps are in bytes, multiples of the element size (OpenCV checks that).
  static detail::opencv::Lengths strides(const cv::Mat& m) {
    const auto element = static_cast<std::int64_t>(m.elemSize1());
    detail::opencv::Lengths steps;
    if (m.dims == 0) {
      steps.push_back(0);
      steps.push_back(0);
    }
    for (int i = 0; i < m.dims; ++i) steps.push_back(static_cast<std::int64_t>(m.step[i]) / element);
    if (m.channels() > 1) steps.push_back(1);
    return steps;
  }
  static cv::Mat make(DType dtype, std::span<const std::int64_t> shape) {
    return detail::opencv::make_mat(dtype, shape);
  }
};

namespace opencv {

/// The elements of `m` read as `h w c` (a rank-3 single-channel Mat, or already an image) as a
/// 2-D Mat of c channels, sharing `m`'s memory when it is continuous (else a copy).
inline cv::Mat as_image(const cv::Mat& m) {
  if (m.dims == 2) return m;
  if (m.dims != 3 || m.channels() != 1 || m.size[2] > CV_CN_MAX)
    throw EinopsError("einops::opencv::as_image: the Mat must be 3-dimensional with one channel and at most " +
                      std::to_string(CV_CN_MAX) + " elements in its last dimension");
  const cv::Mat continuous = m.isContinuous() ? m : m.clone();
  return continuous.reshape(m.size[2], std::vector<int>{m.size[0], m.size[1]});
}

/// The elements of `m` as an n-dimensional single-channel Mat: a 2-D Mat of c channels becomes
/// `h w c` with c a dimension. Shares `m`'s memory when it is continuous (else a copy).
inline cv::Mat as_array(const cv::Mat& m) {
  if (m.channels() == 1) return m;
  std::vector<int> sizes(m.size.p, m.size.p + m.dims);
  sizes.push_back(m.channels());
  const cv::Mat continuous = m.isContinuous() ? m : m.clone();
  return continuous.reshape(1, sizes);
}

}  // namespace opencv
}  // namespace einops
