// --backend opencv: every op except einmix on cv::Mat, in two forms of each input: an
// n-dimensional single-channel Mat, and a Mat whose last axis is its channels taken as an ROI of
// a larger one (read through its steps); a case passes when both do. Inputs are filled and
// results read through OpenCV's own indexing, so that the adapter's view of the memory is
// checked, not assumed.
//
// Cases OpenCV cannot hold are not run, counted by reason: inputs of a dtype without an OpenCV
// depth (int64, bool), inputs of rank 0 or 1 (OpenCV stores them as 2-D) or above 32, and
// results of such a dtype (bool from any/all), for which the adapter must throw EinopsError.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <einops/opencv.hpp>

#include "adapter_cases.hpp"
#include "backend.hpp"

namespace conformance {
namespace adapters::opencv {
namespace {

/// OpenCV's CV_MAX_DIM.
constexpr std::size_t kMaxMatDims = 32;
/// The value around an ROI input: a read outside the ROI would show in the result.
constexpr double kMargin = -999;

/// Calls f(index) for every multi-index of `sizes` in row-major order.
template <class F>
void for_each_index(const std::vector<int>& sizes, F&& f) {
  std::int64_t count = 1;
  for (int length : sizes) count *= length;
  std::vector<int> index(sizes.size(), 0);
  for (std::int64_t position = 0; position < count; ++position) {
    f(index);
    for (std::size_t d = sizes.size(); d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
}

/// A float64 input (row-major contiguous) as a Mat: form 0 n-dimensional single-channel, form 1
/// with its last axis as channels (rank 3 and more, 2 or more channels: a single-channel Mat
/// reads without a channel axis) inside a larger Mat.
cv::Mat to_mat(const einops::AnyTensor& x, int form) {
  const einops::Shape shape(x.shape().begin(), x.shape().end());
  const bool channels = form == 1 && shape.size() >= 3 && shape.back() >= 2 && shape.back() <= CV_CN_MAX;
  const std::vector<int> sizes(shape.begin(), shape.end() - (channels ? 1 : 0));
  const int channel_count = channels ? static_cast<int>(shape.back()) : 1;
  bool empty = false;
  for (int length : sizes) empty = empty || length == 0;
  const bool roi = form == 1 && !empty;
  std::vector<int> outer = sizes;
  std::vector<cv::Range> inner;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (roi) outer[i] += 2;  // one element of margin on each side
    inner.emplace_back(roi ? 1 : 0, (roi ? 1 : 0) + sizes[i]);
  }
  cv::Mat whole(static_cast<int>(outer.size()), outer.data(), CV_MAKETYPE(CV_64F, channel_count));
  std::fill_n(reinterpret_cast<double*>(whole.data), whole.total() * static_cast<std::size_t>(channel_count), kMargin);
  cv::Mat m = roi ? whole(inner) : whole;
  const auto* values = static_cast<const double*>(x.data());
  std::size_t next = 0;
  for_each_index(sizes, [&](const std::vector<int>& index) {
    double* element = m.ptr<double>(index.data());
    for (int c = 0; c < channel_count; ++c) element[c] = values[next++];
  });
  return m;
}

/// A float64 Mat result as a built-in tensor of rank `rank`, read through OpenCV's indexing; the
/// Mat's form must be the adapter's documented one for that rank. Returns why not, or empty.
std::string from_mat(const cv::Mat& m, std::size_t rank, einops::AnyTensor& out) {
  if (m.depth() != CV_64F) return "a result of OpenCV depth " + std::to_string(m.depth()) + ", not CV_64F";
  const auto read = einops::tensor_traits<cv::Mat>::shape(m);
  einops::Shape shape(read.begin(), read.end());
  if (shape.size() != rank) {  // OpenCV's 2-D forms of ranks 0 and 1, and of `h w 1`
    if (rank == 0 && shape == einops::Shape{1, 1}) shape.clear();
    else if (rank == 1 && shape.size() == 2 && shape[1] == 1) shape.pop_back();
    else if (rank == 3 && m.dims == 2 && m.channels() == 1) shape.push_back(1);
    else
      return "a result of rank " + std::to_string(rank) + " came as a Mat of shape " +
             einops::detail::format_shape(shape);
  }
  if (m.dims == 3 && m.channels() == 1 && m.size[2] >= 1 && m.size[2] <= 4)
    return "an image-shaped result (rank 3, last axis 1 to 4) came as a 3-dimensional Mat, not a 2-D one with channels";
  out = einops::AnyTensor(einops::DType::float64, shape);
  auto* values = static_cast<double*>(out.data());
  std::size_t next = 0;
  const std::vector<int> sizes(m.size.p, m.size.p + m.dims);
  for_each_index(sizes, [&](const std::vector<int>& index) {
    const double* element = m.ptr<double>(index.data());
    for (int c = 0; c < m.channels(); ++c) values[next++] = element[c];
  });
  return {};
}

/// Why OpenCV cannot take the case's inputs, or empty.
std::string unsupported_inputs(const Call& call) {
  if (call.dtype != einops::DType::float64)  // the corpus' other dtypes: int64 and bool
    return "cv::Mat holds no " + std::string(einops::dtype_name(call.dtype)) + " elements";
  for (const einops::AnyTensor& input : call.inputs) {
    if (input.rank() < 2) return "inputs of rank 0 or 1 (a cv::Mat has 2 dimensions or more)";
    if (input.rank() > kMaxMatDims) return "inputs of rank above 32 (OpenCV's CV_MAX_DIM)";
  }
  return {};
}

Outcome run_form(const Case& c, const Call& call, int form) {
  std::vector<cv::Mat> xs;
  for (const einops::AnyTensor& input : call.inputs) xs.push_back(to_mat(input, form));
  const auto matches = [&](std::size_t rank) {
    return [&c, rank](const cv::Mat& y) {
      einops::AnyTensor tensor;
      if (std::string why = from_mat(y, rank, tensor); !why.empty()) return why;
      return check_array(c.expect(), tensor, value_match(c));
    };
  };
  if (c.op == "rearrange" || c.op == "repeat" || c.op == "reduce") {
    const auto planned = planned_result(c, call);
    const auto arrow = [&](const auto& x) -> cv::Mat {
      if (c.op == "rearrange") return einops::rearrange(x, c.pattern, call.lengths);
      if (c.op == "repeat") return einops::repeat(x, c.pattern, call.lengths);
      return einops::reduce(x, c.pattern, call.reduction, call.lengths);
    };
    const auto call_once = [&] { return call.list ? arrow(xs) : arrow(xs.front()); };
    if (planned && planned->dtype != call.dtype) {  // any/all: bool, which no Mat holds
      try {
        (void)call_once();
      } catch (const einops::EinopsError&) {
        return Outcome::skip("results of dtype " + std::string(einops::dtype_name(planned->dtype)) +
                             " (the adapter throws EinopsError, as documented)");
      }
      return Outcome::fail("a " + std::string(einops::dtype_name(planned->dtype)) + " result without EinopsError");
    }
    return expect_result(c, call_once, matches(planned ? planned->rank : 0));
  }
  if (c.op == "pack") {
    const std::size_t rank = pack_rank(c.pattern).value_or(0);
    return expect_result(
        c, [&] { return einops::pack(xs, c.pattern); },
        [&](const auto& packed) {
          einops::AnyTensor tensor;
          if (std::string why = from_mat(packed.tensor, rank, tensor); !why.empty()) return why;
          return check_packed(c, tensor, packed.packed_shapes);
        });
  }
  if (c.op == "unpack") {
    const auto ranks = unpack_ranks(c.pattern, call.packed);
    return expect_result(
        c, [&] { return einops::unpack(xs.front(), call.packed, c.pattern); },
        [&](const std::vector<cv::Mat>& parts) {
          std::vector<einops::AnyTensor> tensors(parts.size());
          for (std::size_t i = 0; i < parts.size(); ++i) {
            const std::size_t rank = ranks && i < ranks->size() ? (*ranks)[i] : 0;
            if (std::string why = from_mat(parts[i], rank, tensors[i]); !why.empty()) return why;
          }
          return check_parts(c, tensors);
        });
  }
  if (c.op == "einsum") {
    if (xs.size() > 4) return Outcome::fail("more than 4 einsum operands: not instantiated in this runner");
    std::vector<std::size_t> ranks;
    for (const einops::AnyTensor& input : call.inputs) ranks.push_back(input.rank());
    return expect_result(
        c,
        [&]() -> cv::Mat {
          switch (xs.size()) {
            case 1: return einops::einsum(xs[0], c.pattern);
            case 2: return einops::einsum(xs[0], xs[1], c.pattern);
            case 3: return einops::einsum(xs[0], xs[1], xs[2], c.pattern);
            default: return einops::einsum(xs[0], xs[1], xs[2], xs[3], c.pattern);
          }
        },
        matches(einsum_rank(c.pattern, ranks).value_or(0)));
  }
  return expect_result(
      c, [&] { return einops::parse_shape(xs.front(), c.pattern); },
      [&](const einops::ParsedShape& parsed) { return check_parsed_shape(c, parsed); });
}

Outcome run(const Case& c) {
  Call call;
  if (std::string why = read_call(c, call); !why.empty()) return Outcome::fail("malformed case: " + why);
  if (std::string why = unsupported_inputs(call); !why.empty()) return Outcome::skip(why);
  static const char* const forms[2] = {"n-d", "channels, ROI"};
  return in_both_layouts(forms, [&](int form) { return run_form(c, call, form); });
}

}  // namespace
}  // namespace adapters::opencv

void register_opencv_ops(OpTable& ops) {
  for (const char* op : {"rearrange", "reduce", "repeat", "pack", "unpack", "parse_shape", "einsum"})
    ops.emplace(op, &adapters::opencv::run);
}

}  // namespace conformance
