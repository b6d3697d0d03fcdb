// What each subcommand does, once the command line is parsed (main.cpp parses it).
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace einops::tool {

/// rearrange | reduce | repeat PATTERN INPUT... [name=len ...]
struct TransformCommand {
  std::string operation;  // "rearrange", "reduce" or "repeat"
  std::string pattern;
  std::vector<std::string> words;  // input files and name=len, in any order
  std::optional<std::string> reduction;
  std::string output;            // empty: print the result
  std::string dtype = "result";  // "result", "input" or a dtype name
  bool stack = false;            // a list input even when one file is given (several files always are)
  bool verbose = false;
  // rearrange and repeat: the fused conversion (docs/preprocess.md); empty when not asked for.
  std::string scale, offset;  // one number, or one per position of `axis`, comma-separated
  std::string axis;
  bool offset_first = false;
};
void run_transform(const TransformCommand& command, std::ostream& out);

/// explain PATTERN (--shape S | INPUT...) [name=len ...]; einsum: one --shape (or file) per operand
struct ExplainCommand {
  std::string pattern;
  std::vector<std::string> words;
  std::vector<std::string> shapes;  // one --shape each; several only for einsum
  std::optional<std::string> reduction;
  std::optional<std::string> operation;  // default: einsum for a pattern with a comma, reduce with
                                         // --reduction, else rearrange
  std::string dtype = "float32";
};
void run_explain(const ExplainCommand& command, std::ostream& out);

/// check PATTERN INPUT [name=len ...]: einops::check_shape on the input's shape (its header only);
/// prints the named lengths as name=len words, which the other commands take.
struct CheckCommand {
  std::string pattern;
  std::vector<std::string> words;  // the input file and name=len, in any order
};
void run_check(const CheckCommand& command, std::ostream& out);

/// pack PATTERN INPUT... [-o OUT]: prints the packed shapes, which unpack takes back.
struct PackCommand {
  std::string pattern;
  std::vector<std::string> inputs;
  std::string output;  // empty: print the result
};
void run_pack(const PackCommand& command, std::ostream& out);

/// unpack PATTERN INPUT --shapes '[(2, 3), (), (4,)]' [-o OUT...]
struct UnpackCommand {
  std::string pattern;
  std::string input;
  std::string shapes;
  std::vector<std::string> outputs;  // one per packed shape; none: print the parts
};
void run_unpack(const UnpackCommand& command, std::ostream& out);

/// einsum PATTERN INPUT... [-o OUT]
struct EinsumCommand {
  std::string pattern;
  std::vector<std::string> inputs;
  std::string output;  // empty: print the result
};
void run_einsum(const EinsumCommand& command, std::ostream& out);

/// sample -o FILE [--count N] [--size S]
struct SampleCommand {
  std::string output;
  std::int64_t count = 16;
  std::int64_t size = 32;
};
void run_sample(const SampleCommand& command, std::ostream& out);

/// show FILE...: prints each array
void run_show(const std::vector<std::string>& files, std::ostream& out);

}  // namespace einops::tool
