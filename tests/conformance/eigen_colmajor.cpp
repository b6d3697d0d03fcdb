// The eigen backend's cases in Eigen's default layout (one translation unit per layout: the
// ranks instantiated per layout make each a sizeable compile).
#include "eigen_layout.hpp"

namespace conformance::adapters::eigen {
template Outcome run_case<Eigen::ColMajor>(const Case& c, const Call& call);
}  // namespace conformance::adapters::eigen
