// --backend torch: every op of the corpus, einmix included, on torch tensors (einops/torch.hpp and
// the EinMix layer of einops/layers/torch.hpp). Each case runs twice: on contiguous inputs and on
// inputs with the same values in column-major memory (strided: views and reshapes must cope); a
// case passes when both do. einmix cases also compare the layer's decomposition (patterns,
// lengths, weight and bias shapes, fan-in) with the one einops recorded.
#include <einops/layers/torch.hpp>
#include <einops/torch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "adapter_cases.hpp"
#include "backend.hpp"
#include "einmix_case.hpp"
#include "inputs.hpp"

namespace conformance {
namespace adapters::torch_backend {
namespace {

c10::ScalarType torch_type(einops::DType dtype) {
  switch (dtype) {
    case einops::DType::float64: return c10::ScalarType::Double;
    case einops::DType::int64: return c10::ScalarType::Long;
    case einops::DType::boolean: return c10::ScalarType::Bool;
    default: throw std::runtime_error("dtype without a torch counterpart in this runner");
  }
}

/// A torch copy of a built-in (row-major) input; `strided`: the same values in column-major memory.
at::Tensor to_torch(const einops::AnyTensor& x, bool strided) {
  const std::vector<std::int64_t> shape(x.shape().begin(), x.shape().end());
  const std::vector<std::int64_t> strides(x.strides().begin(), x.strides().end());
  at::Tensor t = at::from_blob(const_cast<void*>(x.data()), shape, strides, at::TensorOptions(torch_type(x.dtype())))
                     .clone(at::MemoryFormat::Contiguous);
  if (!strided || t.dim() < 2) return t;
  std::vector<std::int64_t> reversed(shape.size());
  std::iota(reversed.rbegin(), reversed.rend(), std::int64_t{0});
  return t.permute(reversed).contiguous().permute(reversed);  // same values, column-major strides
}

einops::AnyTensor from_torch(const at::Tensor& y) {
  const auto dtype = einops::detail::torch_adapter::to_dtype(y.scalar_type());
  if (!dtype)
    throw std::runtime_error(std::string("result dtype ") + c10::toString(y.scalar_type()) + " has no einops name");
  const at::Tensor c = y.detach().contiguous();
  einops::AnyTensor out(*dtype, einops::Shape(c.sizes().begin(), c.sizes().end()));
  if (c.numel() > 0) std::memcpy(out.data(), c.data_ptr(), static_cast<std::size_t>(c.numel()) * c.element_size());
  return out;
}

std::vector<einops::AnyTensor> from_torch(const std::vector<at::Tensor>& ys) {
  std::vector<einops::AnyTensor> out;
  for (const at::Tensor& y : ys) out.push_back(from_torch(y));
  return out;
}

Outcome run_ops(const Case& c, const Call& call, bool strided) {
  std::vector<at::Tensor> xs;
  for (const einops::AnyTensor& input : call.inputs) xs.push_back(to_torch(input, strided));
  if (c.op == "rearrange" || c.op == "repeat" || c.op == "reduce") {
    const auto arrow = [&](const auto& x) -> einops::AnyTensor {
      if (c.op == "rearrange") return from_torch(einops::rearrange(x, c.pattern, call.lengths));
      if (c.op == "repeat") return from_torch(einops::repeat(x, c.pattern, call.lengths));
      return from_torch(einops::reduce(x, c.pattern, call.reduction, call.lengths));
    };
    return expect_array(
        c, [&] { return call.list ? arrow(xs) : arrow(xs.front()); }, value_match(c));
  }
  if (c.op == "pack")
    return expect_result(
        c, [&] { return einops::pack(xs, c.pattern); },
        [&](const einops::Packed<at::Tensor>& packed) {
          return check_packed(c, from_torch(packed.tensor), packed.packed_shapes);
        });
  if (c.op == "unpack")
    return expect_result(
        c, [&] { return einops::unpack(xs.front(), call.packed, c.pattern); },
        [&](const std::vector<at::Tensor>& parts) { return check_parts(c, from_torch(parts)); });
  if (c.op == "einsum")
    return expect_array(
        c, [&] { return from_torch(einops::einsum(xs, c.pattern)); }, value_match(c));
  return expect_result(
      c, [&] { return einops::parse_shape(xs.front(), c.pattern); },
      [&](const einops::ParsedShape& parsed) { return check_parsed_shape(c, parsed); });
}

/// A float64 tensor of `shape` holding the corpus' input k.
at::Tensor corpus_tensor(const std::vector<std::int64_t>& shape, std::int64_t k) {
  return to_torch(make_input(einops::DType::float64, einops::Shape(shape.begin(), shape.end()), k), false);
}

Outcome run_einmix(const Case& c, const Call& call, bool strided) {
  const EinMixArguments arguments = einmix_arguments(c);
  const std::string& weight_shape = arguments.weight_shape;
  const std::optional<std::string>& bias_shape = arguments.bias_shape;
  const at::Tensor x = to_torch(call.inputs.front(), strided);
  std::string structure_problem;
  const auto run = [&]() -> einops::AnyTensor {
    einops::layers::torch::EinMix mix(c.pattern, weight_shape, bias_shape, call.lengths);
    mix->to(at::kDouble);
    if (!c.expects_error()) {
      const Json& structure = c.expect().at("structure");
      structure_problem = check_structure(structure, mix->structure());
      const at::NoGradGuard no_grad;
      mix->weight.copy_(corpus_tensor(structure.at("weight_shape").get<std::vector<std::int64_t>>(), 1));
      if (mix->bias.defined())
        mix->bias.copy_(corpus_tensor(structure.at("bias_shape").get<std::vector<std::int64_t>>(), 2));
    }
    return from_torch(mix->forward(x));
  };
  return expect_result(c, run, [&](const einops::AnyTensor& result) {
    if (!structure_problem.empty()) return structure_problem;
    return check_array(c.expect(), result, ValueMatch::approximate);
  });
}

Outcome run(const Case& c) {
  Call call;
  if (std::string why = read_call(c, call); !why.empty()) return Outcome::fail("malformed case: " + why);
  static const char* const layouts[2] = {"contiguous", "strided"};
  return in_both_layouts(layouts, [&](int layout) {
    return c.op == "einmix" ? run_einmix(c, call, layout == 1) : run_ops(c, call, layout == 1);
  });
}

}  // namespace
}  // namespace adapters::torch_backend

void register_torch_ops(OpTable& ops) {
  for (const char* op : {"rearrange", "reduce", "repeat", "pack", "unpack", "parse_shape", "einsum", "einmix"})
    ops.emplace(op, &adapters::torch_backend::run);
}

}  // namespace conformance
