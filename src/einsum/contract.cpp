// Pairwise contraction as a batched matrix product (the "transpose-transpose-GEMM-transpose"
// scheme without the transposes wherever strides allow):
//   batch labels: in a, b and the result;  m: a and the result;  n: b and the result;
//   k: a and b, summed.
// Each group is ordered by the strides of the memory it must be read or written in, so that a
// group merges into one strided dimension; only an operand whose group cannot merge is copied.
// A step whose route is streaming (route.hpp) goes to stream.hpp instead, after the same
// summing away of labels only one side has; a small-product step takes the same groups as the
// matrix product and runs them in small_product.hpp's kernel (for the element types it takes).
#include "contract.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "../kernels/buffer_cache.hpp"
#include "../odometer.hpp"
#include "einops/detail/kernels.hpp"
#include "einops/detail/walk.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"
#include "gemm.hpp"
#include "small_product.hpp"
#include "stream.hpp"

namespace einops::detail::einsum {
namespace {

/// `group` ordered by decreasing |stride| in `term` (stable: ties keep the group's order).
Labels by_stride(Labels group, const Term& term) {
  std::stable_sort(group.begin(), group.end(), [&](int x, int y) {
    return stride_magnitude(term.stride_of(x)) > stride_magnitude(term.stride_of(y));
  });
  return group;
}

/// A group of labels seen as one dimension of `term`: its length and stride, if they merge.
struct Merged {
  std::int64_t extent = 1;
  std::int64_t stride = 0;
  bool ok = true;
};

Merged merge(const Term& term, const Labels& group, const Extents& extent) {
  Merged merged;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const std::int64_t length = extent[static_cast<std::size_t>(group[i])];
    const std::int64_t stride = term.stride_of(group[i]);
    if (i > 0 && merged.stride != stride * length) merged.ok = false;
    merged.extent *= length;
    merged.stride = stride;
  }
  return merged;
}

std::size_t element_size(const Term& term) { return dtype_size(term.dtype); }

/// Sum of the reduced dimensions of `walk` for element types whose numpy sum keeps the type
/// narrower than the library's reduce kernel produces (it widens integers to 64 bits).
template <class T>
void sum_loops(const T* in, T* out, const Walk& walk) {
  using Acc = std::conditional_t<std::is_floating_point_v<T>, double, std::uint64_t>;
  const int last = walk.rank - 1;
  const int inner = walk.reduced_rank - 1;
  for_each_run(
      walk.rank, walk.extent, walk.in_stride, walk.out_stride, [&](std::int64_t in_offset, std::int64_t out_offset) {
        const std::int64_t length = last >= 0 ? walk.extent[static_cast<std::size_t>(last)] : 1;
        for (std::int64_t i = 0; i < length; ++i) {
          const T* base = in + in_offset + (last >= 0 ? i * walk.in_stride[static_cast<std::size_t>(last)] : 0);
          Acc sum{0};
          for_each_run(
              walk.reduced_rank, walk.reduced_extent, walk.reduced_stride, walk.reduced_stride,
              [&](std::int64_t offset, std::int64_t) {
                const std::int64_t count = inner >= 0 ? walk.reduced_extent[static_cast<std::size_t>(inner)] : 1;
                const std::int64_t step = inner >= 0 ? walk.reduced_stride[static_cast<std::size_t>(inner)] : 0;
                for (std::int64_t r = 0; r < count; ++r) sum += static_cast<Acc>(base[offset + r * step]);
              });
          T& target = out[out_offset + (last >= 0 ? i * walk.out_stride[static_cast<std::size_t>(last)] : 0)];
          if constexpr (std::is_same_v<T, bool>) target = sum != 0;
          else target = static_cast<T>(sum);
        }
      });
}

/// visit_dtype for the types einsum sums in (every dtype but the 16-bit floats).
template <class F>
void with_arithmetic_type(DType type, F&& f) {
  visit_dtype(type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>)
      throw EinopsError("einsum: no summation for dtype " + std::string(dtype_name(type)));
    else f(zero);
  });
}

}  // namespace

AnyTensor uninitialized_tensor(DType dtype, const Shape& shape) {
  const std::int64_t count = checked_element_count(shape);
  // Large buffers come from the library's reuse cache: no page faults on every call.
  Allocation memory = allocate_buffer(static_cast<std::size_t>(count > 0 ? count : 1) * dtype_size(dtype), false);
  return AnyTensor(dtype, std::move(memory.storage), memory.data, shape, row_major_strides(shape));
}

Term dense_layout(DType dtype, const Labels& labels, const Extents& extent) {
  Shape shape;
  for (int label : labels) shape.push_back(extent[static_cast<std::size_t>(label)]);
  Term term;
  term.dtype = dtype;
  term.labels = labels;
  term.strides = row_major_strides(shape);
  return term;
}

Term make_dense(DType dtype, const Labels& labels, const Extents& extent) {
  Term term = dense_layout(dtype, labels, extent);
  Shape shape;
  for (int label : labels) shape.push_back(extent[static_cast<std::size_t>(label)]);
  const AnyTensor tensor = uninitialized_tensor(dtype, shape);
  term.data = tensor.data();
  term.storage = tensor.storage();
  return term;
}

Term operand_term(const AnyTensor& x, const std::vector<int>& dims) {
  Term term;
  term.dtype = x.dtype();
  term.data = x.data();
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 0) continue;
    bool found = false;
    for (std::size_t i = 0; i < term.labels.size(); ++i)
      if (term.labels[i] == dims[d]) {
        term.strides[i] += x.strides()[d];
        found = true;
      }
    if (!found) {
      term.labels.push_back(dims[d]);
      term.strides.push_back(x.strides()[d]);
    }
  }
  return term;
}

void sum_into(const Term& in, const Term& out, const Extents& extent) {
  Walk walk;
  for (std::size_t i = 0; i < out.labels.size(); ++i)
    walk.push_output(extent[static_cast<std::size_t>(out.labels[i])], in.stride_of(out.labels[i]), out.strides[i]);
  for (std::size_t i = 0; i < in.labels.size(); ++i)
    if (!out.has(in.labels[i])) walk.push_reduced(extent[static_cast<std::size_t>(in.labels[i])], in.strides[i]);
  walk.merge();
  if (walk.reduced_rank == 0) {
    copy_strided(element_size(in), in.data, out.data, walk);
    return;
  }
  // The library's reduce kernel sums float32/float64/int64/uint64 into the same type.
  if (reduction_result_dtype(Reduction::sum, in.dtype) == in.dtype && in.dtype != DType::boolean) {
    reduce_strided(in.dtype, Reduction::sum, in.data, out.data, walk);
    return;
  }
  with_arithmetic_type(in.dtype, [&](auto tag) {
    using T = decltype(tag);
    sum_loops<T>(static_cast<const T*>(in.data), static_cast<T*>(out.data), walk);
  });
}

Labels product_layout(const Term& a, const Term& b, const Labels& result) {
  Labels batch, m, n;
  for (int label : result) {
    if (a.has(label) && b.has(label)) batch.push_back(label);
    else if (a.has(label)) m.push_back(label);
    else n.push_back(label);
  }
  Labels layout = by_stride(batch, a);
  const Labels m_order = by_stride(m, a), n_order = by_stride(n, b);
  layout.insert(layout.end(), m_order.begin(), m_order.end());
  layout.insert(layout.end(), n_order.begin(), n_order.end());
  return layout;
}

namespace {

/// The labels of `term` that contract_into keeps for the product: those the other side or the
/// result has (the rest are summed away first), in order of decreasing stride.
Labels kept_labels(const Term& term, const Term& other, const Term& out) {
  Labels kept;
  for (int label : term.labels)
    if (other.has(label) || out.has(label)) kept.push_back(label);
  return kept.size() == term.labels.size() ? kept : by_stride(kept, term);
}

/// The matrix product's groups of labels (see the top of this file), each ordered by the strides
/// of the memory it is read or written in.
struct ProductGroups {
  Labels batch, m, n, k;
};

ProductGroups product_groups(const Term& a, const Term& b, const Term& out) {
  ProductGroups g;
  for (int label : out.labels) {
    if (a.has(label) && b.has(label)) g.batch.push_back(label);
    else if (a.has(label)) g.m.push_back(label);
    else if (b.has(label)) g.n.push_back(label);
  }
  for (int label : a.labels)
    if (b.has(label) && !out.has(label)) g.k.push_back(label);
  g.batch = by_stride(g.batch, out);
  g.m = by_stride(g.m, out);
  g.n = by_stride(g.n, out);
  g.k = by_stride(g.k, a);
  return g;
}

/// Whether a group of `term`'s labels and the next one each merge into one strided dimension
/// (as BLAS reads a matrix); otherwise the term is copied into [batch, rows, cols] first.
bool reads_in_place(const Term& term, const Labels& rows, const Labels& cols, const Extents& extent) {
  return merge(term, rows, extent).ok && merge(term, cols, extent).ok;
}

Labels concatenated(const Labels& first, const Labels& second, const Labels& third) {
  Labels all = first;
  all.insert(all.end(), second.begin(), second.end());
  all.insert(all.end(), third.begin(), third.end());
  return all;
}

double length_of(const Labels& labels, const Extents& extent) {
  double length = 1;
  for (int label : labels) length *= static_cast<double>(extent[static_cast<std::size_t>(label)]);
  return length;
}

std::string count_text(double count) { return std::to_string(static_cast<std::int64_t>(count)); }

}  // namespace

void contract_into(const Term& a_in, const Term& b_in, const Term& out, const Extents& extent, Route route) {
  // Labels only one side has and the result lacks are summed away first.
  const auto presummed = [&](const Term& term, const Term& other) {
    const Labels kept = kept_labels(term, other, out);
    if (kept.size() == term.labels.size()) return term;
    Term dense = make_dense(term.dtype, kept, extent);
    sum_into(term, dense, extent);
    return dense;
  };
  Term a = presummed(a_in, b_in);
  Term b = presummed(b_in, a);
  if (route == Route::streaming) {
    stream_into(a, b, out, extent);
    return;
  }

  const ProductGroups groups = product_groups(a, b, out);
  const Labels& batch = groups.batch;
  const Labels& m = groups.m;
  const Labels& n = groups.n;
  const Labels& k = groups.k;
  // An operand whose m/k (or k/n) group does not merge is copied into [batch, m, k] (or [batch, k, n]).
  const auto readable = [&](Term& term, const Labels& rows, const Labels& cols) {
    if (reads_in_place(term, rows, cols, extent)) return;
    Term dense = make_dense(term.dtype, concatenated(batch, rows, cols), extent);
    sum_into(term, dense, extent);
    term = std::move(dense);
  };
  readable(a, m, k);
  readable(b, k, n);
  Term target = out;
  const bool direct = reads_in_place(out, m, n, extent);
  if (!direct) target = make_dense(out.dtype, concatenated(batch, m, n), extent);

  BatchedGemm problem;
  const Merged am = merge(a, m, extent), ak = merge(a, k, extent);
  const Merged bk = merge(b, k, extent), bn = merge(b, n, extent);
  const Merged cm = merge(target, m, extent), cn = merge(target, n, extent);
  problem.m = am.extent;
  problem.n = bn.extent;
  problem.k = ak.extent;
  problem.a = a.data;
  problem.a_layout = {am.stride, ak.stride};
  problem.b = b.data;
  problem.b_layout = {bk.stride, bn.stride};
  problem.c = target.data;
  problem.c_layout = {cm.stride, cn.stride};
  for (int label : batch)
    problem.push_batch(extent[static_cast<std::size_t>(label)], a.stride_of(label), b.stride_of(label),
                       target.stride_of(label));
  if (route == Route::small_product && small_product_takes(a.dtype)) small_batched_product(a.dtype, problem);
  else batched_gemm(a.dtype, problem);
  if (!direct) sum_into(target, out, extent);
}

std::string describe_contraction(const Term& a_in, const Term& b_in, const Term& out, const Extents& extent,
                                 Route route) {
  std::string text;
  const auto presummed = [&](const Term& term, const Term& other, const char* side) {
    const Labels kept = kept_labels(term, other, out);
    if (kept.size() == term.labels.size()) return term;
    text += std::string("sums the ") + side + " side's own axes away first; ";
    return dense_layout(term.dtype, kept, extent);
  };
  const Term a = presummed(a_in, b_in, "left");
  const Term b = presummed(b_in, a, "right");
  if (route == Route::streaming) return text + "streaming: " + describe_stream(make_stream_schedule(a, b, out, extent));

  const ProductGroups g = product_groups(a, b, out);
  const double m = length_of(g.m, extent), n = length_of(g.n, extent), k = length_of(g.k, extent);
  const double work = m * n * k;
  const bool small = route == Route::small_product && small_product_takes(a.dtype);
  text += std::string(small ? "small products: " : "matrix product: ") + count_text(length_of(g.batch, extent)) +
          " x [" + count_text(m) + " x " + count_text(k) + "] . [" + count_text(k) + " x " + count_text(n) + "]";
  if (small) text += " in register tiles";
  else text += work >= static_cast<double>(kBlasMinWork) && blas_takes(a.dtype) ? " by BLAS" : " by the portable loops";
  if (!reads_in_place(a, g.m, g.k, extent)) text += "; the left side is copied first (its axes do not merge)";
  if (!reads_in_place(b, g.k, g.n, extent)) text += "; the right side is copied first (its axes do not merge)";
  if (!reads_in_place(out, g.m, g.n, extent)) text += "; the product is written to a buffer, then into place";
  return text;
}

}  // namespace einops::detail::einsum
