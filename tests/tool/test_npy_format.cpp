// The .npy header reader and writer on bytes in memory: round trips, every malformed-header
// class with its message, and a seeded fuzz loop (run under ASan/UBSan in the sanitizer build).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "npy_format.hpp"

namespace einops::tool {
namespace {

std::vector<unsigned char> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

/// A file: the header numpy would write for (dtype, order, shape) and `data_bytes` zero bytes.
std::vector<unsigned char> file_of(DType dtype, bool fortran, const Shape& shape, std::size_t data_bytes) {
  std::vector<unsigned char> file = bytes_of(format_npy_header(dtype, fortran, shape));
  file.resize(file.size() + data_bytes, 0);
  return file;
}

/// A version 1.0 file with a hand-written dictionary.
std::vector<unsigned char> with_dictionary(const std::string& dictionary, std::size_t data_bytes = 0) {
  std::string text = dictionary + "\n";
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(text.size() & 0xFF);
  file += static_cast<char>(text.size() >> 8);
  file += text;
  file.append(data_bytes, '\0');
  return bytes_of(file);
}

std::string error_of(const std::vector<unsigned char>& file) {
  try {
    parse_npy_header(file);
  } catch (const NpyFormatError& e) {
    return e.what();
  }
  return "";
}

TEST(NpyFormat, WrittenHeadersReadBack) {
  const DType dtypes[] = {DType::boolean, DType::int8,   DType::int16,  DType::int32,   DType::int64,   DType::uint8,
                          DType::uint16,  DType::uint32, DType::uint64, DType::float16, DType::float32, DType::float64};
  const Shape shapes[] = {{}, {0}, {5}, {2, 3}, {1, 2, 3, 4, 5, 6, 7}};
  for (DType dtype : dtypes)
    for (const Shape& shape : shapes)
      for (bool fortran : {false, true}) {
        std::size_t count = 1;
        for (std::int64_t length : shape) count *= static_cast<std::size_t>(length);
        const auto file = file_of(dtype, fortran, shape, count * dtype_size(dtype));
        const NpyHeader header = parse_npy_header(file);
        EXPECT_EQ(header.dtype, dtype);
        EXPECT_EQ(header.fortran_order, fortran);
        EXPECT_EQ(header.shape, shape);
        EXPECT_FALSE(header.big_endian);
        EXPECT_EQ(header.data_offset % 64, 0u) << "numpy aligns the data to 64 bytes";
        EXPECT_EQ(header.data_bytes, count * dtype_size(dtype));
      }
}

TEST(NpyFormat, WritesWhatNumpyWrites) {
  // np.save of np.zeros((2, 3)) starts with exactly these bytes.
  const std::string header = format_npy_header(DType::float64, false, Shape{2, 3});
  EXPECT_EQ(header.substr(0, 10), std::string("\x93NUMPY\x01\x00\x76\x00", 10));
  EXPECT_EQ(header.substr(10, 59), "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(header.size(), 128u);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_NE(
      format_npy_header(DType::uint8, true, Shape{7}).find("'descr': '|u1', 'fortran_order': True, 'shape': (7,)"),
      std::string::npos);
}

TEST(NpyFormat, ReadsOtherSpellings) {
  // Versions 2.0 and 3.0, double quotes, other key order, Python 2 longs, big-endian, '?' for bool.
  std::string dictionary = "{\"shape\": (2L, 3), \"fortran_order\": True, \"descr\": \">i4\"}";
  std::string file = std::string("\x93NUMPY\x03\x00", 8);
  const std::string text = dictionary + "   \n";
  for (int i = 0; i < 4; ++i) file += static_cast<char>((text.size() >> (8 * i)) & 0xFF);
  file += text + std::string(24, '\0');
  const NpyHeader header = parse_npy_header(bytes_of(file));
  EXPECT_EQ(header.major_version, 3);
  EXPECT_EQ(header.dtype, DType::int32);
  EXPECT_TRUE(header.big_endian);
  EXPECT_TRUE(header.fortran_order);
  EXPECT_EQ(header.shape, (Shape{2, 3}));
  EXPECT_EQ(header.data_offset, 12 + text.size());
  EXPECT_EQ(parse_npy_header(with_dictionary("{'descr': '?', 'fortran_order': False, 'shape': (4,)}", 4)).dtype,
            DType::boolean);
}

TEST(NpyFormat, MalformedHeadersSayWhatIsWrong) {
  const auto good = file_of(DType::float64, false, Shape{2, 3}, 48);
  EXPECT_EQ(error_of({}), "empty file, not a .npy file");
  EXPECT_NE(error_of(bytes_of("PK\x03\x04 a zip file")).find("not a .npy file"), std::string::npos);
  EXPECT_NE(error_of({good.begin(), good.begin() + 7}).find("truncated"), std::string::npos);
  EXPECT_NE(error_of({good.begin(), good.begin() + 9}).find("truncated"), std::string::npos);
  EXPECT_NE(error_of({good.begin(), good.begin() + 100}).find("truncated: the header length field says 118"),
            std::string::npos);
  EXPECT_NE(error_of({good.begin(), good.end() - 1}).find("promises 48 bytes of data"), std::string::npos);

  auto version = good;
  version[6] = 4;
  EXPECT_NE(error_of(version).find("version 4.0"), std::string::npos);
  auto huge_length = good;
  huge_length[6] = 2;  // version 2.0 reads a 4-byte length: bytes 8..11
  huge_length[10] = 0xFF;
  huge_length[11] = 0x7F;
  EXPECT_NE(error_of(huge_length).find("more than any real header"), std::string::npos);

  const std::pair<std::string, std::string> cases[] = {
      {"{'descr': '<f8', 'fortran_order': False}", "required"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'extra': 1}", "unexpected key 'extra'"},
      {"{'descr': '<c16', 'fortran_order': False, 'shape': (1,)}", "unsupported dtype '<c16'"},
      {"{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (1,)}", "structured"},
      {"{'descr': 3, 'fortran_order': False, 'shape': (1,)}", "'descr' is not a string"},
      {"{'descr': '<f8', 'fortran_order': 1, 'shape': (1,)}", "'fortran_order' is not True or False"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [1]}", "'shape' is not a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': ('a',)}", "holds something other than integers"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}", "negative length"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,)}", "integer too large"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296)}", "more elements"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,)} trailing", "unexpected text after the dictionary"},
      {"{'descr': '<f8' 'fortran_order': False}", "expected ',' or '}'"},
      {"{'descr: '<f8'}", "expected ':'"},
      {"{'descr': '<f8", "unterminated string"},
      {"{'descr': " + std::string(40, '[') + std::string(40, ']') + "}", "nesting too deep"},
      {"(1, 2)", "not a dictionary"},
      {"{'descr': '<f8', 'fortran_order': Maybe, 'shape': (1,)}", "unexpected character"},
  };
  for (const auto& [dictionary, fragment] : cases)
    EXPECT_NE(error_of(with_dictionary(dictionary, 8)).find(fragment), std::string::npos)
        << dictionary << " -> " << error_of(with_dictionary(dictionary, 8));
  std::string many = "{'descr': '<f8', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < 65; ++i) many += "1, ";
  EXPECT_NE(error_of(with_dictionary(many + ")}", 8)).find("65 dimensions"), std::string::npos);
}

TEST(NpyFormat, FuzzedHeadersFailCleanly) {
  // Random edits and cuts of valid files: every outcome is a header consistent with the bytes
  // or an NpyFormatError; ASan/UBSan check that nothing reads out of bounds on the way.
  const std::vector<std::vector<unsigned char>> seeds = {
      file_of(DType::float64, false, Shape{3, 4}, 96), file_of(DType::int16, true, Shape{5}, 10),
      file_of(DType::boolean, false, Shape{}, 1),
      with_dictionary("{'descr': '>f2', 'fortran_order': True, 'shape': (2, 2)}", 8)};
  std::mt19937 random(8);
  int parsed = 0, refused = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<unsigned char> file = seeds[random() % seeds.size()];
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % std::min<std::size_t>(file.size(), 140);
      file[at] =
          static_cast<unsigned char>(random() % 2 == 0 ? random() % 256 : " ,()[]{}':-0123456789L"[random() % 22]);
    }
    if (random() % 4 == 0) file.resize(random() % (file.size() + 1));
    try {
      const NpyHeader header = parse_npy_header(file);
      ASSERT_LE(header.data_offset, file.size());
      ASSERT_LE(header.data_bytes, file.size() - header.data_offset);
      ++parsed;
    } catch (const NpyFormatError&) {
      ++refused;
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace einops::tool
