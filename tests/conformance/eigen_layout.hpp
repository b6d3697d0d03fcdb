// The eigen backend in one memory layout: the case's inputs become Eigen::Tensors of that layout
// (filled through Eigen's own indexing), the adapter's operations run on them with the result's
// rank named as a user of a run-time pattern names it, and the Eigen results are read back
// through Eigen's own indexing. Instantiated once per layout (eigen_colmajor.cpp, eigen_rowmajor.cpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <einops/eigen.hpp>

#include "adapter_cases.hpp"
#include "einmix_case.hpp"

namespace conformance::adapters::eigen {

template <int Layout>
Outcome run_case(const Case& c, const Call& call);

// ---- converting with Eigen's own indexing (independent of the adapter) -----------------------

/// Calls f(index) for every multi-index of `shape` in row-major order, with its row-major position.
template <std::size_t N, class F>
void for_each_index(const einops::Shape& shape, F&& f) {
  std::int64_t count = 1;
  for (std::int64_t length : shape) count *= length;
  std::array<Eigen::Index, N> index{};
  for (std::int64_t position = 0; position < count; ++position) {
    f(index, position);
    for (std::size_t d = N; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

template <class T, std::size_t N, int Layout>
Eigen::Tensor<T, static_cast<int>(N), Layout> to_eigen(const einops::AnyTensor& x) {
  std::array<Eigen::Index, N> dims{};
  for (std::size_t d = 0; d < N; ++d) dims[d] = x.shape()[d];
  Eigen::Tensor<T, static_cast<int>(N), Layout> out(dims);
  const T* values = static_cast<const T*>(x.data());  // row-major contiguous (inputs.cpp)
  if constexpr (N == 0) out() = values[0];            // (Eigen indexes a rank-0 tensor with no array)
  else
    for_each_index<N>(einops::Shape(x.shape().begin(), x.shape().end()),
                      [&](const auto& index, std::int64_t position) { out(index) = values[position]; });
  return out;
}

template <class T, int N, int Layout>
einops::AnyTensor from_eigen(const Eigen::Tensor<T, N, Layout>& r) {
  einops::Shape shape(static_cast<std::size_t>(N));
  for (std::size_t d = 0; d < shape.size(); ++d) shape[d] = r.dimension(static_cast<Eigen::Index>(d));
  einops::Tensor<T> out(shape);
  if constexpr (N == 0) out.data()[0] = r();
  else
    for_each_index<static_cast<std::size_t>(N)>(
        shape, [&](const auto& index, std::int64_t position) { out.data()[position] = r(index); });
  return out;
}

/// Calls f(std::integral_constant<std::size_t, R>) for R == rank <= Max; false when rank > Max.
template <std::size_t Max, class F, std::size_t... R>
bool with_rank(std::size_t rank, F&& f, std::index_sequence<R...>) {
  return ((rank == R ? (f(std::integral_constant<std::size_t, R>{}), true) : false) || ...);
}
template <std::size_t Max, class F>
bool with_rank(std::size_t rank, F&& f) {
  return with_rank<Max>(rank, std::forward<F>(f), std::make_index_sequence<Max + 1>{});
}

/// Calls f(T{}) for the corpus' input dtypes.
template <class F>
void with_element(einops::DType dtype, F&& f) {
  switch (dtype) {
    case einops::DType::float64: f(double{}); break;
    case einops::DType::int64: f(std::int64_t{}); break;
    default: f(bool{}); break;
  }
}

/// A copy of a built-in result that may be a view of an Eigen input about to be destroyed.
inline einops::AnyTensor owned(const einops::AnyTensor& y) {
  einops::AnyTensor out(y.dtype(), einops::Shape(y.shape().begin(), y.shape().end()));
  einops::rearrange_into(y, out, "... -> ...");
  return out;
}

[[noreturn]] inline void rank_out_of_range() {
  throw std::out_of_range("a rank above the runner's static ranks (" + std::to_string(kMaxStaticRank) + ")");
}

// ---- the operations ------------------------------------------------------------------------------
// Each operation first picks, from run-time ranks, the instantiation that makes the call (the
// only code instantiated per pair of ranks), then judges the result once. Up to kMaxTypedRank
// the result's rank is named and the result is an Eigen::Tensor; beyond, the spelling without a
// rank gives a built-in tensor (also a documented result of the adapter).

template <std::size_t M, class X>
einops::AnyTensor rearrange_with_rank(const Case& c, const Call& call, const X& x) {
  return from_eigen(einops::rearrange<M>(x, c.pattern, call.lengths));
}
template <std::size_t M, class X>
einops::AnyTensor repeat_with_rank(const Case& c, const Call& call, const X& x) {
  return from_eigen(einops::repeat<M>(x, c.pattern, call.lengths));
}
template <std::size_t M, class R, class X>
einops::AnyTensor reduce_with_rank(const Case& c, const Call& call, const X& x) {
  return from_eigen(einops::reduce<M, R>(x, c.pattern, call.reduction, call.lengths));
}

/// rearrange/reduce/repeat of `x` (an Eigen::Tensor of rank N, or a list of them). A named
/// reduce result has numpy's element type (sum of bool: int64; any: bool).
template <class T, std::size_t N, class X>
einops::AnyTensor arrow_with_input(const Case& c, const Call& call, const X& x, std::size_t result_rank,
                                   einops::DType result_dtype) {
  if constexpr (N <= kMaxTypedRank) {
    using Other = std::conditional_t<std::is_same_v<T, bool>, std::int64_t, bool>;  // the other result type
    einops::AnyTensor result;
    const bool typed = with_rank<kMaxTypedRank>(result_rank, [&](auto m) {
      constexpr std::size_t M = decltype(m)::value;
      if (c.op == "rearrange") result = rearrange_with_rank<M>(c, call, x);
      else if (c.op == "repeat") result = repeat_with_rank<M>(c, call, x);
      else if (result_dtype == einops::dtype_v<T>) result = reduce_with_rank<M, T>(c, call, x);
      else result = reduce_with_rank<M, Other>(c, call, x);
    });
    if (typed) return result;
  }
  if (c.op == "rearrange") return owned(einops::rearrange(x, c.pattern, call.lengths));
  if (c.op == "repeat") return owned(einops::repeat(x, c.pattern, call.lengths));
  return owned(einops::reduce(x, c.pattern, call.reduction, call.lengths));
}

template <int Layout>
einops::AnyTensor arrow(const Case& c, const Call& call) {
  const std::optional<PlannedResult> planned = planned_result(c, call);
  const std::size_t result_rank = planned ? planned->rank : 0;
  const einops::DType result_dtype = planned ? planned->dtype : call.dtype;
  einops::AnyTensor result;
  bool in_range = false;
  with_element(call.dtype, [&](auto element) {
    using T = decltype(element);
    in_range = with_rank<kMaxStaticRank>(call.inputs.front().rank(), [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      if (!call.list) {
        result =
            arrow_with_input<T, N>(c, call, to_eigen<T, N, Layout>(call.inputs.front()), result_rank, result_dtype);
        return;
      }
      std::vector<Eigen::Tensor<T, static_cast<int>(N), Layout>> xs;
      std::vector<einops::AnyTensor> views;  // tensors of unequal ranks, which no std::vector of one type holds
      for (const einops::AnyTensor& input : call.inputs) {
        if (input.rank() == N) xs.push_back(to_eigen<T, N, Layout>(input));
        else views.push_back(input);
      }
      if (views.empty()) {
        result = arrow_with_input<T, N>(c, call, xs, result_rank, result_dtype);
        return;
      }
      for (const auto& x : xs) views.push_back(einops::AnyTensor(einops::view(x)));
      const std::span<const einops::AnyTensor> list(views);
      if (c.op == "rearrange") result = owned(einops::rearrange(list, c.pattern, call.lengths));
      else if (c.op == "repeat") result = owned(einops::repeat(list, c.pattern, call.lengths));
      else result = owned(einops::reduce(list, c.pattern, call.reduction, call.lengths));
    });
  });
  if (!in_range) rank_out_of_range();
  return result;
}

template <int Layout>
Outcome run_arrow(const Case& c, const Call& call) {
  return expect_array(
      c, [&] { return arrow<Layout>(c, call); }, value_match(c));
}

/// A packed tensor and its shapes, the tensor read back into a built-in one.
struct PackResult {
  einops::AnyTensor tensor;
  std::vector<einops::Shape> packed_shapes;
};

template <int Layout>
PackResult pack(const Case& c, const Call& call) {
  const std::size_t packed_rank = pack_rank(c.pattern).value_or(0);
  bool one_rank = !call.inputs.empty();
  for (const einops::AnyTensor& input : call.inputs) one_rank = one_rank && input.rank() == call.inputs.front().rank();
  PackResult result;
  bool in_range = true;
  with_element(call.dtype, [&](auto element) {
    using T = decltype(element);
    if (one_rank) {
      // Tensors of one type: the adapter's own pack.
      in_range = with_rank<kMaxStaticRank>(call.inputs.front().rank(), [&](auto n) {
        constexpr std::size_t N = decltype(n)::value;
        std::vector<Eigen::Tensor<T, static_cast<int>(N), Layout>> xs;
        for (const einops::AnyTensor& input : call.inputs) xs.push_back(to_eigen<T, N, Layout>(input));
        bool typed = false;
        if constexpr (N <= kMaxTypedRank)
          typed = with_rank<kMaxTypedRank>(packed_rank, [&](auto m) {
            auto packed = einops::pack<decltype(m)::value>(xs, c.pattern);
            result = {from_eigen(packed.tensor), std::move(packed.packed_shapes)};
          });
        if (!typed) {
          auto packed = einops::pack(xs, c.pattern);  // a built-in result
          result = {packed.tensor, std::move(packed.packed_shapes)};
        }
      });
      return;
    }
    // Tensors of different ranks (different Eigen types): packed as built-in views of their
    // memory, the result copied into an Eigen::Tensor.
    std::vector<std::shared_ptr<void>> eigen_inputs;  // what the views point into
    std::vector<einops::AnyTensor> views;
    for (const einops::AnyTensor& input : call.inputs)
      in_range = with_rank<kMaxStaticRank>(input.rank(),
                                           [&](auto n) {
                                             constexpr std::size_t N = decltype(n)::value;
                                             auto x = std::make_shared<Eigen::Tensor<T, static_cast<int>(N), Layout>>(
                                                 to_eigen<T, N, Layout>(input));
                                             views.push_back(einops::AnyTensor(einops::view(*x)));
                                             eigen_inputs.push_back(std::move(x));
                                           }) &&
                 in_range;
    if (!in_range) return;
    auto packed = einops::pack(std::span<const einops::AnyTensor>(views), c.pattern);
    const bool typed = with_rank<kMaxTypedRank>(packed_rank, [&](auto m) {
      using Packed = Eigen::Tensor<T, static_cast<int>(decltype(m)::value), Layout>;
      result = {from_eigen(einops::copy_to<Packed>(packed.tensor)), packed.packed_shapes};
    });
    if (!typed) result = {packed.tensor, std::move(packed.packed_shapes)};
  });
  if (!in_range) rank_out_of_range();
  return result;
}

template <int Layout>
Outcome run_pack(const Case& c, const Call& call) {
  return expect_result(
      c, [&] { return pack<Layout>(c, call); },
      [&](const PackResult& packed) { return check_packed(c, packed.tensor, packed.packed_shapes); });
}

template <int Layout>
std::vector<einops::AnyTensor> unpack(const Case& c, const Call& call) {
  const std::vector<std::size_t> ranks = unpack_ranks(c.pattern, call.packed).value_or(std::vector<std::size_t>{});
  const bool one_rank =
      !ranks.empty() && std::all_of(ranks.begin(), ranks.end(), [&](std::size_t r) { return r == ranks[0]; });
  std::vector<einops::AnyTensor> parts;
  bool in_range = false;
  with_element(call.dtype, [&](auto element) {
    using T = decltype(element);
    in_range = with_rank<kMaxStaticRank>(call.inputs.front().rank(), [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      const auto x = to_eigen<T, N, Layout>(call.inputs.front());
      if constexpr (N <= kMaxTypedRank) {
        if (one_rank && with_rank<kMaxTypedRank>(ranks[0], [&](auto m) {
              for (const auto& part : einops::unpack<decltype(m)::value>(x, call.packed, c.pattern))
                parts.push_back(from_eigen(part));
            }))
          return;
      }
      // Built-in parts: views of the Eigen tensor's memory (copied here, before it goes).
      for (const einops::Tensor<T>& part : einops::unpack(x, call.packed, c.pattern)) {
        if (part.size() > 0 && (part.data() < x.data() || part.data() >= x.data() + x.size()))
          throw std::logic_error("a part is not a view of the packed tensor");
        parts.push_back(owned(part));
      }
    });
  });
  if (!in_range) rank_out_of_range();
  return parts;
}

template <int Layout>
Outcome run_unpack(const Case& c, const Call& call) {
  return expect_result(
      c, [&] { return unpack<Layout>(c, call); },
      [&](const std::vector<einops::AnyTensor>& parts) { return check_parts(c, parts); });
}

template <int Layout>
einops::AnyTensor einsum(const Case& c, const Call& call) {
  const auto& in = call.inputs;
  if (in.size() > 4) throw std::out_of_range("more than 4 einsum operands: not instantiated in this runner");
  std::vector<std::size_t> ranks;
  for (const einops::AnyTensor& input : in) ranks.push_back(input.rank());
  const std::size_t result_rank = einsum_rank(c.pattern, ranks).value_or(0);
  einops::AnyTensor result;
  bool in_range = false;
  with_element(call.dtype, [&](auto element) {
    using T = decltype(element);
    in_range = with_rank<kMaxStaticRank>(ranks.front(), [&](auto n) {
      constexpr std::size_t N = decltype(n)::value;
      // The first operand an Eigen::Tensor (it sets the result's type), the others as they come.
      const auto first = to_eigen<T, N, Layout>(in.front());
      if constexpr (N <= kMaxTypedRank) {
        if (in.size() <= 2 && with_rank<kMaxTypedRank>(result_rank, [&](auto m) {
              constexpr std::size_t M = decltype(m)::value;
              result = from_eigen(in.size() == 1 ? einops::einsum<M>(first, c.pattern)
                                                 : einops::einsum<M>(first, in[1], c.pattern));
            }))
          return;
      }
      switch (in.size()) {  // a built-in result
        case 1: result = einops::einsum(first, c.pattern); break;
        case 2: result = einops::einsum(first, in[1], c.pattern); break;
        case 3: result = einops::einsum(first, in[1], in[2], c.pattern); break;
        default: result = einops::einsum(first, in[1], in[2], in[3], c.pattern); break;
      }
    });
  });
  if (!in_range) rank_out_of_range();
  return result;
}

template <int Layout>
Outcome run_einsum(const Case& c, const Call& call) {
  return expect_array(
      c, [&] { return einsum<Layout>(c, call); }, value_match(c));
}

template <int Layout>
einops::ParsedShape parse_shape(const Case& c, const Call& call) {
  einops::ParsedShape parsed;
  bool in_range = false;
  with_element(call.dtype, [&](auto element) {
    using T = decltype(element);
    in_range = with_rank<kMaxStaticRank>(call.inputs.front().rank(), [&](auto n) {
      parsed = einops::parse_shape(to_eigen<T, decltype(n)::value, Layout>(call.inputs.front()), c.pattern);
    });
  });
  if (!in_range) rank_out_of_range();
  return parsed;
}

template <int Layout>
Outcome run_parse_shape(const Case& c, const Call& call) {
  return expect_result(
      c, [&] { return parse_shape<Layout>(c, call); },
      [&](const einops::ParsedShape& parsed) { return check_parsed_shape(c, parsed); });
}

/// einmix: einops::EinMix applied to the Eigen tensor's memory (einops::view, no copy).
template <int Layout>
Outcome run_einmix(const Case& c, const Call& call) {
  return run_builtin_einmix(c, [&](const einops::EinMix& mix) {
    einops::AnyTensor result;
    if (!with_rank<kMaxStaticRank>(call.inputs.front().rank(), [&](auto n) {
          const auto x = to_eigen<double, decltype(n)::value, Layout>(call.inputs.front());
          result = mix(einops::view(x));  // a new tensor: no view of x outlives it
        }))
      rank_out_of_range();
    return result;
  });
}

template <int Layout>
Outcome run_case(const Case& c, const Call& call) {
  if (c.op == "einmix") return run_einmix<Layout>(c, call);
  if (c.op == "rearrange" || c.op == "reduce" || c.op == "repeat") return run_arrow<Layout>(c, call);
  if (c.op == "pack") return run_pack<Layout>(c, call);
  if (c.op == "unpack") return run_unpack<Layout>(c, call);
  if (c.op == "einsum") return run_einsum<Layout>(c, call);
  return run_parse_shape<Layout>(c, call);
}

}  // namespace conformance::adapters::eigen
