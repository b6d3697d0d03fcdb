// einops/opencv_blob.hpp: the blob equals cv::dnn::blobFromImages bit for bit for every parameter
// blobFromImages has (CV_8U and CV_32F images, scale, mean, swap_rb, 1/3/4 channels, ROIs),
// a per-channel std and 2-channel images match the same arithmetic written out here, inputs are
// never modified, and images() inverts blob() with saturation.
#include <einops/opencv_blob.hpp>
#include <gtest/gtest.h>

#ifdef EINOPS_TEST_OPENCV_DNN
#include <opencv2/dnn.hpp>
#endif

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

using einops::opencv::BlobParams;

bool same_bytes(const cv::Mat& a, const cv::Mat& b) {
  if (a.type() != b.type() || a.dims != b.dims || a.total() != b.total()) return false;
  for (int d = 0; d < a.dims; ++d)
    if (a.size[d] != b.size[d]) return false;
  const cv::Mat ca = a.isContinuous() ? a : a.clone(), cb = b.isContinuous() ? b : b.clone();
  return std::memcmp(ca.data, cb.data, ca.total() * ca.elemSize()) == 0;
}

/// `count` random images of `type`, each an ROI (offset by one pixel) of a larger Mat when `roi`.
std::vector<cv::Mat> random_images(int count, int type, bool roi, unsigned seed) {
  cv::RNG rng(seed);
  std::vector<cv::Mat> images;
  for (int i = 0; i < count; ++i) {
    cv::Mat parent(21, 35, type);
    if (CV_MAT_DEPTH(type) == CV_8U) rng.fill(parent, cv::RNG::UNIFORM, 0, 256);
    else rng.fill(parent, cv::RNG::UNIFORM, -300.0, 300.0);
    images.push_back(roi ? parent(cv::Rect(1, 2, 33, 17)) : parent);
  }
  return images;
}

std::vector<cv::Mat> clones(const std::vector<cv::Mat>& images) {
  std::vector<cv::Mat> out;
  for (const cv::Mat& image : images) out.push_back(image.clone());
  return out;
}

bool unchanged(const std::vector<cv::Mat>& images, const std::vector<cv::Mat>& copies) {
  for (std::size_t i = 0; i < images.size(); ++i)
    if (!same_bytes(images[i], copies[i])) return false;
  return true;
}

/// The blob by the arithmetic stated in opencv_blob.hpp, element by element.
cv::Mat reference_blob(const std::vector<cv::Mat>& images, const BlobParams& p) {
  const int n = static_cast<int>(images.size()), c = images[0].channels(), h = images[0].rows, w = images[0].cols;
  const int sizes[] = {n, c, h, w};
  cv::Mat blob(4, sizes, CV_32F);
  for (int i = 0; i < n; ++i) {
    cv::Mat image;
    images[static_cast<std::size_t>(i)].convertTo(image, CV_MAKETYPE(CV_32F, c));
    for (int k = 0; k < c; ++k) {
      const int source = p.swap_rb && c >= 3 && (k == 0 || k == 2) ? 2 - k : k;
      const int entry = p.swap_rb && c < 3 && k == 0 ? 2 : k;  // blobFromImages swaps the scalars regardless
      const float mean = static_cast<float>(p.mean[entry]), scale = static_cast<float>(p.scale / p.std[entry]);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const float shifted = image.ptr<float>(y)[x * c + source] - mean;
          const int index[] = {i, k, y, x};
          blob.at<float>(index) = shifted * scale;
        }
    }
  }
  return blob;
}

struct BlobCase {
  int depth;
  int channels;
  bool roi;
  BlobParams params;
};

std::vector<BlobCase> blob_cases() {
  std::vector<BlobCase> cases;
  for (int depth : {CV_8U, CV_32F})
    for (int channels : {1, 3, 4})
      for (bool roi : {false, true})
        for (bool swap : {false, true}) {
          cases.push_back({depth, channels, roi, BlobParams{.swap_rb = swap}});
          cases.push_back(
              {depth, channels, roi,
               BlobParams{.scale = 1 / 255.0, .mean = cv::Scalar(103.94, 116.78, 123.68, 7.5), .swap_rb = swap}});
          cases.push_back(
              {depth, channels, roi, BlobParams{.scale = 0.017, .mean = cv::Scalar(-3.25, 0.5, 1e3), .swap_rb = swap}});
        }
  return cases;
}

std::string describe(const BlobCase& c) {
  return "depth " + std::to_string(c.depth) + ", " + std::to_string(c.channels) + " channels" + (c.roi ? ", ROI" : "") +
         ", scale " + std::to_string(c.params.scale) + ", mean " + std::to_string(c.params.mean[0]) +
         (c.params.swap_rb ? ", swap_rb" : "");
}

TEST(OpenCVBlob, EqualsBlobFromImagesBitForBit) {
  unsigned seed = 1;
  for (const BlobCase& c : blob_cases()) {
    SCOPED_TRACE(describe(c));
    const std::vector<cv::Mat> images = random_images(3, CV_MAKETYPE(c.depth, c.channels), c.roi, seed++);
    const std::vector<cv::Mat> before = clones(images);
    const cv::Mat blob = einops::opencv::blob(images, "b h w c -> b c h w", c.params);
    EXPECT_TRUE(unchanged(images, before));
    EXPECT_TRUE(same_bytes(blob, reference_blob(images, c.params)));
#ifdef EINOPS_TEST_OPENCV_DNN
    // blobFromImages (OpenCV 4.6) subtracts and scales CV_32F inputs in place: it gets copies.
    const cv::Mat expected = cv::dnn::blobFromImages(clones(images), c.params.scale, cv::Size(), c.params.mean,
                                                     c.params.swap_rb, false, CV_32F);
    EXPECT_TRUE(same_bytes(blob, expected));
#endif
  }
#ifndef EINOPS_TEST_OPENCV_DNN
  GTEST_SKIP() << "cv::dnn is not built here: compared with the reference only";
#endif
}

TEST(OpenCVBlob, StandardDeviationAndTwoChannels) {
  const BlobParams p{.scale = 1 / 255.0,
                     .mean = cv::Scalar(0.485, 0.456, 0.406) * 255.0,
                     .std = cv::Scalar(0.229, 0.224, 0.225, 0.5),
                     .swap_rb = true};
  for (int channels : {2, 3, 4}) {
    const std::vector<cv::Mat> images =
        random_images(2, CV_MAKETYPE(CV_8U, channels), true, 40u + static_cast<unsigned>(channels));
    EXPECT_TRUE(same_bytes(einops::opencv::blob(images, "b h w c -> b c h w", p), reference_blob(images, p)))
        << channels;
  }
}

TEST(OpenCVBlob, OtherLayoutsAndDepths) {
  const std::vector<cv::Mat> images = random_images(2, CV_8UC3, false, 9);
  const BlobParams p{.scale = 2.0, .mean = cv::Scalar(10, 20, 30)};
  const cv::Mat planar = einops::opencv::blob(images, "b h w c -> b c h w", p);
  // Channels last, float32: the same values in the other layout.
  const cv::Mat last = einops::opencv::blob(images, "b h w c -> b h w c", p);
  EXPECT_TRUE(same_bytes(einops::rearrange(last, "b h w c -> b c h w"), planar));
  // A float16 blob: the float32 blob narrowed once.
  const cv::Mat half = einops::opencv::blob(images, "b h w c -> b c h w",
                                            BlobParams{.scale = 2.0, .mean = cv::Scalar(10, 20, 30), .depth = CV_16F});
  cv::Mat narrowed;
  planar.convertTo(narrowed, CV_16F);
  EXPECT_TRUE(same_bytes(half, narrowed));
  EXPECT_THROW(einops::opencv::blob(images, "b h w (c) -> b c h w", p), einops::EinopsError);
  EXPECT_THROW(einops::opencv::blob({}, "b h w c -> b c h w", p), einops::EinopsError);
}

TEST(OpenCVBlob, ImagesInvertTheBlobWithSaturation) {
  const BlobParams p{.scale = 1 / 255.0,
                     .mean = cv::Scalar(0.485, 0.456, 0.406, 0.5) * 255.0,
                     .std = cv::Scalar(0.229, 0.224, 0.225, 0.25),
                     .swap_rb = true};
  for (int channels : {1, 3, 4}) {
    SCOPED_TRACE(channels);
    const std::vector<cv::Mat> images =
        random_images(3, CV_MAKETYPE(CV_8U, channels), true, 70u + static_cast<unsigned>(channels));
    const cv::Mat blob = einops::opencv::blob(images, "b h w c -> b c h w", p);
    const cv::Mat blob_before = blob.clone();
    const std::vector<cv::Mat> back = einops::opencv::images(blob, "b c h w -> b h w c", p);
    EXPECT_TRUE(same_bytes(blob, blob_before));
    ASSERT_EQ(back.size(), images.size());
    for (std::size_t i = 0; i < images.size(); ++i) EXPECT_TRUE(same_bytes(back[i], images[i].clone()));
  }
  // Out-of-range values saturate; NaN gives 0.
  const int sizes[] = {1, 3, 1, 4};
  cv::Mat blob(4, sizes, CV_32F);
  const float values[] = {-1e9f, -0.6f, 0.5f, 1e9f, 1.5f, 2.5f, 254.5f, 255.5f, NAN, 0.0f, 3.0f, -3.0f};
  std::memcpy(blob.data, values, sizeof(values));
  const std::vector<cv::Mat> images = einops::opencv::images(blob, "b c h w -> b h w c", BlobParams{});
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0].type(), CV_8UC3);
  const cv::Vec3b* row = images[0].ptr<cv::Vec3b>(0);
  EXPECT_EQ(row[0], cv::Vec3b(0, 2, 0));
  EXPECT_EQ(row[1], cv::Vec3b(0, 2, 0));
  EXPECT_EQ(row[2], cv::Vec3b(0, 254, 3));
  EXPECT_EQ(row[3], cv::Vec3b(255, 255, 0));
}

}  // namespace
