// The README's OpenCV section: an image read with cv::imread becomes a normalised NCHW float
// batch in one call (layout, conversion, per-channel mean and std, BGR -> RGB), that batch
// becomes ViT-style patches, the blob goes back to uint8 images, and a grid of the batch is
// written with cv::imwrite. Every einops call reads and returns cv::Mat.
//
//   opencv_preprocess INPUT.png OUTPUT.png
#include <einops/opencv.hpp>
#include <einops/opencv_blob.hpp>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace einops::literals;

namespace {

/// ImageNet's per-channel mean and standard deviation of pixels in [0, 1], in RGB order: the
/// blob's order once swap_rb has turned OpenCV's BGR around.
const cv::Scalar kMean(0.485, 0.456, 0.406);
const cv::Scalar kStd(0.229, 0.224, 0.225);
/// One float rounding of the values here (|value| < 3): the blob's arithmetic order differs
/// from the check's.
constexpr double kTolerance = 1e-6;
/// The side of a square patch, in pixels (the input's sides are multiples of it).
constexpr int kPatch = 16;

int fail(const char* what) {
  std::fprintf(stderr, "opencv_preprocess: %s\n", what);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return fail("usage: opencv_preprocess INPUT.png OUTPUT.png");
  const cv::Mat image = cv::imread(argv[1], cv::IMREAD_COLOR);  // h x w, CV_8UC3
  if (image.empty()) return fail("cannot read the input image");

  // A batch of four views of the image: as read, and flipped three ways.
  std::vector<cv::Mat> views(4);
  views[0] = image;
  cv::flip(image, views[1], 1);
  cv::flip(image, views[2], 0);
  cv::flip(image, views[3], -1);

  // One pass: uint8 BGR b h w c -> float RGB b c h w, (pixel / 255 - mean) / std per channel.
  const einops::opencv::BlobParams params{.scale = 1.0 / 255.0, .mean = kMean * 255.0, .std = kStd, .swap_rb = true};
  const cv::Mat blob = einops::opencv::blob(views, "b h w c -> b c h w", params);
  std::printf("blob: %d x %d x %d x %d, float32\n", blob.size[0], blob.size[1], blob.size[2], blob.size[3]);
  // Blob channel 0 is red, the image's channel 2.
  const int red_corner[] = {0, 0, 0, 0};
  const double expected = (image.at<cv::Vec3b>(0, 0)[2] / 255.0 - kMean[0]) / kStd[0];
  if (std::abs(blob.at<float>(red_corner) - expected) > kTolerance) return fail("the blob is not normalised");

  // ViT patches: each image a sequence of flattened 16 x 16 patches.
  const cv::Mat patches =
      einops::rearrange<"b c (h p1) (w p2) -> b (h w) (c p1 p2)">(blob, "p1"_ax = kPatch, "p2"_ax = kPatch);
  std::printf("patches: %d x %d x %d\n", patches.size[0], patches.size[1], patches.size[2]);
  const int expected_patches = (image.rows / kPatch) * (image.cols / kPatch);
  if (patches.dims != 3 || patches.size[1] != expected_patches || patches.size[2] != 3 * kPatch * kPatch)
    return fail("unexpected patch tensor");
  // The first patch of the first image, back to 16 x 16 x 3: the normalised top-left corner.
  const cv::Mat first = einops::rearrange<"b n (c p1 p2) -> b n p1 p2 c">(patches, "c"_ax = 3, "p1"_ax = kPatch);
  const int corner[] = {0, 0, 0, 0, 0};
  if (first.at<float>(corner) != blob.at<float>(red_corner)) return fail("patches do not match the blob");

  // And back: the blob to uint8 BGR images (the inverse map, rounded and saturated).
  const std::vector<cv::Mat> restored = einops::opencv::images(blob, "b c h w -> b h w c", params);
  for (std::size_t i = 0; i < views.size(); ++i)
    if (cv::norm(restored[i], views[i], cv::NORM_INF) != 0) return fail("the images did not survive the blob");

  // A 2 x 2 grid of the batch: a 2-D 3-channel Mat, which cv::imwrite takes as it is.
  const cv::Mat grid = einops::rearrange<"(b1 b2) h w c -> (b1 h) (b2 w) c">(views, "b1"_ax = 2);
  std::printf("grid: %d x %d, %d channels\n", grid.rows, grid.cols, grid.channels());
  if (grid.dims != 2 || grid.type() != CV_8UC3) return fail("the grid is not an image");
  if (!cv::imwrite(argv[2], grid)) return fail("cannot write the grid");
  const cv::Mat written = cv::imread(argv[2], cv::IMREAD_COLOR);
  if (written.size() != grid.size() || cv::norm(written, grid, cv::NORM_INF) != 0)
    return fail("the grid did not survive PNG");
  std::printf("wrote %s\n", argv[2]);
  return 0;
}
