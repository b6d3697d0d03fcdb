// The two operations einsum is made of, on terms: summing labels away from one term, and the
// product of two terms summed over the labels the result lacks (a batched matrix product, or the
// streaming kernel: route.hpp).
#pragma once

#include <string>
#include <vector>

#include "einops/tensor.hpp"
#include "route.hpp"
#include "term.hpp"

namespace einops::detail::einsum {

/// A new row-major tensor whose elements are left for the caller to write (every einsum kernel
/// writes every element it owns; zero-filling first would cost a pass over memory). Large ones
/// are reused buffers (einops/memory.hpp).
AnyTensor uninitialized_tensor(DType dtype, const Shape& shape);

/// A new row-major term with `labels` in this order, uninitialised.
Term make_dense(DType dtype, const Labels& labels, const Extents& extent);
/// The same term's layout alone: no memory (data is null), for describing a plan.
Term dense_layout(DType dtype, const Labels& labels, const Extents& extent);

/// `x` seen through its plan dimensions `dims` (one label per dimension, -1 for a length-1 one):
/// a repeated label (a diagonal) is one label whose stride is the sum of its dimensions'.
Term operand_term(const AnyTensor& x, const std::vector<int>& dims);

/// out = in summed over the labels `out` lacks (a permuted copy when it lacks none). The labels
/// of `out` are a subset of those of `in`.
void sum_into(const Term& in, const Term& out, const Extents& extent);

/// out = Σ a·b over the labels of a and b that `out` lacks, by the kernel `route` names. The labels
/// of `out` are a subset of those of a and b together; `out` overlaps neither.
void contract_into(const Term& a, const Term& b, const Term& out, const Extents& extent, Route route);

/// The labels and layout contract_into gives an intermediate product over `result`: batch labels,
/// then a's, then b's, each group in the order that lets the operands be read in place.
Labels product_layout(const Term& a, const Term& b, const Labels& result);

/// What contract_into does for these terms, in words (for `einops explain`); touches no memory.
std::string describe_contraction(const Term& a, const Term& b, const Term& out, const Extents& extent, Route route);

}  // namespace einops::detail::einsum
