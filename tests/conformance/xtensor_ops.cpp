// --backend xtensor: every op on xt::xarray, row- and column-major (einmix: einops::EinMix on the
// array's memory); a case passes when both layouts do. Inputs are filled and results read through xtensor's own
// indexing, so that the adapter's view of the memory is checked, not assumed.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <einops/xtensor.hpp>

#include "adapter_cases.hpp"
#include "backend.hpp"
#include "einmix_case.hpp"

namespace conformance {
namespace adapters::xtensor {
namespace {

/// Calls f(index, position) for every multi-index of `shape` in row-major order.
template <class F>
void for_each_index(std::span<const std::int64_t> shape, F&& f) {
  std::int64_t count = 1;
  for (std::int64_t length : shape) count *= length;
  std::vector<std::size_t> index(shape.size(), 0);
  for (std::int64_t position = 0; position < count; ++position) {
    f(index, position);
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < static_cast<std::size_t>(shape[d])) break;
      index[d] = 0;
    }
  }
}

template <class T, xt::layout_type L>
xt::xarray<T, L> to_xarray(const einops::AnyTensor& x) {
  auto out = xt::xarray<T, L>::from_shape(std::vector<std::size_t>(x.shape().begin(), x.shape().end()));
  const T* values = static_cast<const T*>(x.data());  // row-major contiguous (inputs.cpp)
  for_each_index(x.shape(), [&](const std::vector<std::size_t>& index, std::int64_t position) {
    out.element(index.begin(), index.end()) = values[position];
  });
  return out;
}

template <class X>
einops::AnyTensor from_xtensor(const X& r) {
  using T = typename X::value_type;
  const einops::Shape shape(r.shape().begin(), r.shape().end());
  einops::Tensor<T> out(shape);
  for_each_index(shape, [&](const std::vector<std::size_t>& index, std::int64_t position) {
    out.data()[position] = r.element(index.begin(), index.end());
  });
  return out;
}

template <class F>
void with_element(einops::DType dtype, F&& f) {
  switch (dtype) {
    case einops::DType::float64: f(double{}); break;
    case einops::DType::int64: f(std::int64_t{}); break;
    default: f(bool{}); break;
  }
}

template <class T, xt::layout_type L>
Outcome run_typed(const Case& c, const Call& call) {
  std::vector<xt::xarray<T, L>> xs;
  for (const einops::AnyTensor& input : call.inputs) xs.push_back(to_xarray<T, L>(input));
  const auto arrays = [](const std::vector<xt::xarray<T, L>>& list) {
    std::vector<einops::AnyTensor> converted;
    for (const auto& x : list) converted.push_back(from_xtensor(x));
    return converted;
  };
  if (c.op == "rearrange" || c.op == "repeat" || c.op == "reduce") {
    const auto planned = planned_result(c, call);
    const einops::DType result_dtype = planned ? planned->dtype : call.dtype;
    const auto arrow = [&](const auto& x) -> einops::AnyTensor {
      if (c.op == "rearrange") return from_xtensor(einops::rearrange(x, c.pattern, call.lengths));
      if (c.op == "repeat") return from_xtensor(einops::repeat(x, c.pattern, call.lengths));
      // The result's element type as numpy's rule gives it (sum of bool: int64; any: bool).
      if (result_dtype == einops::dtype_v<T>)
        return from_xtensor(einops::reduce(x, c.pattern, call.reduction, call.lengths));
      if (result_dtype == einops::DType::boolean)
        return from_xtensor(einops::reduce<bool>(x, c.pattern, call.reduction, call.lengths));
      return from_xtensor(einops::reduce<std::int64_t>(x, c.pattern, call.reduction, call.lengths));
    };
    return expect_array(
        c, [&] { return call.list ? arrow(xs) : arrow(xs.front()); }, value_match(c));
  }
  if (c.op == "pack")
    return expect_result(
        c, [&] { return einops::pack(xs, c.pattern); },
        [&](const auto& packed) { return check_packed(c, from_xtensor(packed.tensor), packed.packed_shapes); });
  if (c.op == "unpack")
    return expect_result(
        c, [&] { return einops::unpack(xs.front(), call.packed, c.pattern); },
        [&](const std::vector<xt::xarray<T, L>>& parts) { return check_parts(c, arrays(parts)); });
  if (c.op == "einsum") {
    if (xs.size() > 4) return Outcome::fail("more than 4 einsum operands: not instantiated in this runner");
    return expect_array(
        c,
        [&]() -> einops::AnyTensor {
          switch (xs.size()) {
            case 1: return from_xtensor(einops::einsum(xs[0], c.pattern));
            case 2: return from_xtensor(einops::einsum(xs[0], xs[1], c.pattern));
            case 3: return from_xtensor(einops::einsum(xs[0], xs[1], xs[2], c.pattern));
            default: return from_xtensor(einops::einsum(xs[0], xs[1], xs[2], xs[3], c.pattern));
          }
        },
        value_match(c));
  }
  return expect_result(
      c, [&] { return einops::parse_shape(xs.front(), c.pattern); },
      [&](const einops::ParsedShape& parsed) { return check_parsed_shape(c, parsed); });
}

/// einmix: einops::EinMix applied to the array's memory (einops::view, no copy).
template <xt::layout_type L>
Outcome run_einmix(const Case& c, const Call& call) {
  return run_builtin_einmix(c, [&](const einops::EinMix& mix) -> einops::AnyTensor {
    const auto x = to_xarray<double, L>(call.inputs.front());
    return mix(einops::view(x));  // a new tensor: no view of x outlives it
  });
}

Outcome run(const Case& c) {
  Call call;
  if (std::string why = read_call(c, call); !why.empty()) return Outcome::fail("malformed case: " + why);
  static const char* const layouts[2] = {"row_major", "column_major"};
  return in_both_layouts(layouts, [&](int layout) {
    if (c.op == "einmix")
      return layout == 0 ? run_einmix<xt::layout_type::row_major>(c, call)
                         : run_einmix<xt::layout_type::column_major>(c, call);
    Outcome outcome;
    with_element(call.dtype, [&](auto element) {
      using T = decltype(element);
      outcome = layout == 0 ? run_typed<T, xt::layout_type::row_major>(c, call)
                            : run_typed<T, xt::layout_type::column_major>(c, call);
    });
    return outcome;
  });
}

}  // namespace
}  // namespace adapters::xtensor

void register_xtensor_ops(OpTable& ops) {
  for (const char* op : {"rearrange", "reduce", "repeat", "pack", "unpack", "parse_shape", "einsum", "einmix"})
    ops.emplace(op, &adapters::xtensor::run);
}

}  // namespace conformance
