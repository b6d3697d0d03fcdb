// AxisName: the text of one axis as written in a pattern.
//
// Patterns given as literals are parsed in constant evaluation, so the parser's results hold no
// std::string: libstdc++ 12 begins the lifetime of a short string's buffer in a way Clang does not
// accept in constant evaluation (any std::string, even an empty one). A vector of characters is
// accepted by both GCC and Clang; names are parsed once per pattern, so its allocation is paid once.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace einops {

class AxisName {
 public:
  constexpr AxisName() = default;
  constexpr explicit AxisName(std::string_view text) : chars_(text.begin(), text.end()) {}

  constexpr std::string_view view() const { return {chars_.data(), chars_.size()}; }
  constexpr operator std::string_view() const { return view(); }
  operator std::string() const { return std::string(view()); }
  std::string str() const { return std::string(view()); }

  constexpr std::size_t size() const { return chars_.size(); }
  constexpr bool empty() const { return chars_.empty(); }

  friend constexpr bool operator==(const AxisName&, const AxisName&) = default;
  friend constexpr bool operator==(const AxisName& name, std::string_view text) { return name.view() == text; }

  friend std::string operator+(std::string text, const AxisName& name) { return text.append(name.view()); }
  friend std::string operator+(const AxisName& name, std::string_view text) {
    std::string out(name.view());
    return out.append(text);
  }
  template <class Traits>  // a template, so that <ostream> is needed only where a name is printed
  friend std::basic_ostream<char, Traits>& operator<<(std::basic_ostream<char, Traits>& out, const AxisName& name) {
    return out << name.view();
  }

 private:
  std::vector<char> chars_;
};

}  // namespace einops
