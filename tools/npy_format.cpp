#include "npy_format.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "einops/detail/platform.hpp"
#include "einops/detail/walk.hpp"

namespace einops::tool {
namespace {

constexpr std::array<unsigned char, 6> kMagic = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kAlignment = 64;  // numpy aligns the data to 64 bytes since 1.14
constexpr int kMaxLiteralDepth = 16;    // nesting allowed in the header (structured dtypes nest)

struct DescrCode {
  std::string_view code;  // without the byte-order character
  DType dtype;
};
constexpr DescrCode kDescrCodes[] = {
    {"b1", DType::boolean}, {"?", DType::boolean}, {"i1", DType::int8},    {"i2", DType::int16},
    {"i4", DType::int32},   {"i8", DType::int64},  {"u1", DType::uint8},   {"u2", DType::uint16},
    {"u4", DType::uint32},  {"u8", DType::uint64}, {"f2", DType::float16}, {"f4", DType::float32},
    {"f8", DType::float64},
};

[[noreturn]] void malformed(const std::string& what) { throw NpyFormatError("malformed header: " + what); }

// ---- a reader for the Python literal the header holds ------------------------------------------

struct Literal {
  enum class Kind { string, boolean, integer, tuple, list, dict, none } kind = Kind::none;
  std::string text;
  bool flag = false;
  std::int64_t integer = 0;
  std::vector<Literal> items;     // tuple, list: elements; dict: values
  std::vector<std::string> keys;  // dict only
};

class LiteralReader {
 public:
  explicit LiteralReader(std::string_view text) : text_(text) {}

  Literal read_top() {
    Literal value = read(0);
    skip_space();
    if (at_ != text_.size()) fail("unexpected text after the dictionary");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { malformed(what + " at byte " + std::to_string(at_)); }

  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t' || text_[at_] == '\r'))
      ++at_;
  }
  bool take(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool take_word(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) return false;
    at_ += word.size();
    return true;
  }

  Literal read(int depth) {
    if (depth > kMaxLiteralDepth) fail("nesting too deep");
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    const char c = text_[at_];
    Literal value;
    if (c == '\'' || c == '"') {
      value.kind = Literal::Kind::string;
      value.text = read_string();
    } else if (c == '{') {
      ++at_;
      value.kind = Literal::Kind::dict;
      while (!take('}')) {
        skip_space();
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"')) fail("expected a string key");
        value.keys.push_back(read_string());
        if (!take(':')) fail("expected ':'");
        value.items.push_back(read(depth + 1));
        if (!take(',')) {
          if (!take('}')) fail("expected ',' or '}'");
          break;
        }
      }
    } else if (c == '(' || c == '[') {
      const char close = c == '(' ? ')' : ']';
      ++at_;
      value.kind = c == '(' ? Literal::Kind::tuple : Literal::Kind::list;
      while (!take(close)) {
        value.items.push_back(read(depth + 1));
        if (!take(',')) {
          if (!take(close)) fail(std::string("expected ',' or '") + close + "'");
          break;
        }
      }
    } else if (c >= '0' && c <= '9') {
      value.kind = Literal::Kind::integer;
      value.integer = read_integer();
    } else if (c == '-') {
      ++at_;
      if (at_ >= text_.size() || text_[at_] < '0' || text_[at_] > '9') fail("expected a digit");
      value.kind = Literal::Kind::integer;
      value.integer = -read_integer();
    } else if (take_word("True")) {
      value.kind = Literal::Kind::boolean;
      value.flag = true;
    } else if (take_word("False")) {
      value.kind = Literal::Kind::boolean;
    } else if (take_word("None")) {
      value.kind = Literal::Kind::none;
    } else {
      fail("unexpected character");
    }
    return value;
  }

  std::string read_string() {
    const char quote = text_[at_++];
    std::string out;
    while (at_ < text_.size() && text_[at_] != quote) {
      if (text_[at_] == '\\' && at_ + 1 < text_.size()) ++at_;
      out += text_[at_++];
    }
    if (at_ >= text_.size()) fail("unterminated string");
    ++at_;
    return out;
  }

  std::int64_t read_integer() {
    std::int64_t value = 0;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
      if (detail::checked_mul(value, std::int64_t{10}, value) ||
          detail::checked_add(value, std::int64_t{text_[at_] - '0'}, value))
        fail("integer too large");
      ++at_;
    }
    if (at_ < text_.size() && text_[at_] == 'L') ++at_;  // Python 2 long suffix
    return value;
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

// ---- the header's three keys -----------------------------------------------------------------

void read_descr(const Literal& value, NpyHeader& header) {
  if (value.kind == Literal::Kind::list) throw NpyFormatError("unsupported dtype: structured arrays cannot be read");
  if (value.kind != Literal::Kind::string) malformed("'descr' is not a string");
  std::string_view code = value.text;
  char order = '=';
  if (!code.empty() && (code[0] == '<' || code[0] == '>' || code[0] == '|' || code[0] == '=')) {
    order = code[0];
    code.remove_prefix(1);
  }
  for (const DescrCode& entry : kDescrCodes)
    if (entry.code == code) {
      header.dtype = entry.dtype;
      header.big_endian = order == '>' && dtype_size(entry.dtype) > 1;
      return;
    }
  throw NpyFormatError("unsupported dtype '" + value.text +
                       "' (supported: bool, int8-int64, uint8-uint64, float16, float32, float64)");
}

void read_shape(const Literal& value, NpyHeader& header) {
  if (value.kind != Literal::Kind::tuple) malformed("'shape' is not a tuple");
  if (value.items.size() > static_cast<std::size_t>(detail::kMaxRank))
    throw NpyFormatError("unsupported shape: " + std::to_string(value.items.size()) + " dimensions, the limit is " +
                         std::to_string(detail::kMaxRank));
  for (const Literal& length : value.items) {
    if (length.kind != Literal::Kind::integer) malformed("'shape' holds something other than integers");
    if (length.integer < 0) malformed("'shape' holds a negative length");
    header.shape.push_back(length.integer);
  }
}

void read_dictionary(std::string_view text, NpyHeader& header) {
  const Literal top = LiteralReader(text).read_top();
  if (top.kind != Literal::Kind::dict) malformed("not a dictionary");
  bool seen[3] = {false, false, false};
  for (std::size_t i = 0; i < top.keys.size(); ++i) {
    const std::string& key = top.keys[i];
    const Literal& value = top.items[i];
    if (key == "descr") {
      read_descr(value, header);
      seen[0] = true;
    } else if (key == "fortran_order") {
      if (value.kind != Literal::Kind::boolean) malformed("'fortran_order' is not True or False");
      header.fortran_order = value.flag;
      seen[1] = true;
    } else if (key == "shape") {
      read_shape(value, header);
      seen[2] = true;
    } else {
      malformed("unexpected key '" + key + "'");
    }
  }
  if (!seen[0] || !seen[1] || !seen[2]) malformed("the keys 'descr', 'fortran_order' and 'shape' are required");
}

std::uint32_t read_le(std::span<const unsigned char> bytes, std::size_t at, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t i = width; i-- > 0;) value = (value << 8) | bytes[at + i];
  return value;
}

std::string shape_text(std::span<const std::int64_t> shape) { return detail::format_shape(shape); }

}  // namespace

NpyHeader parse_npy_header(std::span<const unsigned char> file) {
  if (file.size() < kMagic.size() || !std::equal(kMagic.begin(), kMagic.end(), file.begin()))
    throw NpyFormatError(file.empty() ? "empty file, not a .npy file" : "not a .npy file (no \\x93NUMPY magic)");
  if (file.size() < 8) throw NpyFormatError("truncated: the file ends inside the preamble");
  NpyHeader header;
  header.major_version = file[6];
  const int minor = file[7];
  if (header.major_version < 1 || header.major_version > 3 || minor != 0)
    throw NpyFormatError("unsupported .npy format version " + std::to_string(header.major_version) + "." +
                         std::to_string(minor) + " (1.0, 2.0 and 3.0 are supported)");
  const std::size_t length_width = header.major_version == 1 ? 2 : 4;
  const std::size_t prefix = 8 + length_width;
  if (file.size() < prefix) throw NpyFormatError("truncated: the file ends inside the preamble");
  const std::size_t header_length = read_le(file, 8, length_width);
  if (header_length > kMaxNpyHeaderBytes)
    throw NpyFormatError("header length field says " + std::to_string(header_length) +
                         " bytes, more than any real header (limit " + std::to_string(kMaxNpyHeaderBytes) + ")");
  if (file.size() - prefix < header_length)
    throw NpyFormatError("truncated: the header length field says " + std::to_string(header_length) +
                         " bytes, but the file ends after " + std::to_string(file.size() - prefix));
  const std::string_view text(reinterpret_cast<const char*>(file.data() + prefix), header_length);
  read_dictionary(text, header);
  header.data_offset = prefix + header_length;

  const std::size_t element = dtype_size(header.dtype);
  std::size_t bytes = element;
  for (std::int64_t length : header.shape)
    if (detail::checked_mul(bytes, static_cast<std::size_t>(length), bytes) ||
        bytes > static_cast<std::size_t>(INT64_MAX))
      throw NpyFormatError("shape " + shape_text(header.shape) + " has more elements than memory can hold");
  header.data_bytes = bytes;
  const std::size_t available = file.size() - header.data_offset;
  if (available < bytes)
    throw NpyFormatError("truncated: the header promises " + std::to_string(bytes) + " bytes of data (shape " +
                         shape_text(header.shape) + ", " + std::string(dtype_name(header.dtype)) +
                         "), the file holds " + std::to_string(available));
  return header;
}

std::string npy_descr(DType dtype) {
  for (const DescrCode& entry : kDescrCodes)
    if (entry.dtype == dtype && entry.code != "?")
      return std::string(dtype_size(dtype) == 1 ? "|" : "<").append(entry.code);
  return "?";
}

std::string format_npy_header(DType dtype, bool fortran_order, std::span<const std::int64_t> shape) {
  std::string dictionary =
      "{'descr': '" + npy_descr(dtype) + "', 'fortran_order': " + (fortran_order ? "True" : "False") + ", 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) dictionary += (i ? ", " : "") + std::to_string(shape[i]);
  dictionary += shape.size() == 1 ? ",), }" : "), }";
  // Version 1.0 (a 2-byte length field) always suffices: at most kMaxRank lengths of at most
  // 19 digits each keep the header far below 64 KiB.
  static_assert(detail::kMaxRank * 22 + 128 < 0xFFFF);
  constexpr std::size_t prefix = 10;
  const std::size_t total = (prefix + dictionary.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  const std::size_t header_length = total - prefix;
  std::string out(kMagic.begin(), kMagic.end());
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header_length & 0xFF);
  out += static_cast<char>(header_length >> 8);
  out += dictionary;
  out.append(total - out.size() - 1, ' ');
  out += '\n';
  return out;
}

}  // namespace einops::tool
