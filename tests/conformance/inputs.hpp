// The corpus' deterministic input data (inputs are not stored in the corpus).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/tensor.hpp"

namespace conformance {

/// Value of input k at row-major index i: ((i*37 + 11 + 29*k) % 101) - 50.
constexpr std::int64_t input_value(std::int64_t i, std::int64_t k) { return ((i * 37 + 11 + 29 * k) % 101) - 50; }

/// The DType of a corpus dtype name ("float64", "int64", "bool", ...), or nullopt.
std::optional<einops::DType> parse_dtype(std::string_view name);

/// Input k of the given dtype and shape, row-major contiguous. bool holds v > 0.
einops::AnyTensor make_input(einops::DType dtype, const einops::Shape& shape, std::int64_t k);

/// Inputs 0..n-1 for `shapes` (for list inputs, input k is the k-th tensor of the list).
std::vector<einops::AnyTensor> make_inputs(einops::DType dtype, const std::vector<einops::Shape>& shapes);

}  // namespace conformance
