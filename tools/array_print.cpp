#include "array_print.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <vector>

namespace einops::tool {
namespace {

constexpr std::int64_t kSummariseAbove = 1000;  // numpy's default threshold
constexpr std::int64_t kEdgeItems = 3;

/// The shortest decimal that reads back as the same value of T (as numpy prints floats).
template <class T>
std::string shortest_text(T value) {
  std::array<char, 64> buffer{};
  if constexpr (std::is_floating_point_v<T>) {
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
  } else {  // 16-bit floats: the fewest significant digits that round back to the same bits
    const auto wide = static_cast<float>(value);
    for (int digits = 1; digits < 9; ++digits) {
      const auto result =
          std::to_chars(buffer.data(), buffer.data() + buffer.size(), wide, std::chars_format::general, digits);
      float parsed = 0;
      std::from_chars(buffer.data(), result.ptr, parsed);
      if (T(parsed).bits == value.bits) return std::string(buffer.data(), result.ptr);
    }
    return shortest_text(wide);
  }
}

template <class T>
std::string element_text(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "True" : "False";
  } else if constexpr (is_floating_element_v<T>) {
    const auto wide = static_cast<double>(value);
    if (std::isnan(wide)) return "nan";
    if (std::isinf(wide)) return wide > 0 ? "inf" : "-inf";
    std::string text = shortest_text(value);
    if (text.find_first_of(".e") == std::string::npos) text += ".";
    return text;
  } else {
    return std::to_string(value);
  }
}

class Printer {
 public:
  explicit Printer(const AnyTensor& x) : x_(x), summarise_(x.size() > kSummariseAbove) {}

  std::string run() {
    std::vector<std::int64_t> index(x_.rank(), 0);
    collect(0, index, 0);
    for (const std::string& text : texts_) width_ = std::max(width_, text.size());
    std::string out;
    next_ = 0;
    emit(0, out);
    return out;
  }

 private:
  /// Indices shown along an axis of `length`: all, or the first and last few.
  std::vector<std::int64_t> shown(std::int64_t length) const {
    std::vector<std::int64_t> out;
    if (summarise_ && length > 2 * kEdgeItems) {
      for (std::int64_t i = 0; i < kEdgeItems; ++i) out.push_back(i);
      out.push_back(-1);  // the "..." marker
      for (std::int64_t i = length - kEdgeItems; i < length; ++i) out.push_back(i);
    } else {
      for (std::int64_t i = 0; i < length; ++i) out.push_back(i);
    }
    return out;
  }

  void collect(std::size_t dim, std::vector<std::int64_t>& index, std::int64_t offset) {
    if (dim == x_.rank()) {
      visit_dtype(x_.dtype(), [&](auto zero) {
        using T = decltype(zero);
        texts_.push_back(element_text(static_cast<const T*>(x_.data())[offset]));
      });
      return;
    }
    for (std::int64_t i : shown(x_.shape()[dim])) {
      if (i < 0) continue;
      index[dim] = i;
      collect(dim + 1, index, offset + i * x_.strides()[dim]);
    }
  }

  void emit(std::size_t dim, std::string& out) {
    if (dim == x_.rank()) {
      const std::string& text = texts_[next_++];
      out.append(width_ - text.size(), ' ');
      out += text;
      return;
    }
    out += '[';
    const std::vector<std::int64_t> indices = shown(x_.shape()[dim]);
    const std::size_t rows_below = x_.rank() - dim - 1;
    for (std::size_t k = 0; k < indices.size(); ++k) {
      if (k > 0) {
        if (rows_below == 0) {
          out += ' ';
        } else {
          out.append(rows_below, '\n');
          out.append(dim + 1, ' ');
        }
      }
      if (indices[k] < 0) out += "...";
      else emit(dim + 1, out);
    }
    out += ']';
  }

  const AnyTensor& x_;
  bool summarise_;
  std::vector<std::string> texts_;
  std::size_t width_ = 0;
  std::size_t next_ = 0;
};

}  // namespace

std::string format_array(const AnyTensor& x) {
  std::string out = "shape " + detail::format_shape(x.shape()) + ", " + std::string(dtype_name(x.dtype())) + "\n";
  if (x.size() == 0) return out + "[]\n";
  return out + Printer(x).run() + "\n";
}

}  // namespace einops::tool
