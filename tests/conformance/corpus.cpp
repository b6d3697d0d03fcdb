#include "corpus.hpp"

#include <fstream>
#include <stdexcept>

namespace conformance {

bool Case::expects_error() const {
  const Json& e = expect();
  return e.is_object() && e.contains("error") && e.at("error").is_boolean() && e.at("error").get<bool>();
}

bool Case::list_input() const {
  return raw.contains("list_input") && raw.at("list_input").is_boolean() && raw.at("list_input").get<bool>();
}

std::string Case::note() const {
  return raw.contains("note") && raw.at("note").is_string() ? raw.at("note").get<std::string>() : std::string();
}

std::vector<einops::Shape> Case::shapes() const { return raw.at("shapes").get<std::vector<einops::Shape>>(); }

einops::AxisLengths Case::axes_lengths() const {
  einops::AxisLengths lengths;
  if (!raw.contains("axes_lengths") || raw.at("axes_lengths").is_null()) return lengths;
  for (const auto& [name, length] : raw.at("axes_lengths").items()) lengths.add(name, length.get<std::int64_t>());
  return lengths;
}

std::vector<Case> load_corpus(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open corpus " + path);
  std::vector<Case> cases;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are allowed
    Case c;
    c.line = line;
    try {
      c.raw = Json::parse(text);
      c.id = c.raw.at("id").get<std::string>();
      c.op = c.raw.at("op").get<std::string>();
      c.pattern = c.raw.contains("pattern") && c.raw.at("pattern").is_string() ? c.raw.at("pattern").get<std::string>()
                                                                               : std::string();
      if (!c.raw.contains("expect")) throw std::runtime_error("no 'expect'");
    } catch (const std::exception& e) {
      throw std::runtime_error(path + ":" + std::to_string(line) + ": " + e.what());
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace conformance
