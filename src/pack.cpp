// pack and unpack: concatenation along the `*` position of flattened parts, and its inverse as
// views (einops/packing.py).
#include "einops/pack.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

#include "einops/detail/kernels.hpp"
#include "einops/detail/platform.hpp"
#include "einops/detail/walk.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"
#include "pack_checks.hpp"

namespace einops {
namespace {

std::int64_t checked_product(std::span<const std::int64_t> lengths, const detail::CallContext& context) {
  std::int64_t product = 1;
  for (std::int64_t length : lengths) product = detail::packed_mul(context, product, length);
  return product;
}

std::string join(std::span<const std::int64_t> lengths) { return detail::format_shape(lengths); }

/// "[[4], [1], [-1, 2]]": packed shapes as einops prints the lists a caller gives it.
std::string python_lists(const std::vector<Shape>& shapes) {
  std::string out = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    out += i ? ", [" : "[";
    for (std::size_t j = 0; j < shapes[i].size(); ++j) out += (j ? ", " : "") + std::to_string(shapes[i][j]);
    out += "]";
  }
  return out + "]";
}

/// Copies `x` into its slice of `out` (the part starting at `start` along the packed dimension).
void copy_into_slice(const AnyTensor& x, const AnyTensor& out, std::size_t before, std::size_t after,
                     std::int64_t start) {
  if (x.size() == 0) return;
  const std::size_t rank = x.rank();
  const std::size_t packed_dim = before;
  const std::int64_t packed_stride = out.strides()[packed_dim];
  detail::Walk walk;
  for (std::size_t d = 0; d < before; ++d) walk.push_output(x.shape()[d], x.strides()[d], out.strides()[d]);
  // The packed part of `x` is laid out row-major inside the packed dimension.
  std::int64_t part_stride = packed_stride;
  const std::size_t part_end = rank - after;
  Shape part_strides(part_end - before);
  for (std::size_t d = part_end; d-- > before;) {
    part_strides[d - before] = part_stride;
    part_stride *= x.shape()[d];
  }
  for (std::size_t d = before; d < part_end; ++d)
    walk.push_output(x.shape()[d], x.strides()[d], part_strides[d - before]);
  for (std::size_t d = part_end; d < rank; ++d)
    walk.push_output(x.shape()[d], x.strides()[d], out.strides()[packed_dim + 1 + (d - part_end)]);
  walk.merge();
  const std::size_t element = dtype_size(x.dtype());
  char* target = static_cast<char*>(out.data()) +
                 static_cast<std::ptrdiff_t>(start * packed_stride) * static_cast<std::ptrdiff_t>(element);
  detail::copy_strided(element, x.data(), target, walk);
}

}  // namespace

Packed<AnyTensor> pack(std::span<const AnyTensor> tensors, pack_pattern pattern_arg) {
  const std::string_view pattern = pattern_arg.text();
  const detail::CallContext context{"pack", pattern, tensors};
  const auto parsed = detail::pack_pattern(pattern, context);
  const std::size_t before = parsed->before.size();
  const std::size_t after = parsed->after.size();
  if (tensors.empty()) context.fail("pack needs at least one tensor");

  detail::check_pack_shapes(context, *parsed, tensors.size(), [&](std::size_t i) { return tensors[i].shape(); });

  Packed<AnyTensor> result;
  const AnyTensor& first = tensors.front();
  std::int64_t total = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const AnyTensor& x = tensors[i];
    const auto shape = x.shape();
    if (x.dtype() != first.dtype())
      context.fail("All tensors must have one dtype: tensor #0 is " + std::string(dtype_name(first.dtype())) +
                   ", tensor #" + std::to_string(i) + " is " + std::string(dtype_name(x.dtype())));
    const auto part = shape.subspan(before, shape.size() - before - after);
    result.packed_shapes.emplace_back(part.begin(), part.end());
    total = detail::packed_add(context, total, checked_product(part, context));
  }

  const auto first_shape = first.shape();
  Shape out_shape(first_shape.begin(), first_shape.begin() + static_cast<std::ptrdiff_t>(before));
  out_shape.push_back(total);
  out_shape.insert(out_shape.end(), first_shape.end() - static_cast<std::ptrdiff_t>(after), first_shape.end());
  detail::checked_element_count(out_shape);
  result.tensor = AnyTensor(first.dtype(), out_shape);
  std::int64_t start = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    copy_into_slice(tensors[i], result.tensor, before, after, start);
    start += checked_product(result.packed_shapes[i], context);
  }
  return result;
}

std::vector<AnyTensor> unpack(const AnyTensor& packed, const std::vector<Shape>& packed_shapes,
                              pack_pattern pattern_arg) {
  const std::string_view pattern = pattern_arg.text();
  const detail::CallContext context{
      .operation = "unpack", .pattern = pattern, .shape = packed.shape(), .packed_shapes = &packed_shapes};
  const auto parsed = detail::pack_pattern(pattern, context);
  const std::size_t before = parsed->before.size();
  const std::size_t after = parsed->after.size();
  const auto shape = packed.shape();
  const std::string call = "unpack(..., " + std::string(pattern) + ")";  // einops' words for the call
  if (shape.size() != before + 1 + after)
    context.fail(call + " received input of wrong dim with shape " + join(shape) + " (the pattern expects rank " +
                 std::to_string(before + 1 + after) + ": its axes and one for '*')");

  // Lengths along the packed dimension: each shape's product, one of them maybe unknown (-1).
  const std::int64_t available = shape[before];
  std::vector<std::int64_t> lengths(packed_shapes.size());
  std::size_t unknown = packed_shapes.size();  // index of the shape holding -1
  std::int64_t known_total = 0;
  for (std::size_t i = 0; i < packed_shapes.size(); ++i) {
    std::int64_t product = 1;
    for (std::int64_t length : packed_shapes[i]) {
      if (length == -1) {
        if (unknown != packed_shapes.size())
          context.fail(call + " received more than one -1 in " + python_lists(packed_shapes) +
                       " and can't infer dimensions");
        unknown = i;
        continue;
      }
      if (length < 0)
        context.fail("Packed shape #" + std::to_string(i) + " " + join(packed_shapes[i]) +
                     " has a negative length (only -1, to infer it, is allowed)");
      product = detail::packed_mul(context, product, length);
    }
    lengths[i] = product;
    if (unknown != i) known_total = detail::packed_add(context, known_total, product);
  }
  const std::string requested = "Error during unpack(..., \"" + std::string(pattern) +
                                "\"): could not split axis of size " + std::to_string(available) + " into requested " +
                                python_lists(packed_shapes) + " (input dim " + std::to_string(before) + ", group *)";
  std::int64_t inferred = -1;  // the length standing for -1
  if (unknown != packed_shapes.size()) {
    const std::int64_t rest = available - known_total;
    if (rest < 0)  // einops slices x[a:b] with b < a here and returns overlapping parts
      context.fail(requested + ": the other parts already take " + std::to_string(known_total) +
                   ", so nothing is left to infer -1 from");
    const std::int64_t divisor = lengths[unknown];
    if (divisor == 0 || rest % divisor != 0)
      context.fail(requested + ": -1 in " + join(packed_shapes[unknown]) + " can't be inferred from the " +
                   std::to_string(rest) + " elements left");
    inferred = rest / divisor;
    lengths[unknown] = rest;
  } else if (!packed_shapes.empty() && known_total != available) {
    context.fail(requested + ": the parts add up to " + std::to_string(known_total));
  }

  std::vector<AnyTensor> parts;
  parts.reserve(packed_shapes.size());
  const std::int64_t packed_stride = packed.strides()[before];
  const std::size_t element = dtype_size(packed.dtype());
  std::int64_t start = 0;
  for (std::size_t i = 0; i < packed_shapes.size(); ++i) {
    Shape part_shape(shape.begin(), shape.begin() + static_cast<std::ptrdiff_t>(before));
    Shape part_strides(packed.strides().begin(), packed.strides().begin() + static_cast<std::ptrdiff_t>(before));
    const std::size_t first_packed = part_shape.size();
    for (std::int64_t length : packed_shapes[i]) part_shape.push_back(length == -1 ? inferred : length);
    part_strides.resize(part_shape.size());
    std::int64_t step = packed_stride;  // the part is row-major inside the packed dimension
    for (std::size_t d = part_shape.size(); d-- > first_packed;) {
      part_strides[d] = step;
      step *= part_shape[d];
    }
    part_shape.insert(part_shape.end(), shape.end() - static_cast<std::ptrdiff_t>(after), shape.end());
    part_strides.insert(part_strides.end(), packed.strides().end() - static_cast<std::ptrdiff_t>(after),
                        packed.strides().end());
    char* data = static_cast<char*>(packed.data());
    if (lengths[i] > 0 && packed.size() > 0)  // an empty part keeps the base pointer (never past the end)
      data += static_cast<std::ptrdiff_t>(start * packed_stride) * static_cast<std::ptrdiff_t>(element);
    parts.emplace_back(packed.dtype(), packed.storage(), data, std::move(part_shape), std::move(part_strides));
    start += lengths[i];
  }
  return parts;
}

}  // namespace einops
