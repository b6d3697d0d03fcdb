// What the adapter backends (eigen, xtensor) share: reading a case's call, the rank and dtype of
// the result the library plans for it (to name a static result type, as a user with a run-time
// pattern does), and checks of pack/unpack/parse_shape results already turned into built-in tensors.
//
// Each adapter backend runs every case in both memory layouts; a case passes when both do.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "einops/parse_shape.hpp"
#include "einops/tensor.hpp"
#include "expect.hpp"
#include "outcome.hpp"

namespace conformance::adapters {

/// The arguments of one case: inputs (built-in, row-major, the corpus' values) and the rest.
struct Call {
  einops::DType dtype = einops::DType::float64;
  std::vector<einops::AnyTensor> inputs;
  einops::AxisLengths lengths;
  bool list = false;
  std::string reduction;              // reduce only
  std::vector<einops::Shape> packed;  // unpack only
};

/// Reads the case; returns why it is malformed (empty when it is not).
std::string read_call(const Case& c, Call& call);

/// Largest input rank the Eigen runner instantiates.
inline constexpr std::size_t kMaxStaticRank = 12;
/// Largest input and result ranks for which the Eigen runner names the result's rank
/// (`rearrange<M>(x, ...)`, an Eigen::Tensor result: every pair is an instantiation); beyond,
/// it calls the spelling without a rank, whose result is a built-in tensor.
inline constexpr std::size_t kMaxTypedRank = 6;

/// The result the library plans for rearrange/reduce/repeat: its rank and dtype; nullopt when
/// planning throws (the adapter call must then throw too).
struct PlannedResult {
  std::size_t rank = 0;
  einops::DType dtype = einops::DType::float64;
};
std::optional<PlannedResult> planned_result(const Case& c, const Call& call);
/// The packed tensor's rank for a pack pattern (its axes and one for `*`), or nullopt.
std::optional<std::size_t> pack_rank(const std::string& pattern);
/// The rank of each part of unpack, or nullopt for a pattern that does not parse.
std::optional<std::vector<std::size_t>> unpack_ranks(const std::string& pattern,
                                                     const std::vector<einops::Shape>& packed);
/// einsum's output rank for operands of these ranks, or nullopt when the pattern does not parse.
std::optional<std::size_t> einsum_rank(const std::string& pattern, const std::vector<std::size_t>& operand_ranks);

/// Value comparison for the op (mean, prod and float einsum are approximate).
ValueMatch value_match(const Case& c);

/// Checks of results already converted to built-in tensors (empty: they match the case).
std::string check_packed(const Case& c, const einops::AnyTensor& tensor, const std::vector<einops::Shape>& shapes);
std::string check_parts(const Case& c, const std::vector<einops::AnyTensor>& parts);

/// Runs `run_layout(layout_index)` for both layouts (0 and 1, named by `names`); fails with the
/// first layout's reason.
template <class RunLayout>
Outcome in_both_layouts(const char* const (&names)[2], RunLayout&& run_layout) {
  for (int layout = 0; layout < 2; ++layout) {
    Outcome outcome = run_layout(layout);
    if (outcome.status != Outcome::Status::passed) {
      outcome.reason = std::string("[") + names[layout] + "] " + outcome.reason;
      return outcome;
    }
  }
  return Outcome::pass();
}

}  // namespace conformance::adapters
