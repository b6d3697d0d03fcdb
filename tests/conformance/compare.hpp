// Checking one array result against a case's expectation: shape, dtype, then either the full
// `values` or the four checksums of large results.
#pragma once

#include <string>

#include "corpus.hpp"
#include "einops/parse_shape.hpp"
#include "einops/tensor.hpp"

namespace conformance {

enum class ValueMatch {
  exact,        // rearrange, repeat, integers, bool, min, max, sum
  approximate,  // mean and prod: float64 rounding differs with the order of the products/sums
};

/// Checksums: within relative 1e-9 of `expected`, or absolute 1e-6 near zero (sums of many
/// terms cancel, so their rounding error scales with the terms, not with the sum).
bool checksum_close(double actual, double expected);
/// Approximate values (mean, prod): within relative 1e-9 (absolute 1e-12 at zero only).
bool value_close(double actual, double expected);

/// Empty when `actual` matches the array expectation `expect` ({shape, dtype, values} or
/// {shape, dtype, sum, sumsq, wsum, first16}); otherwise the first reason it does not.
std::string check_array(const Json& expect, const einops::AnyTensor& actual, ValueMatch match);

/// Why a parse_shape result differs from the case's "dict" (lengths by name, in pattern order;
/// lookup by name agrees); empty when it matches.
std::string check_parsed_shape(const Case& c, const einops::ParsedShape& parsed);

}  // namespace conformance
