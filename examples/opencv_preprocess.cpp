// The README's OpenCV section: an image read with cv::imread becomes a normalised NCHW float
// batch, that batch becomes ViT-style patches, and a grid of the batch is written with
// cv::imwrite. Every einops call reads and returns cv::Mat.
//
//   opencv_preprocess INPUT.png OUTPUT.png
#include <einops/opencv.hpp>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cstdio>
#include <vector>

using namespace einops::literals;

namespace {

/// ImageNet's per-channel mean and standard deviation, in OpenCV's BGR order.
const cv::Scalar kMean(0.406, 0.456, 0.485);
const cv::Scalar kStd(0.225, 0.224, 0.229);
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

  // Normalised float images (OpenCV's own arithmetic), then one NCHW blob, as a network takes it.
  std::vector<cv::Mat> normalised;
  for (const cv::Mat& view : views) {
    cv::Mat scaled;
    view.convertTo(scaled, CV_32FC3, 1.0 / 255.0);
    cv::Mat centred;
    cv::subtract(scaled, kMean, centred);
    cv::Mat unit;
    cv::divide(centred, kStd, unit);
    normalised.push_back(unit);
  }
  const cv::Mat blob = einops::rearrange<"b h w c -> b c h w">(normalised);
  std::printf("blob: %d x %d x %d x %d, float32\n", blob.size[0], blob.size[1], blob.size[2], blob.size[3]);

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
  if (first.at<float>(corner) != normalised[0].at<cv::Vec3f>(0, 0)[0]) return fail("patches do not match the image");

  // A 2 x 2 grid of the batch: a 2-D 3-channel Mat, which cv::imwrite takes as it is.
  const cv::Mat grid = einops::rearrange<"(b1 b2) h w c -> (b1 h) (b2 w) c">(views, "b1"_ax = 2);
  std::printf("grid: %d x %d, %d channels\n", grid.rows, grid.cols, grid.channels());
  if (grid.dims != 2 || grid.type() != CV_8UC3) return fail("the grid is not an image");
  if (!cv::imwrite(argv[2], grid)) return fail("cannot write the grid");
  const cv::Mat written = cv::imread(argv[2], cv::IMREAD_COLOR);
  if (written.size() != grid.size() || cv::norm(written, grid, cv::NORM_INF) != 0) return fail("the grid did not survive PNG");
  std::printf("wrote %s\n", argv[2]);
  return 0;
}
