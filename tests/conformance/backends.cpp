#include <utility>

#include "backend.hpp"

namespace conformance {

#ifdef EINOPS_CONFORMANCE_TORCH
/// Every op, einmix included, on torch tensors (torch_ops.cpp).
void register_torch_ops(OpTable& ops);
#endif

namespace {

Backend make_builtin() {
  Backend backend{"builtin", {}};
  register_builtin_reshape_ops(backend.ops);
  register_builtin_pack_ops(backend.ops);
  register_builtin_shape_ops(backend.ops);
  register_builtin_einsum_ops(backend.ops);
  register_builtin_einmix_ops(backend.ops);
  return backend;
}

#ifdef EINOPS_CONFORMANCE_EIGEN
Backend make_eigen() {
  Backend backend{"eigen", {}};
  register_eigen_ops(backend.ops);
  return backend;
}
#endif
#ifdef EINOPS_CONFORMANCE_OPENCV
Backend make_opencv() {
  Backend backend{"opencv", {}};
  register_opencv_ops(backend.ops);
  return backend;
}
#endif
#ifdef EINOPS_CONFORMANCE_TORCH
Backend make_torch() {
  Backend backend{"torch", {}};
  register_torch_ops(backend.ops);
  return backend;
}
#endif
#ifdef EINOPS_CONFORMANCE_XTENSOR
Backend make_xtensor() {
  Backend backend{"xtensor", {}};
  register_xtensor_ops(backend.ops);
  return backend;
}
#endif

struct Factory {
  const char* name;
  Backend (*make)();
};
// Later backends add a line here, guarded by their build option.
constexpr Factory factories[] = {
    {"builtin", &make_builtin},
#ifdef EINOPS_CONFORMANCE_EIGEN
    {"eigen", &make_eigen},
#endif
#ifdef EINOPS_CONFORMANCE_XTENSOR
    {"xtensor", &make_xtensor},
#endif
#ifdef EINOPS_CONFORMANCE_OPENCV
    {"opencv", &make_opencv},
#endif
#ifdef EINOPS_CONFORMANCE_TORCH
    {"torch", &make_torch},
#endif
};

}  // namespace

std::optional<Backend> make_backend(std::string_view name) {
  for (const Factory& factory : factories)
    if (name == factory.name) return factory.make();
  return std::nullopt;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const Factory& factory : factories) names.emplace_back(factory.name);
  return names;
}

}  // namespace conformance
