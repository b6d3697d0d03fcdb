// Rows of cells printed as left-aligned columns (for `einops explain`).
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace einops::tool {

/// Rows of cells printed as left-aligned columns, indented.
class Table {
 public:
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  std::string text(std::size_t indent = 3) const {
    std::vector<std::size_t> width;
    for (const auto& cells : rows_)
      for (std::size_t i = 0; i < cells.size(); ++i) {
        if (width.size() <= i) width.push_back(0);
        width[i] = std::max(width[i], display_width(cells[i]));
      }
    std::string out;
    for (const auto& cells : rows_) {
      std::string line(indent, ' ');
      for (std::size_t i = 0; i < cells.size(); ++i) {
        line += cells[i];
        if (i + 1 < cells.size()) line.append(width[i] - display_width(cells[i]) + 2, ' ');
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
    return out;
  }

 private:
  static std::size_t display_width(const std::string& text) {  // code points, for UTF-8 names
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  }
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace einops::tool
