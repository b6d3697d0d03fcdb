// Fuzz target (c): the command-line tool's .npy reader (tools/npy_format.cpp, tools/npy_file.cpp).
//
// The header parser, on arbitrary bytes, must return a header whose data lies inside the file or
// throw NpyFormatError. The file reader, on the same bytes written to a file, must return a tensor
// whose every element can be read, or throw FileError. A header the parser accepts must survive
// being written again by format_npy_header.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <einops/einops.hpp>

#include "fuzz_check.hpp"
#include "npy_file.hpp"
#include "npy_format.hpp"
#include "tool_errors.hpp"

namespace {

using namespace einops;

/// Reads every element of `x` through its strides: ASan (or a fault) catches any outside the data.
std::uint64_t touch_every_element(const AnyTensor& x) {
  if (x.size() == 0) return 0;
  const std::size_t element = dtype_size(x.dtype());
  std::vector<std::int64_t> index(x.rank(), 0);
  std::uint64_t checksum = 0;
  for (std::int64_t i = 0; i < x.size(); ++i) {
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < x.rank(); ++d) offset += index[d] * x.strides()[d];
    const auto* p = static_cast<const unsigned char*>(x.data()) + offset * static_cast<std::int64_t>(element);
    for (std::size_t b = 0; b < element; ++b) checksum = checksum * 31 + p[b];
    for (std::size_t d = x.rank(); d-- > 0;) {
      if (++index[d] < x.shape()[d]) break;
      index[d] = 0;
    }
  }
  return checksum;
}

void check_header(std::span<const unsigned char> file) {
  tool::NpyHeader header;
  try {
    header = tool::parse_npy_header(file);
  } catch (const tool::NpyFormatError&) {
    return;
  }
  FUZZ_REQUIRE(header.data_offset <= file.size(), "data offset past the end of the file");
  FUZZ_REQUIRE(header.data_bytes <= file.size() - header.data_offset, "data past the end of the file");
  FUZZ_REQUIRE(header.shape.size() <= static_cast<std::size_t>(kMaxTensorRank), "rank past the limit");
  const std::string again = tool::format_npy_header(header.dtype, header.fortran_order, header.shape);
  const auto* bytes = reinterpret_cast<const unsigned char*>(again.data());
  std::vector<unsigned char> rewritten(bytes, bytes + again.size());
  rewritten.resize(rewritten.size() + header.data_bytes, 0);
  const tool::NpyHeader reread = tool::parse_npy_header(rewritten);
  FUZZ_REQUIRE(reread.dtype == header.dtype && reread.shape == header.shape &&
                   reread.fortran_order == header.fortran_order && reread.data_bytes == header.data_bytes,
               "a header written again reads differently");
}

void check_file(std::span<const unsigned char> file) {
  static const std::string path = [] {
    const char* directory = std::getenv("TMPDIR");
    return std::string(directory != nullptr ? directory : "/tmp") + "/einops-fuzz-npy-" + std::to_string(getpid()) +
           ".npy";
  }();
  std::FILE* out = std::fopen(path.c_str(), "wb");
  FUZZ_REQUIRE(out != nullptr, "cannot write " + path);
  const std::size_t written = file.empty() ? 0 : std::fwrite(file.data(), 1, file.size(), out);
  std::fclose(out);
  FUZZ_REQUIRE(written == file.size(), "cannot write " + path);
  try {
    const AnyTensor x = tool::load_npy(path);
    (void)touch_every_element(x);
  } catch (const tool::FileError&) {
  } catch (const EinopsError&) {
  }
  std::remove(path.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> file(data, size);
  check_header(file);
  check_file(file);
  return 0;
}
