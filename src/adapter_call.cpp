// The non-template half of the adapters: calls planned before their result exists, and the
// recipes for backends that bring their own ops.
#include "einops/detail/adapter_call.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

#include "einops/detail/kernels.hpp"
#include "einops/detail/platform.hpp"
#include "einops/pack.hpp"
#include "einops/pattern_checks.hpp"
#include "call_context.hpp"
#include "pack_checks.hpp"
#include "execute.hpp"
#include "operation_patterns.hpp"

namespace einops::detail {
namespace {

std::string label_of(Operation operation, std::optional<std::string_view> reduction) {
  return operation == Operation::reduce && reduction ? std::string(*reduction) : std::string(operation_name(operation));
}

std::string describe(std::size_t rank, DType dtype) {
  return (rank == dynamic_rank ? std::string("any rank") : "rank " + std::to_string(rank)) + " holding " +
         std::string(dtype_name(dtype));
}

/// Why a result of `rank`/`dtype` cannot take a result of `shape`/`actual`, or empty.
std::string result_mismatch(std::span<const std::int64_t> shape, DType actual, std::size_t rank, DType dtype,
                            std::string_view how_to_ask) {
  if (rank != dynamic_rank && rank != shape.size())
    return "The result has shape " + format_shape(shape) + " (rank " + std::to_string(shape.size()) +
           "), but the requested result type has rank " + std::to_string(rank) + ". " + std::string(how_to_ask);
  if (actual != dtype)
    return "The result's dtype is " + std::string(dtype_name(actual)) +
           " (numpy's rule for this reduction), but the requested result type is " + describe(rank, dtype) + ". " +
           std::string(how_to_ask);
  return {};
}

/// The error of a result that does not fit the requested type (the inputs were fine).
[[noreturn]] void fail_for(std::string_view operation, std::string_view pattern, const std::string& reason) {
  throw_call_error(operation, pattern, "", reason);
}

}  // namespace

// ---- planned calls ----------------------------------------------------------------------------

PlannedCall::PlannedCall(Operation operation, std::optional<std::string_view> reduction, TensorRef x,
                         PatternRef pattern, const AxisLengths& lengths)
    : plan_(get_plan(operation, operation == Operation::reduce ? reduction : std::nullopt, pattern, x.shape, lengths)),
      x_(x),
      pattern_(pattern.text),
      lengths_(lengths),
      label_(label_of(operation, reduction)) {
  check_reduction_dtype(*plan_, x.dtype, x.shape, lengths_);
}

std::span<const std::int64_t> PlannedCall::output_shape() const { return plan_->output_shape; }

DType PlannedCall::output_dtype() const { return result_dtype(*plan_, x_.dtype); }

void PlannedCall::expect_result(std::size_t rank, DType dtype, std::string_view how_to_ask) const {
  const std::string why = result_mismatch(plan_->output_shape, output_dtype(), rank, dtype, how_to_ask);
  if (why.empty()) return;
  const CallContext context{.operation = label_, .pattern = pattern_, .shape = x_.shape, .lengths = &lengths_};
  context.fail(why);
}

void PlannedCall::write_into(TensorRef out) const { execute(*plan_, x_, out); }

AnyTensor PlannedCall::result() const { return execute_new(*plan_, x_, lengths_); }

void expect_result_of(const AnyTensor& y, std::size_t rank, DType dtype, std::string_view operation,
                      std::string_view pattern, std::string_view how_to_ask) {
  const std::string why = result_mismatch(y.shape(), y.dtype(), rank, dtype, how_to_ask);
  if (why.empty()) return;
  fail_for(operation, pattern, why);
}

void fail_result_rank(std::string_view operation, std::string_view pattern, std::span<const std::int64_t> shape,
                      std::size_t rank) {
  fail_for(operation, pattern,
           "The backend's ops gave a result of shape " + format_shape(shape) + ", but the requested rank is " +
               std::to_string(rank));
}

void copy_into(const AnyTensor& y, TensorRef out) {
  if (y.dtype() != out.dtype || !std::equal(y.shape().begin(), y.shape().end(), out.shape.begin(), out.shape.end()))
    throw EinopsError("copy_into: the target is " + format_shape(out.shape) + " " + std::string(dtype_name(out.dtype)) +
                      ", the source " + format_shape(y.shape()) + " " + std::string(dtype_name(y.dtype())));
  copy_layout(dtype_size(y.dtype()), y.shape(), y.data(), y.strides(), out.data, out.strides);
}

// ---- backends with their own ops ----------------------------------------------------------------

OpsPackLayout ops_pack_layout(std::span<const Shape> shapes, std::string_view pattern) {
  // The shapes as metadata-only tensors, so that messages name them as pack's own messages do.
  std::vector<AnyTensor> inputs;
  inputs.reserve(shapes.size());
  for (const Shape& shape : shapes) inputs.emplace_back(DType::uint8, nullptr, nullptr, shape, Shape(shape.size(), 0));
  const CallContext context{"pack", pattern, inputs};
  const auto parsed = pack_pattern(pattern, context);
  const std::size_t before = parsed->before.size();
  const std::size_t after = parsed->after.size();
  if (shapes.empty()) context.fail("pack needs at least one tensor");
  check_pack_shapes(context, *parsed, shapes.size(),
                    [&](std::size_t i) { return std::span<const std::int64_t>(shapes[i]); });
  OpsPackLayout layout;
  layout.axis = before;
  for (const Shape& shape : shapes) {
    const auto begin = shape.begin() + static_cast<std::ptrdiff_t>(before);
    const auto end = shape.end() - static_cast<std::ptrdiff_t>(after);
    std::int64_t product = 1;
    for (auto it = begin; it != end; ++it) product = packed_mul(context, product, *it);
    layout.packed_shapes.emplace_back(begin, end);
    Shape flattened(shape.begin(), begin);
    flattened.push_back(product);
    flattened.insert(flattened.end(), end, shape.end());
    layout.flattened_shapes.push_back(std::move(flattened));
  }
  return layout;
}

OpsUnpackLayout ops_unpack_layout(std::span<const std::int64_t> shape, const std::vector<Shape>& packed_shapes,
                                  std::string_view pattern) {
  // The built-in unpack checks everything and computes each part's shape; run on a metadata-only
  // tensor (all strides 0, so no address moves) it touches no data.
  static const unsigned char placeholder = 0;
  const AnyTensor meta(DType::uint8, nullptr, const_cast<unsigned char*>(&placeholder),
                       Shape(shape.begin(), shape.end()), Shape(shape.size(), 0));
  const std::vector<AnyTensor> parts = unpack(meta, packed_shapes, pattern);
  const auto parsed = pack_pattern(
      pattern, CallContext{.operation = "unpack", .pattern = pattern, .shape = shape, .packed_shapes = &packed_shapes});
  OpsUnpackLayout layout;
  layout.axis = parsed->before.size();
  std::int64_t begin = 0;
  for (const AnyTensor& part : parts) {
    std::int64_t length = 1;
    const std::size_t first = layout.axis;
    const std::size_t last = part.rank() - parsed->after.size();
    for (std::size_t d = first; d < last; ++d) length *= part.shape()[d];
    layout.parts.push_back({begin, begin + length, Shape(part.shape().begin(), part.shape().end())});
    begin += length;
  }
  return layout;
}

}  // namespace einops::detail
