// The borrowed layout's out-of-line parts; see einops/detail/tensor_ref.hpp.
#include "einops/detail/tensor_ref.hpp"

#include <string>

#include "einops/error.hpp"

namespace einops::detail {

AnyTensor alias(const TensorRef& x) {
  return AnyTensor(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, Shape(x.shape.begin(), x.shape.end()),
                   Shape(x.strides.begin(), x.strides.end()));
}

void TensorRefWithExtents::reject(std::size_t rank, std::size_t stride_count) {
  if (stride_count != rank)
    throw EinopsError("A tensor of rank " + std::to_string(rank) + " reported " + std::to_string(stride_count) +
                      " strides: its tensor_traits are inconsistent");
  throw EinopsError("A tensor of rank " + std::to_string(rank) + " has more than " + std::to_string(kMaxRank) +
                    " dimensions, the most einops supports");
}

}  // namespace einops::detail
