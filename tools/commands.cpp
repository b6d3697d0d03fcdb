#include "commands.hpp"

#include "arguments.hpp"
#include "array_io.hpp"
#include "array_print.hpp"
#include "cast.hpp"
#include "einops/check_shape.hpp"
#include "einops/convert.hpp"
#include "einops/einsum.hpp"
#include "einops/ops.hpp"
#include "einops/pack.hpp"
#include "einops/reduction.hpp"
#include "explain.hpp"
#include "sample.hpp"
#include "tool_errors.hpp"

namespace einops::tool {
namespace {

std::string describe(const AnyTensor& x) {
  return detail::format_shape(x.shape()) + " " + std::string(dtype_name(x.dtype()));
}

DType output_dtype(const std::string& choice, const AnyTensor& input, const AnyTensor& result) {
  if (choice == "result") return result.dtype();
  if (choice == "input") return input.dtype();
  if (auto dtype = dtype_from_name(choice)) return *dtype;
  throw UsageError("--dtype '" + choice + "' is not 'result', 'input' or a dtype name such as float32");
}

Operation operation_named(const std::string& name) {
  if (name == "rearrange") return Operation::rearrange;
  if (name == "reduce") return Operation::reduce;
  if (name == "repeat") return Operation::repeat;
  throw UsageError("unknown operation '" + name + "' (rearrange, reduce or repeat)");
}

std::vector<AnyTensor> read_all(const std::vector<std::string>& files) {
  std::vector<AnyTensor> tensors;
  for (const std::string& file : files) tensors.push_back(read_array(file));
  return tensors;
}

/// Whether the command asks for the fused conversion (--scale, --offset, --axis, --offset-first).
bool converts(const TransformCommand& command) {
  return !command.scale.empty() || !command.offset.empty() || !command.axis.empty() || command.offset_first;
}

/// rearrange or repeat through the map in one pass: the result is float32 unless --dtype names
/// another type (or 'input').
AnyTensor run_converting(const TransformCommand& command, Operation operation, const std::vector<AnyTensor>& inputs,
                         bool single, const AxisLengths& lengths) {
  if (operation == Operation::reduce) throw UsageError("--scale, --offset and --axis apply to rearrange and repeat");
  const DType out_type = command.dtype == "result"  ? DType::float32
                         : command.dtype == "input" ? inputs[0].dtype()
                                                    : output_dtype(command.dtype, inputs[0], inputs[0]);
  const std::vector<float> scale =
      command.scale.empty() ? std::vector<float>{} : parse_number_list(command.scale, "--scale");
  const std::vector<float> offset =
      command.offset.empty() ? std::vector<float>{} : parse_number_list(command.offset, "--offset");
  detail::ConvertRef map;
  map.scale = scale;
  map.offset = offset;
  map.offset_first = command.offset_first;
  map.axis = command.axis;
  const bool rearranging = operation == Operation::rearrange;
  if (single)
    return rearranging ? detail::rearrange(inputs[0], out_type, command.pattern, map, lengths)
                       : detail::repeat(inputs[0], out_type, command.pattern, map, lengths);
  const std::vector<detail::TensorRef> refs(inputs.begin(), inputs.end());
  return rearranging
             ? detail::rearrange(std::span<const detail::TensorRef>(refs), out_type, command.pattern, map, lengths)
             : detail::repeat(std::span<const detail::TensorRef>(refs), out_type, command.pattern, map, lengths);
}

/// Writes `x` to `path`, or prints it when `path` is empty.
void deliver(const std::string& path, const AnyTensor& x, std::ostream& out) {
  if (path.empty()) out << format_array(x);
  else write_array(path, x);
}

}  // namespace

void run_transform(const TransformCommand& command, std::ostream& out) {
  const Positionals positionals = split_positionals(command.words);
  if (positionals.files.empty()) throw UsageError(command.operation + " needs at least one input file");
  const Operation operation = operation_named(command.operation);
  if (operation == Operation::reduce && !command.reduction)
    throw UsageError("reduce needs --reduction (" + reduction_names("", " or ") + ")");
  if (operation != Operation::reduce && command.reduction) throw UsageError("--reduction applies to reduce only");

  const std::vector<AnyTensor> inputs = read_all(positionals.files);
  const std::span<const AnyTensor> list(inputs);
  const bool single = inputs.size() == 1 && !command.stack;  // a list input is stacked on a new axis
  AnyTensor result;
  if (converts(command)) {
    result = run_converting(command, operation, inputs, single, positionals.lengths);
  } else {
    switch (operation) {
      case Operation::rearrange:
        result = single ? rearrange(inputs[0], command.pattern, positionals.lengths)
                        : rearrange(list, command.pattern, positionals.lengths);
        break;
      case Operation::repeat:
        result = single ? repeat(inputs[0], command.pattern, positionals.lengths)
                        : repeat(list, command.pattern, positionals.lengths);
        break;
      case Operation::reduce:
        result = single ? reduce(inputs[0], command.pattern, *command.reduction, positionals.lengths)
                        : reduce(list, command.pattern, *command.reduction, positionals.lengths);
        break;
    }
    result = cast(result, output_dtype(command.dtype, inputs[0], result));
  }

  deliver(command.output, result, out);
  if (command.verbose && !command.output.empty())
    out << command.operation << ": " << (single ? positionals.files[0] : std::to_string(inputs.size()) + " inputs")
        << " " << describe(inputs[0]) << " -> " << command.output << " " << describe(result) << "\n";
}

namespace {

DType dtype_named(const std::string& name) {
  const auto dtype = dtype_from_name(name);
  if (!dtype) throw UsageError("--dtype '" + name + "' is not a dtype name such as float32");
  return *dtype;
}

/// explain of an einsum: one --shape per operand, or the operands' files (their headers only).
void explain_einsum_command(const ExplainCommand& command, const Positionals& positionals, std::ostream& out) {
  if (!positionals.lengths.entries().empty()) throw UsageError("explain of an einsum takes no name=len");
  if (command.reduction) throw UsageError("--reduction applies to reduce only");
  EinsumExplainRequest request;
  request.pattern = command.pattern;
  if (!command.shapes.empty()) {
    for (const std::string& shape : command.shapes) request.shapes.push_back(parse_shape_list(shape));
    request.dtype = dtype_named(command.dtype);
  } else {
    for (const std::string& file : positionals.files) {
      const auto [shape, dtype] = array_shape(file);
      if (file != positionals.files.front() && dtype != request.dtype)
        throw UsageError("explain: " + file + " differs in dtype from " + positionals.files.front());
      request.shapes.push_back(shape);
      request.dtype = dtype;
    }
  }
  out << explain_einsum(request);
}

}  // namespace

void run_explain(const ExplainCommand& command, std::ostream& out) {
  const Positionals positionals = split_positionals(command.words);
  if (!command.shapes.empty() && !positionals.files.empty())
    throw UsageError("explain takes --shape or input files, not both");
  if (command.shapes.empty() && positionals.files.empty())
    throw UsageError("explain needs --shape (for example --shape 2,3,4) or an input file");
  const bool einsum_pattern = command.pattern.find(',') != std::string::npos;
  if (command.operation.value_or(einsum_pattern ? "einsum" : "") == "einsum") {
    explain_einsum_command(command, positionals, out);
    return;
  }
  ExplainRequest request;
  request.pattern = command.pattern;
  request.lengths = positionals.lengths;
  request.reduction = command.reduction;
  request.operation = operation_named(command.operation.value_or(command.reduction ? "reduce" : "rearrange"));
  if (request.operation == Operation::reduce && !request.reduction)
    throw UsageError("explain of a reduce needs --reduction (" + reduction_names("", " or ") + ")");
  if (command.shapes.size() > 1) throw UsageError("explain takes one --shape (several only for einsum)");
  if (!command.shapes.empty()) {
    request.shape = parse_shape_list(command.shapes.front());
    request.dtype = dtype_named(command.dtype);
  } else {
    // Only the headers are read. Several files are a list input, stacked: all alike.
    const auto [shape, dtype] = array_shape(positionals.files[0]);
    for (const std::string& file : positionals.files)
      if (array_shape(file) != std::pair(shape, dtype))
        throw UsageError("explain: " + file + " differs in shape or dtype from " + positionals.files[0]);
    request.shape = shape;
    request.dtype = dtype;
    if (positionals.files.size() > 1) {
      request.shape.insert(request.shape.begin(), static_cast<std::int64_t>(positionals.files.size()));
      request.list_input = true;
    }
  }
  out << explain(request);
}

void run_check(const CheckCommand& command, std::ostream& out) {
  const Positionals positionals = split_positionals(command.words);
  if (positionals.files.size() != 1) throw UsageError("check needs exactly one input file");
  const Shape shape = array_shape(positionals.files.front()).first;
  const ParsedShape parsed = check_shape(std::span<const std::int64_t>(shape), command.pattern, positionals.lengths);
  std::string words;
  for (const auto& [name, length] : parsed) words += (words.empty() ? "" : " ") + name + "=" + std::to_string(length);
  if (!words.empty()) out << words << "\n";
}

void run_pack(const PackCommand& command, std::ostream& out) {
  const std::vector<AnyTensor> inputs = read_all(command.inputs);
  const Packed<AnyTensor> packed = pack(std::span<const AnyTensor>(inputs), command.pattern);
  deliver(command.output, packed.tensor, out);
  out << "packed shapes: " << format_shape_list(packed.packed_shapes) << "\n";
}

void run_unpack(const UnpackCommand& command, std::ostream& out) {
  const std::vector<Shape> shapes = parse_shape_list_text(command.shapes);
  if (!command.outputs.empty() && command.outputs.size() != shapes.size())
    throw UsageError("unpack: " + std::to_string(shapes.size()) + " packed shapes but " +
                     std::to_string(command.outputs.size()) + " output files");
  const std::vector<AnyTensor> parts = unpack(read_array(command.input), shapes, command.pattern);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (command.outputs.empty()) out << "part " << i << ": ";
    deliver(command.outputs.empty() ? std::string() : command.outputs[i], parts[i], out);
  }
}

void run_einsum(const EinsumCommand& command, std::ostream& out) {
  const std::vector<AnyTensor> inputs = read_all(command.inputs);
  deliver(command.output, einsum(std::span<const AnyTensor>(inputs), command.pattern), out);
}

void run_sample(const SampleCommand& command, std::ostream& out) {
  if (command.count < 1 || command.size < 8 || command.count > 10000 || command.size > 4096)
    throw UsageError("sample needs 1 <= --count <= 10000 and 8 <= --size <= 4096");
  const AnyTensor batch = sample_digits(command.count, command.size);
  write_array(command.output, batch);
  out << "sample: " << command.output << " " << describe(batch) << "\n";
}

void run_show(const std::vector<std::string>& files, std::ostream& out) {
  for (const std::string& file : files) out << file << ": " << format_array(read_array(file));
}

}  // namespace einops::tool
