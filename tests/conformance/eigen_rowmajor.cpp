// The eigen backend's cases in RowMajor layout.
#include "eigen_layout.hpp"

namespace conformance::adapters::eigen {
template Outcome run_case<Eigen::RowMajor>(const Case& c, const Call& call);
}  // namespace conformance::adapters::eigen
