// A backend is a table op name -> runner. An op the corpus defines but a backend's table lacks
// is "not run by this backend yet"; an op outside the corpus format is a failure.
//
// Adding an op family: write <backend>_<family>_ops.cpp with a register function, declare it
// below and call it from that backend's factory in backends.cpp. Adding a backend: a factory
// in backends.cpp (optionally behind a CMake option for its dependency).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corpus.hpp"
#include "outcome.hpp"

namespace conformance {

using Runner = std::function<Outcome(const Case&)>;
using OpTable = std::map<std::string, Runner, std::less<>>;

struct Backend {
  std::string name;
  OpTable ops;
};

/// The backend called `name`, or nullopt when this build has none by that name.
std::optional<Backend> make_backend(std::string_view name);
/// Names make_backend accepts in this build.
std::vector<std::string> backend_names();

// ---- op families of the built-in backend -------------------------------------------------------

/// rearrange, reduce, repeat (single tensor or list input) on einops::AnyTensor.
void register_builtin_reshape_ops(OpTable& ops);
/// pack and unpack (a list of parts, each a view of the input).
void register_builtin_pack_ops(OpTable& ops);
/// parse_shape (a name -> length mapping in pattern order).
void register_builtin_shape_ops(OpTable& ops);
/// einsum (any number of operands).
void register_builtin_einsum_ops(OpTable& ops);
/// einmix (einops::EinMix, the corpus' weight and bias).
void register_builtin_einmix_ops(OpTable& ops);

// ---- adapter backends (built when their package is found) ------------------------------------

/// Every op on Eigen::Tensors, in both layouts (eigen_ops.cpp); einmix through einops::view.
void register_eigen_ops(OpTable& ops);
/// Every op on xt::xarray, in both layouts (xtensor_ops.cpp); einmix through einops::view.
void register_xtensor_ops(OpTable& ops);
/// Every op but einmix on cv::Mat, n-dimensional and with channels (opencv_ops.cpp).
void register_opencv_ops(OpTable& ops);

}  // namespace conformance
