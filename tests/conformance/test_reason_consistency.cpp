// The compile-time and run-time checks share one implementation and one set of messages: for
// every corpus error case whose pattern alone is invalid, the reason a literal would fail to
// compile with is the reason the run-time call throws. And every error about lengths keeps
// einops' sentence and says where it happened (reasons.hpp).
#include <gtest/gtest.h>

#include <einops/einops.hpp>

#include <span>
#include <string>
#include <vector>

#include "corpus.hpp"
#include "reasons.hpp"

namespace {

/// The operation whose rules a literal in this call is checked against, or nothing when the
/// case fails for another reason (an unknown reduction).
std::optional<einops::Operation> literal_operation(const conformance::Case& c) {
  if (c.op == "rearrange") return einops::Operation::rearrange;
  if (c.op == "repeat") return einops::Operation::repeat;
  const std::string reduction = c.raw.value("reduction", "");
  if (reduction == "rearrange") return einops::Operation::rearrange;
  if (reduction == "repeat") return einops::Operation::repeat;
  for (const char* known : {"min", "max", "sum", "mean", "prod", "any", "all"})
    if (reduction == known) return einops::Operation::reduce;
  return std::nullopt;
}

/// The compile-time reason for the pattern alone, or empty when the pattern alone is valid.
std::string compile_time_reason(std::string_view pattern, einops::Operation operation) {
  const auto parsed = einops::parse_arrow_pattern(pattern);
  if (!parsed.ok()) {
    EXPECT_STREQ(parsed.error.reason, einops::reason_text(parsed.error.kind)) << pattern;
    return einops::reason_text(parsed.error.kind);
  }
  const einops::PatternError error = einops::check_arrow_pattern(parsed.value, operation);
  return error ? einops::reason_text(error.kind) : "";
}

/// True when `message` holds the parts of `reason` around its ": ", in order: a compile-time
/// reason is einops' sentence without the offending text, which the run-time sentence names
/// ("Invalid axis identifier: not a valid python identifier" against "Invalid axis identifier:
/// 2j\nnot a valid python identifier").
bool holds_reason(std::string_view message, std::string_view reason) {
  std::size_t at = 0;
  for (;;) {
    const std::size_t colon = reason.find(": ");
    const std::string_view part = reason.substr(0, colon == std::string_view::npos ? reason.size() : colon + 1);
    at = message.find(part, at);
    if (at == std::string_view::npos) return false;
    at += part.size();
    if (colon == std::string_view::npos) return true;
    reason.remove_prefix(colon + 2);
  }
}

std::string run_time_message(const conformance::Case& c) {
  const einops::AnyTensor input(einops::DType::float64, c.shapes().at(0));
  const einops::AxisLengths lengths = c.axes_lengths();
  const auto pattern = einops::runtime(c.pattern);
  try {
    if (c.op == "rearrange") (void)einops::rearrange(input, pattern, lengths);
    else if (c.op == "repeat") (void)einops::repeat(input, pattern, lengths);
    else (void)einops::reduce(input, pattern, c.raw.at("reduction").get<std::string>(), lengths);
  } catch (const einops::EinopsError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ReasonConsistency, CorpusPatternErrorsReadTheSameAtCompileAndRunTime) {
  std::size_t checked = 0;
  for (const conformance::Case& c : conformance::load_corpus(EINOPS_CONFORMANCE_DEFAULT_CORPUS)) {
    if (!c.expects_error() || (c.op != "rearrange" && c.op != "reduce" && c.op != "repeat")) continue;
    const auto operation = literal_operation(c);
    if (!operation) continue;
    const std::string reason = compile_time_reason(c.pattern, *operation);
    if (reason.empty()) continue;  // the pattern is valid; the call fails on shapes or lengths
    if (!c.list_input()) {
      const std::string message = run_time_message(c);
      EXPECT_TRUE(holds_reason(message, reason))
          << c.id << ": compile-time reason '" << reason << "' missing from the run-time message:\n"
          << message;
      ++checked;
    }
  }
  // The corpus has well over a hundred such cases; a vacuous pass would hide a broken reader.
  EXPECT_GT(checked, 100u);
}

}  // namespace

namespace {

/// The message of the built-in call a corpus case makes, or "(no error)".
std::string builtin_message(const conformance::Case& c) {
  std::vector<einops::AnyTensor> inputs;
  for (const einops::Shape& shape : c.shapes()) inputs.emplace_back(einops::DType::float64, shape);
  const std::span<const einops::AnyTensor> list(inputs);
  const einops::AxisLengths lengths = c.axes_lengths();
  const auto pattern = einops::runtime(c.pattern);
  try {
    if (c.op == "parse_shape") {
      (void)einops::parse_shape(inputs.at(0), pattern);
    } else if (c.op == "pack") {
      (void)einops::pack(list, pattern);
    } else if (c.op == "unpack") {
      (void)einops::unpack(inputs.at(0), c.raw.at("packed_shapes").get<std::vector<einops::Shape>>(), pattern);
    } else if (c.list_input()) {
      if (c.op == "rearrange") (void)einops::rearrange(list, pattern, lengths);
      else if (c.op == "repeat") (void)einops::repeat(list, pattern, lengths);
      else (void)einops::reduce(list, pattern, c.raw.at("reduction").get<std::string>(), lengths);
    } else {
      return run_time_message(c);
    }
  } catch (const einops::EinopsError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(ReasonConsistency, ShapeErrorsKeepEinopsSentenceAndNameTheirPlace) {
  std::size_t checked = 0;
  for (const conformance::Case& c : conformance::load_corpus(EINOPS_CONFORMANCE_DEFAULT_CORPUS)) {
    if (!conformance::error_reason_checked(c)) continue;
    const std::string message = builtin_message(c);
    EXPECT_EQ(conformance::check_error_reason(c, message), "") << c.id << " \"" << c.pattern << "\":\n" << message;
    ++checked;
  }
  // Shape mismatches, wrong ranks, parse_shape's, pack's and unpack's lengths: well over a hundred cases.
  EXPECT_GT(checked, 150u);
}

}  // namespace
