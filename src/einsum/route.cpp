#include "route.hpp"

#include "gemm.hpp"
#include "small_product.hpp"

namespace einops::detail::einsum {

ContractionSizes contraction_sizes(const Labels& a, const Labels& b, const Labels& result, const Extents& extent) {
  ContractionSizes sizes;
  const auto length = [&](int label) { return static_cast<double>(extent[static_cast<std::size_t>(label)]); };
  for (int label : a) {
    const bool in_b = contains(b, label), in_result = contains(result, label);
    if (in_b && in_result) sizes.batch *= length(label);
    else if (in_b) sizes.k *= length(label);
    else if (in_result) {
      sizes.m *= length(label);
      sizes.m_free = true;
    }
  }
  for (int label : b)
    if (!contains(a, label) && contains(result, label)) {
      sizes.n *= length(label);
      sizes.n_free = true;
    }
  sizes.b_along_k = !b.empty() && contains(a, b.back()) && !contains(result, b.back());
  return sizes;
}

Route choose_route(const ContractionSizes& sizes, DType type) {
  if (!sizes.m_free || !sizes.n_free) return Route::streaming;
  if (sizes.k >= kStreamMinDepth && sizes.m * sizes.n <= kStreamMaxReuse * (sizes.m + sizes.n)) return Route::streaming;
  const double work = sizes.m * sizes.n * sizes.k;
  const bool along_k_small = sizes.b_along_k && sizes.k <= kSmallAlongKMaxDepth && work <= kSmallAlongKMaxWork;
  bool small = small_product_takes(type) && sizes.k * sizes.n <= kSmallMaxPanel &&
               (blas_takes(type) ? work < static_cast<double>(kBlasMinWork) || along_k_small : work <= kSmallMaxWork);
  if (type == DType::float32 || type == DType::float64)
    small = small && sizes.n * static_cast<double>(dtype_size(type)) >= kSmallMinRowBytes;
  if (small) return Route::small_product;
  return Route::matrix_product;
}

const char* route_name(Route route) {
  switch (route) {
    case Route::streaming: return "streaming";
    case Route::small_product: return "small products";
    case Route::matrix_product: break;
  }
  return "matrix product";
}

}  // namespace einops::detail::einsum
