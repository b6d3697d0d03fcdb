// --backend eigen: every op on Eigen::Tensors, ColMajor and RowMajor (einmix: einops::EinMix on
// the tensor's memory); a case passes when both layouts do.
#include <unsupported/Eigen/CXX11/Tensor>

#include "adapter_cases.hpp"
#include "backend.hpp"

namespace conformance {
namespace adapters::eigen {

template <int Layout>
Outcome run_case(const Case& c, const Call& call);
extern template Outcome run_case<Eigen::ColMajor>(const Case& c, const Call& call);
extern template Outcome run_case<Eigen::RowMajor>(const Case& c, const Call& call);

namespace {

Outcome run(const Case& c) {
  Call call;
  if (std::string why = read_call(c, call); !why.empty()) return Outcome::fail("malformed case: " + why);
  static const char* const layouts[2] = {"ColMajor", "RowMajor"};
  return in_both_layouts(layouts, [&](int layout) {
    return layout == 0 ? run_case<Eigen::ColMajor>(c, call) : run_case<Eigen::RowMajor>(c, call);
  });
}

}  // namespace
}  // namespace adapters::eigen

void register_eigen_ops(OpTable& ops) {
  for (const char* op : {"rearrange", "reduce", "repeat", "pack", "unpack", "parse_shape", "einsum", "einmix"})
    ops.emplace(op, &adapters::eigen::run);
}

}  // namespace conformance
