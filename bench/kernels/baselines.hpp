// LibTorch and Eigen versions of the cases, registered when the libraries were found at
// configure time (bench only: the library never depends on them).
#pragma once

#include "cases.hpp"

namespace bench {

#ifdef EINOPS_BENCH_TORCH
void register_torch(const Case& c, int threads);
/// `x.permute(...).contiguous()`: a fresh result every call.
void register_torch_allocating(const Case& c, int threads);
#endif
#ifdef EINOPS_BENCH_EIGEN
void register_eigen(const Case& c, int threads);
#endif

inline void register_baselines([[maybe_unused]] const Case& c, [[maybe_unused]] int threads) {
#ifdef EINOPS_BENCH_TORCH
  register_torch(c, threads);
#endif
#ifdef EINOPS_BENCH_EIGEN
  register_eigen(c, threads);
#endif
}

inline void register_allocating_baselines([[maybe_unused]] const Case& c, [[maybe_unused]] int threads) {
#ifdef EINOPS_BENCH_TORCH
  register_torch_allocating(c, threads);
#endif
}

}  // namespace bench
