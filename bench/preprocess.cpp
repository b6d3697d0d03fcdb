// Preprocessing in one pass (issue 44): uint8 images b h w c to a normalised float b c h w blob
// (per-channel mean and std), float32 images to their blob, and a float blob back to uint8
// images, against memcpy of the output's bytes (split over the same threads), OpenCV's
// cv::dnn::blobFromImages with the same parameters, and LibTorch into a preallocated output.
// Every output is preallocated (blobFromImages and einops::opencv::blob_into reuse one blob). The
// reverse direction also runs memcpy of its input's bytes: the pass reads four times what it
// writes, and its output fits the last-level cache where its input does not.
//
// Names: "<implementation>|<case>|<threads>". Counter "GB/s" counts the output's bytes.
// bench/README.md gives the command and the figures.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <einops/einops.hpp>
#include <einops/threads.hpp>
#include <einops/opencv_blob.hpp>

#include "kernels/parallel.hpp"
#include "preprocess_torch.hpp"

#ifdef EINOPS_BENCH_OPENCV_DNN
#include <opencv2/dnn.hpp>
#endif

namespace {

/// ImageNet's normalisation for uint8 pixels: (x - mean) / std per channel.
constexpr float kMean[3] = {123.675f, 116.28f, 103.53f};
constexpr float kStd[3] = {58.395f, 57.12f, 57.375f};

struct Case {
  const char* name;
  int batch, height, width;
  bool float_input;  // float32 images (blob as large as the input)
  bool reverse;      // float b c h w -> uint8 b h w c
};

const Case kCases[] = {
    {"u8 [32,224,224,3] -> f32 bchw", 32, 224, 224, false, false},
    {"u8 4x1080p -> f32 bchw", 4, 1080, 1920, false, false},
    {"f32 [32,224,224,3] -> f32 bchw", 32, 224, 224, true, false},
    {"f32 bchw [32,3,224,224] -> u8 bhwc", 32, 224, 224, false, true},
};

struct Buffers {
  std::vector<cv::Mat> images;  // b h w c, one Mat per image, in one allocation
  cv::Mat all;
  cv::Mat blob;  // b c h w float32, preallocated
  std::int64_t out_bytes = 0;
};

Buffers make_buffers(const Case& c) {
  Buffers b;
  const int type = c.float_input ? CV_32FC3 : CV_8UC3;
  b.all = cv::Mat(c.batch * c.height, c.width, type);
  cv::randu(b.all, 0, 255);
  for (int i = 0; i < c.batch; ++i) b.images.push_back(b.all.rowRange(i * c.height, (i + 1) * c.height));
  const int sizes[] = {c.batch, 3, c.height, c.width};
  b.blob = cv::Mat(4, sizes, CV_32F);
  cv::randu(b.blob, -2.5f, 2.5f);
  const std::int64_t pixels = std::int64_t{c.batch} * c.height * c.width * 3;
  b.out_bytes = c.reverse ? pixels : pixels * 4;
  return b;
}

einops::opencv::BlobParams params() {
  return {.scale = 1.0, .mean = cv::Scalar(kMean[0], kMean[1], kMean[2]), .std = cv::Scalar(kStd[0], kStd[1], kStd[2])};
}

void finish(benchmark::State& state, std::int64_t bytes) {
  state.counters["GB/s"] = benchmark::Counter(static_cast<double>(bytes) * static_cast<double>(state.iterations()),
                                              benchmark::Counter::kIsRate);
}

/// memcpy of `bytes` (the output's, or for the reverse direction also the input's), split over
/// the same thread pool as einops. GB/s counts the bytes copied.
void memcpy_pass(benchmark::State& state, const Case& c, int threads, bool input_bytes) {
  Buffers b = make_buffers(c);
  const std::int64_t bytes = input_bytes ? b.out_bytes * 4 : b.out_bytes;
  std::vector<std::uint8_t> source(static_cast<std::size_t>(bytes), 2), target(static_cast<std::size_t>(bytes), 1);
  einops::set_num_threads(threads);
  const std::int64_t piece = (bytes / threads + 63) / 64 * 64;
  for (auto _ : state) {
    einops::detail::parallel_for(bytes, piece, threads > 1, [&](std::int64_t begin, std::int64_t end) {
      std::memcpy(target.data() + begin, source.data() + begin, static_cast<std::size_t>(end - begin));
    });
    benchmark::ClobberMemory();
  }
  finish(state, bytes);
}

/// The fused call: the blob (images -> planes) or the images (planes -> uint8 channels-last),
/// through the built-in tensor views of the same memory (preallocated output).
void einops_pass(benchmark::State& state, const Case& c, int threads, bool swap_rb) {
  Buffers b = make_buffers(c);
  einops::set_num_threads(threads);
  const einops::affine<"c"> normalise{.scale = {1 / kStd[0], 1 / kStd[1], 1 / kStd[2]},
                                      .offset = {-kMean[0], -kMean[1], -kMean[2]},
                                      .offset_first = true};
  const einops::Shape image_shape{c.batch, c.height, c.width, 3};
  const einops::Shape blob_shape{c.batch, 3, c.height, c.width};
  const einops::TensorView<float> blob(reinterpret_cast<float*>(b.blob.data), blob_shape);
  cv::Mat images8(c.batch * c.height, c.width, CV_8UC3);
  for (auto _ : state) {
    if (c.reverse) {
      const einops::affine<"c"> back{.scale = {kStd[0], kStd[1], kStd[2]}, .offset = {kMean[0], kMean[1], kMean[2]}};
      einops::rearrange_into(blob, einops::TensorView<std::uint8_t>(images8.data, image_shape), "b c h w -> b h w c",
                             back);
    } else if (c.float_input) {
      const einops::TensorView<const float> x(reinterpret_cast<const float*>(b.all.data), image_shape);
      einops::rearrange_into(swap_rb ? einops::flip(x, 3) : x, blob, "b h w c -> b c h w", normalise);
    } else {
      const einops::TensorView<const std::uint8_t> x(b.all.data, image_shape);
      einops::rearrange_into(swap_rb ? einops::flip(x, 3) : x, blob, "b h w c -> b c h w", normalise);
    }
    benchmark::ClobberMemory();
  }
  finish(state, b.out_bytes);
}

/// einops::opencv::blob_into from the list of Mats, into one blob reused across iterations.
void einops_blob_pass(benchmark::State& state, const Case& c, int threads) {
  Buffers b = make_buffers(c);
  einops::set_num_threads(threads);
  for (auto _ : state) {
    einops::opencv::blob_into(b.images, b.blob, "b h w c -> b c h w", params());
    benchmark::ClobberMemory();
  }
  finish(state, b.out_bytes);
}

#ifdef EINOPS_BENCH_OPENCV_DNN
/// blobFromImages with the same mean and a scalar scale (it has no per-channel std), into one
/// blob reused across iterations (its OutputArray form). It converts CV_32F images in place: the
/// values drift over the iterations, the work does not.
void opencv_pass(benchmark::State& state, const Case& c, int threads) {
  Buffers b = make_buffers(c);
  cv::setNumThreads(threads);
  for (auto _ : state) {
    cv::dnn::blobFromImages(b.images, b.blob, 1 / 57.0, cv::Size(), cv::Scalar(kMean[0], kMean[1], kMean[2]), false,
                            false, CV_32F);
    benchmark::ClobberMemory();
  }
  finish(state, b.out_bytes);
}
#endif

void register_all() {
  for (const Case& c : kCases)
    for (int threads : {1, 2}) {
      const std::string suffix = std::string("|") + c.name + "|" + std::to_string(threads);
      const auto add = [&](const std::string& name, auto body) {
        benchmark::RegisterBenchmark((name + suffix).c_str(), body)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond)
            ->MinTime(0.5);
      };
      add("memcpy", [c, threads](benchmark::State& s) { memcpy_pass(s, c, threads, false); });
      if (c.reverse)
        add("memcpy (input bytes)", [c, threads](benchmark::State& s) { memcpy_pass(s, c, threads, true); });
      add("einops", [c, threads](benchmark::State& s) { einops_pass(s, c, threads, false); });
      if (!c.reverse) {
        add("einops swap_rb", [c, threads](benchmark::State& s) { einops_pass(s, c, threads, true); });
        add("einops::opencv::blob", [c, threads](benchmark::State& s) { einops_blob_pass(s, c, threads); });
#ifdef EINOPS_BENCH_OPENCV_DNN
        add("cv::dnn::blobFromImages", [c, threads](benchmark::State& s) { opencv_pass(s, c, threads); });
#endif
      }
#ifdef EINOPS_BENCH_TORCH
      add("LibTorch", [c, threads](benchmark::State& s) {
        bench::torch_preprocess(s, {c.batch, c.height, c.width, c.float_input, c.reverse, threads}, kMean, kStd);
      });
#endif
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
