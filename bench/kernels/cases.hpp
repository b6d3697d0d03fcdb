// The benchmark cases of the kernels issue, described once for every implementation: the einops
// call, and the same work as a view + permute / reduce / expand for LibTorch and Eigen.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <einops/einops.hpp>

namespace bench {

enum class Kind { permute, reduce, repeat };

struct Case {
  Kind kind{};
  std::string pattern{};
  std::vector<std::pair<std::string, std::int64_t>> lengths{};  // axis lengths the pattern needs
  einops::Shape input_shape{};
  einops::DType dtype{};
  std::string reduction{};  // reduce only: "sum", "max", "mean"

  // The same work for libraries without einops: the input viewed with elementary axes (and
  // unit axes where repeat adds one), then permuted / reduced over `axes` / expanded to `expand`.
  einops::Shape view{};
  std::vector<std::int64_t> permutation{};  // permute
  std::vector<std::int64_t> axes{};         // reduce: reduced axes of `view`
  einops::Shape expand{};                   // repeat: the output viewed with elementary axes

  // Non-overlapping `pool_window` x `pool_window` pooling of a 4-d image batch (reduce only; 0:
  // none): LibTorch runs it as max_pool2d / avg_pool2d with kernel_size = stride = pool_window,
  // on the input as NCHW, or on its NCHW view when `channels_last` (the input is NHWC).
  std::int64_t pool_window = 0;
  bool channels_last = false;

  // The summary group of the table ("channels", "patchify", "pooling"); empty: the group of its
  // kind and dtype. Cases with a group carry their input shape in the label (one pattern and
  // dtype may appear at several shapes) and the group as the benchmark name's last field.
  std::string group{};

  std::string label() const;
  einops::AxisLengths axis_lengths() const;
  std::int64_t input_elements() const;
  /// The output viewed with elementary axes: `view` permuted, `view` without the reduced axes, or `expand`.
  einops::Shape output_view() const;
  std::int64_t output_elements() const;
  /// Bytes the reference moves: memcpy of the output (permute, repeat), a read of the input (reduce).
  std::int64_t reference_bytes() const;
  /// Bytes the operation touches: input read plus output written.
  std::int64_t traffic_bytes() const;
  std::int64_t output_bytes() const;
  std::size_t element_size() const { return einops::dtype_size(dtype); }
};

const std::vector<Case>& cases();

}  // namespace bench
