// einops::opencv from an installed einops: cv::Mat in and out.
#include <einops/opencv.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  const cv::Mat x = (cv::Mat_<int>(2, 3) << 0, 1, 2, 3, 4, 5);
  const cv::Mat y = einops::rearrange(x, "a b -> b a");
  std::cout << "consumer " << einops::version << ": (" << y.rows << ", " << y.cols << ")";
  for (int r = 0; r < y.rows; ++r)
    for (int c = 0; c < y.cols; ++c) std::cout << ' ' << y.at<int>(r, c);
  std::cout << '\n';
}
