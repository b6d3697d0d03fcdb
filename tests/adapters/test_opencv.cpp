// einops/opencv.hpp: how a cv::Mat reads (channels, n-d, ROIs in place, lists), which Mat a
// result is (images, n-d arrays, ranks 0 and 1), every OpenCV depth, the types OpenCV lacks, and
// the blob of cv::dnn::blobFromImages bit for bit where cv::dnn is built.
#include <einops/opencv.hpp>
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#ifdef EINOPS_TEST_OPENCV_DNN
#include <opencv2/dnn.hpp>
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

using einops::DType;
using einops::EinopsError;
using einops::Shape;

Shape shape_of(const cv::Mat& m) {
  const auto lengths = einops::tensor_traits<cv::Mat>::shape(m);
  return Shape(lengths.begin(), lengths.end());
}

/// A float32 Mat of `rows` x `cols` x `type` holding 0, 1, 2, ... in memory order.
cv::Mat counting(int rows, int cols, int type) {
  cv::Mat m(rows, cols, type);
  float* values = m.ptr<float>();
  for (std::size_t i = 0; i < m.total() * static_cast<std::size_t>(m.channels()); ++i)
    values[i] = static_cast<float>(i);
  return m;
}

/// The elements of any Mat as floats, in einops' row-major order of its shape.
std::vector<float> values(const cv::Mat& m) {
  cv::Mat f;
  m.convertTo(f, CV_32F);
  return einops::view(f).as<float>().to_vector();
}

bool same_bytes(const cv::Mat& a, const cv::Mat& b) {
  if (a.type() != b.type() || a.dims != b.dims || !a.isContinuous() || !b.isContinuous()) return false;
  for (int i = 0; i < a.dims; ++i)
    if (a.size[i] != b.size[i]) return false;
  return std::memcmp(a.data, b.data, a.total() * a.elemSize()) == 0;
}

TEST(OpenCVReading, ChannelsAreTheLastAxis) {
  EXPECT_EQ(shape_of(cv::Mat(4, 5, CV_32FC3)), (Shape{4, 5, 3}));
  EXPECT_EQ(shape_of(cv::Mat(4, 5, CV_8UC1)), (Shape{4, 5}));
  const int sizes[] = {2, 3, 4, 5};
  EXPECT_EQ(shape_of(cv::Mat(4, sizes, CV_32F)), (Shape{2, 3, 4, 5}));
  EXPECT_EQ(shape_of(cv::Mat(3, sizes, CV_16SC2)), (Shape{2, 3, 4, 2}));
  EXPECT_EQ(shape_of(cv::Mat()), (Shape{0, 0}));
}

TEST(OpenCVReading, RoisAreReadThroughTheirStepsWithoutACopy) {
  const cv::Mat whole = counting(6, 8, CV_32FC3);
  const cv::Mat roi = whole(cv::Rect(2, 1, 3, 4));  // x, y, width, height
  const einops::AnyTensor view = einops::view(roi);
  EXPECT_EQ(view.data(), static_cast<void*>(roi.data));
  EXPECT_EQ(Shape(view.strides().begin(), view.strides().end()), (Shape{24, 3, 1}));
  const cv::Mat y = einops::rearrange(roi, "h w c -> c h w");
  ASSERT_EQ(shape_of(y), (Shape{3, 4, 3}));  // rank 3, last axis 3: an image-shaped result
  // Element (c, h, w) of y is whole's (1 + h, 2 + w, c).
  const std::vector<float> got = values(y);
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 4; ++h)
      for (int w = 0; w < 3; ++w)
        EXPECT_EQ(got[static_cast<std::size_t>((c * 4 + h) * 3 + w)], whole.at<cv::Vec3f>(1 + h, 2 + w)[c]);
}

TEST(OpenCVReading, AVectorOfMatsIsAList) {
  std::vector<cv::Mat> images{counting(2, 3, CV_32FC3), counting(2, 3, CV_32FC3) + cv::Scalar::all(100)};
  const cv::Mat stacked = einops::rearrange(images, "b h w c -> b c h w");
  EXPECT_EQ(shape_of(stacked), (Shape{2, 3, 2, 3}));
  EXPECT_EQ(stacked.dims, 4);
  const int index[] = {1, 2, 1, 0};  // b c h w
  EXPECT_EQ(stacked.at<float>(index), images[1].at<cv::Vec3f>(1, 0)[2]);
}

TEST(OpenCVResults, TheCanonicalBlobIsBlobFromImages) {
  std::vector<cv::Mat> images;
  for (int i = 0; i < 3; ++i) {
    cv::Mat image(7, 5, CV_32FC3);
    cv::randu(image, cv::Scalar::all(-1000), cv::Scalar::all(1000));
    images.push_back(image);
  }
  cv::Mat blob = einops::rearrange(images, "b h w c -> b c h w");
  EXPECT_EQ(blob.dims, 4);
  EXPECT_EQ(blob.type(), CV_32F);
#ifdef EINOPS_TEST_OPENCV_DNN
  const cv::Mat expected = cv::dnn::blobFromImages(images, 1.0, cv::Size(), cv::Scalar(), false, false, CV_32F);
  EXPECT_TRUE(same_bytes(blob, expected));
#else
  GTEST_SKIP() << "cv::dnn is not built here";
#endif
}

TEST(OpenCVResults, AGridOfABatchIsAnImage) {
  std::vector<cv::Mat> batch;
  for (int i = 0; i < 16; ++i) batch.push_back(cv::Mat(8, 6, CV_8UC3, cv::Scalar(i, 10 * i, 255 - i)));
  const cv::Mat grid = einops::rearrange(batch, "(b1 b2) h w c -> (b1 h) (b2 w) c", {{"b1", 4}});
  EXPECT_EQ(grid.dims, 2);
  EXPECT_EQ(grid.type(), CV_8UC3);
  EXPECT_EQ(grid.rows, 32);
  EXPECT_EQ(grid.cols, 24);
  EXPECT_EQ(grid.at<cv::Vec3b>(8 * 2 + 3, 6 * 1 + 5), (cv::Vec3b(9, 90, 246)));  // image 2 * 4 + 1
  const std::string path = testing::TempDir() + "einops_opencv_grid.png";
  ASSERT_TRUE(cv::imwrite(path, grid));
  EXPECT_TRUE(same_bytes(cv::imread(path, cv::IMREAD_COLOR), grid));
}

TEST(OpenCVResults, EachRankHasItsForm) {
  const int sizes[] = {2, 3, 4, 5};
  cv::Mat x(4, sizes, CV_32F);
  cv::randu(x, 0, 1);
  const cv::Mat nd = einops::rearrange(x, "a b c d -> d c b a");
  EXPECT_EQ(nd.dims, 4);
  EXPECT_EQ(nd.channels(), 1);
  const cv::Mat wide = einops::rearrange(x, "a b c d -> (a c) d b");  // rank 3, last axis 3
  EXPECT_EQ(wide.dims, 2);
  EXPECT_EQ(wide.channels(), 3);
  const cv::Mat long_last = einops::rearrange(x, "a b c d -> (a b) c d");  // last axis 5: no image
  EXPECT_EQ(long_last.dims, 3);
  EXPECT_EQ(shape_of(long_last), (Shape{6, 4, 5}));
  const cv::Mat one_channel = einops::rearrange(x, "a b c d -> (a b c) d 1");
  EXPECT_EQ(one_channel.dims, 2);
  EXPECT_EQ(one_channel.channels(), 1);
  EXPECT_EQ(shape_of(one_channel), (Shape{24, 5}));
  const cv::Mat flat = einops::rearrange(x, "a b c d -> (a b c d)");  // rank 1: n x 1
  EXPECT_EQ(shape_of(flat), (Shape{120, 1}));
  EXPECT_EQ(values(flat), values(x));
  const cv::Mat total = einops::reduce(x, "a b c d ->", "sum");  // rank 0: 1 x 1
  EXPECT_EQ(shape_of(total), (Shape{1, 1}));
  EXPECT_NEAR(total.at<float>(0, 0), static_cast<float>(cv::sum(x)[0]), 1e-2);
}

TEST(OpenCVResults, AsImageAndAsArraySwitchForms) {
  const int sizes[] = {4, 6, 3};
  cv::Mat array(3, sizes, CV_32F);
  cv::randu(array, 0, 1);
  const cv::Mat image = einops::opencv::as_image(array);
  EXPECT_EQ(image.dims, 2);
  EXPECT_EQ(image.type(), CV_32FC3);
  EXPECT_EQ(static_cast<void*>(image.data), static_cast<void*>(array.data));  // the same memory
  const cv::Mat again = einops::opencv::as_array(image);
  EXPECT_EQ(again.dims, 3);
  EXPECT_EQ(static_cast<void*>(again.data), static_cast<void*>(array.data));
  EXPECT_EQ(shape_of(again), shape_of(image));
  EXPECT_THROW((void)einops::opencv::as_image(cv::Mat(3, sizes, CV_32FC2)), EinopsError);
}

TEST(OpenCVTypes, EveryDepthReadsAndComesBack) {
  const std::pair<int, DType> depths[] = {{CV_8U, DType::uint8},    {CV_8S, DType::int8},    {CV_16U, DType::uint16},
                                          {CV_16S, DType::int16},   {CV_32S, DType::int32},  {CV_32F, DType::float32},
                                          {CV_64F, DType::float64}, {CV_16F, DType::float16}};
  for (const auto& [depth, dtype] : depths) {
    cv::Mat x;
    cv::Mat(3, 4, CV_32FC2, cv::Scalar(1, 2)).convertTo(x, depth);
    EXPECT_EQ(einops::view(x).dtype(), dtype) << depth;
    const cv::Mat y = einops::rearrange(x, "h w c -> c h w");
    EXPECT_EQ(y.depth(), depth);
    const cv::Mat maxima = einops::reduce(x, "h w c -> c", "max");
    EXPECT_EQ(maxima.depth(), depth);
    EXPECT_EQ(values(maxima), (std::vector<float>{1, 2}));
  }
}

TEST(OpenCVTypes, TypesOpenCVLacksAreErrorsThatSayWhatToDo) {
  const cv::Mat bytes(2, 3, CV_8UC1, cv::Scalar(7));
  try {
    (void)einops::reduce(bytes, "h w -> h", "sum");  // uint64 in einops, as in numpy
    ADD_FAILURE() << "no EinopsError";
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("\"h w -> h\""), std::string::npos) << message;  // the call is named
    EXPECT_NE(message.find("uint64"), std::string::npos) << message;
    EXPECT_NE(message.find("convertTo"), std::string::npos) << message;
  }
  try {
    (void)einops::reduce(bytes, "h w -> h", "any");
    ADD_FAILURE() << "no EinopsError";
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("\"max\""), std::string::npos) << e.what();
  }
  // The alternatives the messages name.
  const einops::AnyTensor sums = einops::reduce(einops::view(bytes), "h w -> h", "sum");
  EXPECT_EQ(sums.as<std::uint64_t>().to_vector(), (std::vector<std::uint64_t>{21, 21}));
  cv::Mat floats;
  bytes.convertTo(floats, CV_32F);
  EXPECT_EQ(values(einops::reduce(floats, "h w -> h", "sum")), (std::vector<float>{21, 21}));
}

TEST(OpenCVOps, PackUnpackEinsumAndCopies) {
  const cv::Mat a = counting(2, 3, CV_32FC1);
  const cv::Mat b = counting(2, 3, CV_32FC1) + 10;
  const auto packed = einops::pack(std::vector<cv::Mat>{a, b}, "h *");
  EXPECT_EQ(shape_of(packed.tensor), (Shape{2, 6}));
  const std::vector<cv::Mat> parts = einops::unpack(packed.tensor, packed.packed_shapes, "h *");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(values(parts[1]), values(b));
  const cv::Mat gram = einops::einsum(a, b, "i j, k j -> i k");
  EXPECT_EQ(values(gram), values(cv::Mat(a * b.t())));
  const cv::Mat copy = einops::copy_to<cv::Mat>(einops::Tensor<float>::arange({2, 2}));
  EXPECT_EQ(values(copy), (std::vector<float>{0, 1, 2, 3}));
  EXPECT_EQ(einops::parse_shape(a, "h w").at("w"), 3);
}

TEST(OpenCVOps, LiteralPatternsAndWritingIntoAnRoi) {
  const cv::Mat image = counting(4, 5, CV_32FC3);
  const cv::Mat chw = einops::rearrange<"h w c -> c h w">(image);
  EXPECT_EQ(shape_of(chw), (Shape{3, 4, 5}));
  cv::Mat canvas(10, 10, CV_32FC3, cv::Scalar::all(-1));
  cv::Mat roi = canvas(cv::Rect(3, 2, 5, 4));
  einops::rearrange_into(image, roi, "h w c -> h w c");
  EXPECT_EQ(canvas.at<cv::Vec3f>(2 + 3, 3 + 4), image.at<cv::Vec3f>(3, 4));
  EXPECT_EQ(canvas.at<cv::Vec3f>(0, 0), cv::Vec3f(-1, -1, -1));
  const cv::Mat_<float> typed = counting(2, 3, CV_32FC1);
  EXPECT_EQ(values(einops::rearrange(typed, "h w -> w h")), values(cv::Mat(typed.t())));
}

}  // namespace
