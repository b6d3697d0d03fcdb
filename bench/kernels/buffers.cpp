#include "buffers.hpp"

namespace bench {

einops::AnyTensor make_input(const Case& c) {
  einops::AnyTensor x(c.dtype, c.input_shape);
  einops::visit_dtype(c.dtype, [&](auto tag) {
    using T = decltype(tag);
    T* data = static_cast<T*>(x.data());
    for (std::int64_t i = 0; i < x.size(); ++i) {
      const auto value = static_cast<std::int64_t>((i * 37 + 11) % 101) - 50;
      if constexpr (std::is_same_v<T, bool>) data[i] = value > 0;
      else data[i] = static_cast<T>(value);
    }
  });
  return x;
}

einops::AnyTensor make_output(const Case& c) {
  const einops::DType dtype = c.kind == Kind::reduce && c.reduction == "sum" && !einops::is_floating(c.dtype)
                                  ? einops::reduction_result_dtype(einops::Reduction::sum, c.dtype)
                                  : c.dtype;
  const einops::Shape shape = c.output_view();
  // The einops result shape: elementary axes grouped as the pattern's output.
  einops::AnyTensor tensor(dtype, shape);
  const auto plan = einops::get_plan(
      c.kind == Kind::permute ? einops::Operation::rearrange
                              : (c.kind == Kind::repeat ? einops::Operation::repeat : einops::Operation::reduce),
      c.kind == Kind::reduce ? std::optional<std::string_view>(c.reduction) : std::nullopt, c.pattern, c.input_shape,
      c.axis_lengths());
  return einops::AnyTensor(dtype, tensor.storage(), tensor.data(), plan->output_shape,
                           einops::detail::row_major_strides(plan->output_shape));
}

void run_case(const Case& c, const einops::AnyTensor& x, const einops::AnyTensor& out,
              const einops::AxisLengths& lengths) {
  switch (c.kind) {
    case Kind::permute: einops::rearrange_into(x, out, c.pattern, lengths); break;
    case Kind::repeat: einops::repeat_into(x, out, c.pattern, lengths); break;
    case Kind::reduce: einops::reduce_into(x, out, c.pattern, c.reduction, lengths); break;
  }
}

}  // namespace bench
