#include "arguments.hpp"

#include <exception>
#include <string>

#include <charconv>

#include "tool_errors.hpp"

namespace einops::tool {
namespace {

bool parse_integer(std::string_view text, std::int64_t& value) {
  if (text.empty()) return false;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

}  // namespace

Positionals split_positionals(const std::vector<std::string>& words) {
  Positionals out;
  for (const std::string& word : words) {
    const std::size_t equals = word.find('=');
    const bool looks_like_length = equals != std::string::npos && word.find_first_of("/.") == std::string::npos;
    if (!looks_like_length) {
      out.files.push_back(word);
      continue;
    }
    std::int64_t length = 0;
    if (!parse_integer(std::string_view(word).substr(equals + 1), length))
      throw UsageError("axis length '" + word + "' is not NAME=INTEGER (write ./" + word + " for a file)");
    out.lengths.add(word.substr(0, equals), length);
  }
  return out;
}

Shape parse_shape_list(const std::string& text) {
  Shape shape;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find_first_of(",x", at);
    if (end == std::string::npos) end = text.size();
    std::int64_t length = 0;
    if (!parse_integer(std::string_view(text).substr(at, end - at), length) || length < 0)
      throw UsageError("--shape '" + text + "' is not a list of lengths such as 2,3,4");
    shape.push_back(length);
    at = end + 1;
    if (end + 1 == text.size()) throw UsageError("--shape '" + text + "' ends with a separator");
  }
  return shape;
}

std::vector<float> parse_number_list(const std::string& text, const std::string& option) {
  std::vector<float> numbers;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find(',', at);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(at, end - at);
    std::size_t used = 0;
    float value = 0;
    try {
      value = std::stof(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (word.empty() || used != word.size())
      throw UsageError(option + " '" + text + "' is not a list of numbers such as 0.5,2,-1.25");
    numbers.push_back(value);
    at = end + 1;
  }
  return numbers;
}

std::vector<Shape> parse_shape_list_text(const std::string& text) {
  const auto fail = [&]() -> std::vector<Shape> {
    throw UsageError("--shapes '" + text + "' is not a list of shapes such as '[(2, 3), (), (4,)]'");
  };
  std::vector<Shape> shapes;
  std::size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (c == ' ' || c == ',' || c == '[' || c == ']') {
      ++at;
      continue;
    }
    if (c != '(') return fail();
    const std::size_t close = text.find(')', at);
    if (close == std::string::npos) return fail();
    Shape shape;
    std::size_t item = at + 1;
    while (item < close) {
      std::size_t end = text.find(',', item);
      if (end == std::string::npos || end > close) end = close;
      std::string_view word = std::string_view(text).substr(item, end - item);
      while (!word.empty() && word.front() == ' ') word.remove_prefix(1);
      while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
      std::int64_t length = 0;
      if (!word.empty()) {
        if (!parse_integer(word, length)) return fail();
        shape.push_back(length);
      } else if (end != close) {
        return fail();  // an empty item is allowed only after the last comma: "(4,)"
      }
      item = end + 1;
    }
    shapes.push_back(std::move(shape));
    at = close + 1;
  }
  return shapes;
}

std::string format_shape_list(const std::vector<Shape>& shapes) {
  std::string out = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + detail::format_shape(shapes[i]);
  return out + "]";
}

}  // namespace einops::tool
