// Reading the golden corpus (JSON Lines, format in corpus/README.md) and the typed
// accessors runners use to read a case's fields.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace conformance {

// ordered_json keeps `axes_lengths` in file order: the order is part of einops' call.
using Json = nlohmann::ordered_json;

/// Every operation the corpus format defines; any other `op` is a malformed case.
inline constexpr std::array<std::string_view, 8> known_ops = {"rearrange", "reduce",      "repeat", "pack",
                                                              "unpack",    "parse_shape", "einsum", "einmix"};

struct Case {
  std::size_t line = 0;  // 1-based line in the corpus file, for messages
  std::string id;
  std::string op;
  std::string pattern;
  Json raw;  // the whole case; runners read their op-specific fields from it

  bool expects_error() const;
  bool list_input() const;
  std::string note() const;  // empty when the case has none
  /// `shapes`, one per input.
  std::vector<einops::Shape> shapes() const;
  /// `axes_lengths` in file order (empty when absent).
  einops::AxisLengths axes_lengths() const;
  const Json& expect() const { return raw.at("expect"); }
};

/// Loads every case; throws std::runtime_error naming the line for unreadable input (a broken
/// corpus is an error of the run, not a failed case).
std::vector<Case> load_corpus(const std::string& path);

}  // namespace conformance
