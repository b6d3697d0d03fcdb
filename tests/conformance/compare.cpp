#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"

namespace conformance {
namespace {

std::string shape_text(const einops::Shape& shape) { return einops::detail::format_shape(shape); }

// One expected element: JSON null stands for NaN (Python's json would write NaN, which is not
// JSON; the current corpus has neither).
template <class T>
bool element_matches(const T& actual, const Json& expected, ValueMatch match) {
  if (expected.is_null()) {
    if constexpr (std::is_floating_point_v<T>) return std::isnan(actual);
    return false;
  }
  if constexpr (std::is_same_v<T, bool>) {
    if (expected.is_boolean()) return actual == expected.get<bool>();
    return expected.is_number() && static_cast<double>(actual) == expected.get<double>();
  } else if constexpr (std::is_integral_v<T>) {
    // Integers compare exactly, also beyond 2^53.
    if (expected.is_number_unsigned())
      return actual >= 0 && static_cast<std::uint64_t>(actual) == expected.get<std::uint64_t>();
    if (expected.is_number_integer())
      return std::is_signed_v<T> && static_cast<std::int64_t>(actual) == expected.get<std::int64_t>();
    if (expected.is_boolean()) return actual == static_cast<T>(expected.get<bool>());
    return expected.is_number() && static_cast<double>(actual) == expected.get<double>();
  } else {
    if (!expected.is_number() && !expected.is_boolean()) return false;
    const double e = expected.is_boolean() ? (expected.get<bool>() ? 1.0 : 0.0) : expected.get<double>();
    const double a = static_cast<double>(actual);
    if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
    return match == ValueMatch::exact ? a == e : value_close(a, e);
  }
}

template <class T>
std::string text_of(const T& value) {
  std::ostringstream out;
  out.precision(17);
  if constexpr (std::is_same_v<T, bool>) out << (value ? "true" : "false");
  else if constexpr (std::is_integral_v<T>) out << static_cast<long long>(value);
  else out << static_cast<double>(value);
  return out.str();
}

// Compares `expected` (a JSON array) with the leading elements of `actual`.
template <class T>
std::string check_elements(const char* what, const std::vector<T>& actual, const Json& expected, ValueMatch match) {
  if (!expected.is_array()) return std::string(what) + " is not an array in the corpus";
  if (expected.size() > actual.size())
    return std::string(what) + ": expected " + std::to_string(expected.size()) + " elements, got " +
           std::to_string(actual.size());
  std::size_t wrong = 0;
  std::string first;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const T value = actual[i];  // a copy: vector<bool> has no references
    if (element_matches(value, expected[i], match)) continue;
    if (wrong++ == 0)
      first =
          std::string(what) + "[" + std::to_string(i) + "]: expected " + expected[i].dump() + ", got " + text_of(value);
  }
  if (wrong == 0) return {};
  return first + (wrong > 1 ? " (" + std::to_string(wrong) + " elements differ)" : "");
}

// The checksums of large results, in double and row-major order, as the corpus defines them.
template <class T>
std::string check_checksums(const std::vector<T>& actual, const Json& expect, ValueMatch match) {
  double sum = 0, sumsq = 0, wsum = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double v = static_cast<double>(static_cast<T>(actual[i]));
    sum += v;
    sumsq += v * v;
    wsum += v * static_cast<double>((i % 1009) + 1);
  }
  const std::pair<const char*, double> sums[] = {{"sum", sum}, {"sumsq", sumsq}, {"wsum", wsum}};
  for (const auto& [name, value] : sums) {
    const Json& e = expect.at(name);
    if (!e.is_number()) return std::string(name) + " is not a number in the corpus";
    if (!checksum_close(value, e.get<double>()))
      return std::string(name) + ": expected " + e.dump() + ", got " + text_of(value);
  }
  const Json& first16 = expect.at("first16");
  if (first16.is_array() && first16.size() != std::min<std::size_t>(16, actual.size()))
    return "first16 has " + std::to_string(first16.size()) + " elements for a result of " +
           std::to_string(actual.size());
  return check_elements("first16", actual, first16, match);
}

}  // namespace

namespace {
bool within(double actual, double expected, double relative, double absolute) {
  if (std::isnan(actual) || std::isnan(expected)) return std::isnan(actual) && std::isnan(expected);
  if (actual == expected) return true;  // also equal infinities
  return std::fabs(actual - expected) <= std::max(relative * std::fabs(expected), absolute);
}
}  // namespace

bool checksum_close(double actual, double expected) { return within(actual, expected, 1e-9, 1e-6); }
bool value_close(double actual, double expected) { return within(actual, expected, 1e-9, 1e-12); }

std::string check_array(const Json& expect, const einops::AnyTensor& actual, ValueMatch match) {
  if (!expect.is_object() || !expect.contains("shape") || !expect.contains("dtype"))
    return "malformed expectation: no shape/dtype";
  const einops::Shape want_shape = expect.at("shape").get<einops::Shape>();
  const einops::Shape got_shape(actual.shape().begin(), actual.shape().end());
  if (want_shape != got_shape) return "shape: expected " + shape_text(want_shape) + ", got " + shape_text(got_shape);
  const std::string want_dtype = expect.at("dtype").get<std::string>();
  if (want_dtype != einops::dtype_name(actual.dtype()))
    return "dtype: expected " + want_dtype + ", got " + std::string(einops::dtype_name(actual.dtype()));

  return einops::visit_dtype(actual.dtype(), [&](auto tag) -> std::string {
    using T = decltype(tag);
    const auto values = actual.as<T>().to_vector();  // row-major, through the result's strides
    if (expect.contains("values")) {
      if (expect.at("values").size() != values.size())
        return "values: expected " + std::to_string(expect.at("values").size()) + " elements, got " +
               std::to_string(values.size());
      return check_elements("values", values, expect.at("values"), match);
    }
    for (const char* key : {"sum", "sumsq", "wsum", "first16"})
      if (!expect.contains(key)) return std::string("malformed expectation: neither values nor ") + key;
    return check_checksums(values, expect, match);
  });
}

std::string check_parsed_shape(const Case& c, const einops::ParsedShape& parsed) {
  const Json& want = c.expect().at("dict");  // ordered_json: keys in pattern order
  std::string got;
  for (const auto& [name, length] : parsed) got += (got.empty() ? "" : ", ") + name + ": " + std::to_string(length);
  if (want.size() != parsed.size()) return "dict: expected " + want.dump() + ", got {" + got + "}";
  std::size_t i = 0;
  for (const auto& [name, length] : want.items()) {
    const auto& entry = parsed.entries()[i++];
    if (entry.first != name || entry.second != length.get<std::int64_t>() || parsed[name] != entry.second)
      return "dict: expected " + want.dump() + ", got {" + got + "}";
  }
  return {};
}

}  // namespace conformance
