// Fuzz target (b): the whole call path of rearrange, reduce and repeat on small tensors.
//
// The input decodes to a call (ops_input.hpp). Every call must either throw EinopsError with the
// library's message header, or return a result whose shape is the plan's and whose elements equal
// a naive reference (one index at a time, from the plan's elementary axes, no merging, no
// kernels). A second identical call, now cached, must give the same bytes; the `_into` variant,
// the same result again. check_shape on the left side must hold and bind the plan's lengths.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <einops/einops.hpp>

#include "fuzz_check.hpp"
#include "ops_input.hpp"

namespace {

using namespace einops;
using einops_fuzz::Call;

/// Inputs stay below it (ops_input.hpp); larger results exercise the allocation limit.
constexpr std::size_t kAllocationLimit = 1 << 20;

/// Input values: small integers, so that sums are exact in every type and order. Products see
/// only -1, 0 and 1, so that they neither overflow nor depend on the order of multiplication.
double input_value(std::size_t i, bool for_product) {
  return for_product ? static_cast<double>(static_cast<int>((i * 37 + 11) % 3) - 1)
                     : static_cast<double>(static_cast<int>((i * 37 + 11) % 5) - 2);
}

template <class F>
void with_type(DType dtype, F&& f) {
  switch (dtype) {
    case DType::boolean: f(bool{}); return;
    case DType::int32: f(std::int32_t{}); return;
    case DType::int64: f(std::int64_t{}); return;
    case DType::uint64: f(std::uint64_t{}); return;
    case DType::float32: f(float{}); return;
    case DType::float64: f(double{}); return;
    default: FUZZ_REQUIRE(false, "unexpected dtype " + std::string(dtype_name(dtype)));
  }
}

/// Element `offset` (in elements) of `x` as a double, or as its integer bits for int64/uint64.
struct Number {
  double real = 0;
  std::uint64_t bits = 0;
  bool integral = false;
};
Number read(const AnyTensor& x, std::int64_t offset) {
  Number n;
  with_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T value = static_cast<const T*>(x.data())[offset];
    n.real = static_cast<double>(value);
    n.integral = std::is_integral_v<T>;
    if constexpr (std::is_integral_v<T>) n.bits = static_cast<std::uint64_t>(value);
  });
  return n;
}

/// The input: a zero-filled tensor of the decoded shape, filled; optionally seen through a view
/// that walks dimension 0 backwards (negative stride).
AnyTensor make_input(const Call& call, bool for_product) {
  AnyTensor x(call.dtype, call.shape);
  with_type(call.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* data = static_cast<T*>(x.data());
    for (std::int64_t i = 0; i < x.size(); ++i)
      data[i] = static_cast<T>(input_value(static_cast<std::size_t>(i), for_product));
  });
  if (!call.reversed || call.shape.empty() || x.size() == 0) return x;
  Shape strides(x.strides().begin(), x.strides().end());
  const std::int64_t last_row = (call.shape[0] - 1) * strides[0];
  strides[0] = -strides[0];
  char* origin = static_cast<char*>(x.data()) + last_row * static_cast<std::int64_t>(dtype_size(call.dtype));
  return AnyTensor(call.dtype, x.storage(), origin, call.shape, strides);
}

std::optional<std::string_view> reduction_of(const Call& call) {
  if (call.operation == Operation::reduce && !call.callable) return call.reduction;
  return std::nullopt;
}

AnyTensor run(const Call& call, const AnyTensor& x) {
  const auto pattern = runtime(call.pattern);
  if (call.list) {  // the same tensor as a list of its slices along dimension 0
    std::vector<AnyTensor> slices;
    const Shape rest(call.shape.begin() + 1, call.shape.end());
    for (std::int64_t i = 0; i < call.shape[0]; ++i)
      slices.emplace_back(
          x.dtype(), x.storage(),
          static_cast<char*>(x.data()) + i * x.strides()[0] * static_cast<std::int64_t>(dtype_size(x.dtype())), rest,
          Shape(x.strides().begin() + 1, x.strides().end()));
    switch (call.operation) {
      case Operation::rearrange: return rearrange(slices, pattern, call.lengths);
      case Operation::repeat: return repeat(slices, pattern, call.lengths);
      case Operation::reduce: return reduce(slices, pattern, call.reduction, call.lengths);
    }
  }
  if (call.callable) {  // a user reduction: the sum, in double
    const Tensor<double> typed = x.as<double>();
    return reduce(
        typed, pattern,
        [](std::span<const double> group) {
          double total = 0;
          for (double v : group) total += v;
          return total;
        },
        call.lengths);
  }
  switch (call.operation) {
    case Operation::rearrange: return rearrange(x, pattern, call.lengths);
    case Operation::repeat: return repeat(x, pattern, call.lengths);
    case Operation::reduce: return reduce(x, pattern, call.reduction, call.lengths);
  }
  return {};
}

/// The expected result, element by element in row-major output order.
struct Expected {
  std::vector<Number> values;
};

Expected reference(const Plan& plan, const AnyTensor& x, const Call& call) {
  const std::size_t in_axes = plan.input_axis_lengths.size();
  // Every axis index: input axes first, then the added (output-only) axes.
  std::vector<std::int64_t> lengths(plan.input_axis_lengths.begin(), plan.input_axis_lengths.end());
  std::vector<int> added_index(plan.output_axis_source.size(), -1);
  for (std::size_t o = 0; o < plan.output_axis_source.size(); ++o)
    if (plan.output_axis_source[o] < 0) {
      added_index[o] = static_cast<int>(lengths.size());
      lengths.push_back(plan.output_axis_lengths[o]);
    }
  const auto output_count = static_cast<std::size_t>(plan.output_size);
  const std::string reduction = call.callable ? "sum" : std::string(call.reduction);
  const bool reducing = !plan.reduced_axes.empty() && (plan.reduction.has_value() || call.callable);
  std::vector<double> real(output_count, 0.0);
  std::vector<std::uint64_t> bits(output_count, 0);
  std::vector<bool> seen(output_count, false);
  if (reducing && (reduction == "prod" || reduction == "all")) {
    real.assign(output_count, 1.0);
    bits.assign(output_count, 1);
  }
  bool empty = false;
  for (std::int64_t length : lengths) empty = empty || length == 0;
  std::vector<std::int64_t> index(lengths.size(), 0);
  while (!empty) {
    // Input offset: each input dimension's axes form its index, row-major within the dimension.
    std::int64_t offset = 0;
    for (std::size_t a = 0; a < in_axes;) {
      const int dim = plan.input_axis_dim[a];
      std::int64_t within = 0;
      for (; a < in_axes && plan.input_axis_dim[a] == dim; ++a) within = within * lengths[a] + index[a];
      offset += within * x.strides()[static_cast<std::size_t>(dim)];
    }
    std::int64_t out = 0;
    for (std::size_t o = 0; o < plan.output_axis_source.size();) {
      const int dim = plan.output_axis_dim[o];
      std::int64_t within = 0;
      for (; o < plan.output_axis_source.size() && plan.output_axis_dim[o] == dim; ++o) {
        const int source = plan.output_axis_source[o];
        const auto axis = static_cast<std::size_t>(source >= 0 ? source : added_index[o]);
        within = within * lengths[axis] + index[axis];
      }
      out = out * plan.output_shape[static_cast<std::size_t>(dim)] + within;
    }
    const Number v = read(x, offset);
    const auto at = static_cast<std::size_t>(out);
    if (!reducing) {
      real[at] = v.real;
      bits[at] = v.bits;
    } else if (reduction == "sum" || reduction == "mean") {
      real[at] += v.real;
      bits[at] += v.bits;  // wraps like the library's int64 accumulator
    } else if (reduction == "prod") {
      real[at] *= v.real;
      bits[at] *= v.bits;
    } else if (reduction == "min" || reduction == "max") {
      const bool better = reduction == "min" ? v.real < real[at] : v.real > real[at];
      if (!seen[at] || better) real[at] = v.real;
    } else if (reduction == "any") {
      real[at] = (real[at] != 0 || v.real != 0) ? 1 : 0;
    } else if (reduction == "all") {
      real[at] = (real[at] != 0 && v.real != 0) ? 1 : 0;
    }
    seen[at] = true;
    std::size_t a = lengths.size();
    while (a > 0 && ++index[a - 1] == lengths[a - 1]) index[--a] = 0;
    if (a == 0) break;
  }
  Expected expected;
  for (std::size_t i = 0; i < output_count; ++i) {
    Number n;
    n.real = real[i];
    n.bits = bits[i];
    if (reducing && reduction == "mean")
      n.real = plan.reduced_count == 0 ? std::numeric_limits<double>::quiet_NaN()
                                       : real[i] / static_cast<double>(plan.reduced_count);
    // Integer results other than sums and products are small values, exact in `real`.
    const bool accumulated = reducing && (reduction == "sum" || reduction == "prod" || reduction == "mean");
    if (!accumulated) n.bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(n.real));
    expected.values.push_back(n);
  }
  return expected;
}

bool close(double a, double b, DType dtype) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  const double tolerance = dtype == DType::float32 ? 1e-6 : 1e-12;
  return std::fabs(a - b) <= tolerance * std::max(1.0, std::fabs(b));
}

/// Wherever a plan is built, check_shape on the pattern's left side holds for the same shape and
/// the given lengths of its axes, and binds each name to the length the plan inferred.
void check_shape_agrees(const Call& call, const Plan& plan, std::span<const std::int64_t> shape) {
  const auto plan_axis = [&](std::string_view name) {
    for (std::size_t i = 0; i < plan.input_axis_names.size(); ++i)
      if (plan.input_axis_names[i] == name) return static_cast<std::ptrdiff_t>(i);
    return std::ptrdiff_t{-1};
  };
  AxisLengths lengths;  // repeat also sizes axes of the right side only
  for (const auto& [name, length] : call.lengths.entries())
    if (plan_axis(name) >= 0) lengths.add(name, length);
  const std::string left = call.pattern.substr(0, call.pattern.find("->"));
  ParsedShape parsed;
  try {
    parsed = check_shape(shape, runtime(left), lengths);
  } catch (const EinopsError& error) {
    FUZZ_REQUIRE(false, "check_shape refuses what the plan accepted: " + std::string(error.what()));
  }
  for (const auto& [name, length] : parsed) {
    const std::ptrdiff_t axis = plan_axis(name);
    FUZZ_REQUIRE(axis >= 0 && plan.input_axis_lengths[static_cast<std::size_t>(axis)] == length,
                 "check_shape binds " + name + " to " + std::to_string(length) + ", unlike the plan");
  }
}

void check_result(const Call& call, const AnyTensor& x, const AnyTensor& y) {
  const einops::Shared<const einops::Plan> plan =
      make_plan(call.operation, reduction_of(call), std::string_view(call.pattern), x.shape(), call.lengths);
  check_shape_agrees(call, *plan, x.shape());
  FUZZ_REQUIRE(std::equal(y.shape().begin(), y.shape().end(), plan->output_shape.begin(), plan->output_shape.end()),
               "result shape " + detail::format_shape(y.shape()) + " is not the plan's " +
                   detail::format_shape(plan->output_shape));
  const bool reducing = !plan->reduced_axes.empty() && plan->reduction.has_value();
  const DType expected_dtype = call.callable ? DType::float64
                               : reducing    ? reduction_result_dtype(*plan->reduction, x.dtype())
                                             : x.dtype();
  FUZZ_REQUIRE(y.dtype() == expected_dtype, "result dtype " + std::string(dtype_name(y.dtype())));
  const Expected expected = reference(*plan, x, call);
  // Walk the result in row-major order through its own strides (it may be a view).
  const std::size_t rank = y.rank();
  std::vector<std::int64_t> index(rank, 0);
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < rank; ++d) offset += index[d] * y.strides()[d];
    const Number got = read(y, offset);
    const Number& want = expected.values[i];
    const bool ok = got.integral ? got.bits == want.bits : close(got.real, want.real, y.dtype());
    FUZZ_REQUIRE(ok, "element " + std::to_string(i) + " is " + std::to_string(got.real) + ", the reference says " +
                         std::to_string(want.real) + " (" + call.pattern + ")");
    for (std::size_t d = rank; d-- > 0;) {
      if (++index[d] < y.shape()[d]) break;
      index[d] = 0;
    }
  }
}

/// The bytes of `y` in row-major order.
std::vector<unsigned char> bytes_of(const AnyTensor& y) {
  std::vector<unsigned char> out;
  const std::size_t element = dtype_size(y.dtype());
  std::vector<std::int64_t> index(y.rank(), 0);
  for (std::int64_t i = 0; i < y.size(); ++i) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < y.rank(); ++d) offset += index[d] * y.strides()[d];
    const auto* p = static_cast<const unsigned char*>(y.data()) + offset * static_cast<std::int64_t>(element);
    out.insert(out.end(), p, p + element);
    for (std::size_t d = y.rank(); d-- > 0;) {
      if (++index[d] < y.shape()[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

void check_into(const Call& call, const AnyTensor& x, const AnyTensor& y) {
  if (call.list || call.callable) return;
  AnyTensor out(y.dtype(), Shape(y.shape().begin(), y.shape().end()));
  const auto pattern = runtime(call.pattern);
  switch (call.operation) {
    case Operation::rearrange: rearrange_into(x, out, pattern, call.lengths); break;
    case Operation::repeat: repeat_into(x, out, pattern, call.lengths); break;
    case Operation::reduce: reduce_into(x, out, pattern, call.reduction, call.lengths); break;
  }
  FUZZ_REQUIRE(bytes_of(out) == bytes_of(y), "the _into variant gives another result");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool limited = (set_max_allocation_bytes(kAllocationLimit), true);
  (void)limited;
  const std::optional<Call> call = einops_fuzz::decode_call(data, size);
  if (!call) return 0;
  if (call->list && call->shape.empty()) return 0;  // a scalar has no slices
  const AnyTensor x = make_input(*call, call->operation == Operation::reduce && call->reduction == "prod");
  AnyTensor y;
  try {
    y = run(*call, x);
  } catch (const EinopsError& error) {
    const std::string message = error.what();
    FUZZ_REQUIRE(message.rfind("Error while processing ", 0) == 0, "an error without the call's context: " + message);
    return 0;
  }
  check_result(*call, x, y);
  const AnyTensor again = run(*call, x);  // the plan is cached now
  FUZZ_REQUIRE(bytes_of(again) == bytes_of(y), "a repeated call gives another result");
  check_into(*call, x, y);
  return 0;
}
