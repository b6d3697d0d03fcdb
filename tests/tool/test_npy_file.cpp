// .npy files on disk: AnyTensor round trips for every dtype and order, the copy paths of the
// reader (big-endian, misaligned, non-0/1 bools), and atomic writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "einops/ops.hpp"
#include "npy_file.hpp"
#include "npy_format.hpp"
#include "tool_errors.hpp"

namespace einops::tool {
namespace {

namespace fs = std::filesystem;

class NpyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("einops_npy_test_" + std::to_string(::getpid()));
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : fs::directory_iterator(folder_)) out.push_back(entry.path().filename().string());
    return out;
  }
  static void write_bytes(const std::string& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary) << bytes;
  }
  static std::string read_bytes(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  fs::path folder_;
};

/// 0, 1, 2, ... as T (bools alternate), row-major, shape (2, 3, 4).
AnyTensor counting(DType dtype) {
  AnyTensor x(dtype, Shape{2, 3, 4});
  visit_dtype(dtype, [&](auto zero) {
    using T = decltype(zero);
    for (int i = 0; i < 24; ++i) static_cast<T*>(x.data())[i] = T(i % (std::is_same_v<T, bool> ? 2 : 100));
  });
  return x;
}

std::vector<double> values_of(const AnyTensor& x) {
  std::vector<double> out;
  visit_dtype(x.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for (const T& v : x.as<T>().to_vector()) out.push_back(static_cast<double>(v));
  });
  return out;
}

TEST_F(NpyFile, EveryDtypeAndOrderRoundTrips) {
  const DType dtypes[] = {DType::boolean, DType::int8,   DType::int16,  DType::int32,   DType::int64,   DType::uint8,
                          DType::uint16,  DType::uint32, DType::uint64, DType::float16, DType::float32, DType::float64};
  for (DType dtype : dtypes) {
    const AnyTensor x = counting(dtype);
    // C order as it is; Fortran order through a transposing view (written without a copy).
    const AnyTensor transposed = rearrange(x, "a b c -> c b a");
    for (const AnyTensor& source : {x, transposed}) {
      save_npy(path("x.npy"), source);
      const AnyTensor back = load_npy(path("x.npy"));
      EXPECT_EQ(back.dtype(), dtype);
      EXPECT_TRUE(std::equal(back.shape().begin(), back.shape().end(), source.shape().begin(), source.shape().end()));
      EXPECT_EQ(values_of(back), values_of(source)) << dtype_name(dtype);
    }
    EXPECT_TRUE(is_column_major_contiguous(load_npy(path("x.npy"))));
  }
}

TEST_F(NpyFile, LittleEndianDataIsMappedNotCopied) {
  save_npy(path("x.npy"), counting(DType::int32));
  const AnyTensor a = load_npy(path("x.npy"));
  const std::string bytes = read_bytes(path("x.npy"));
  EXPECT_EQ(std::memcmp(a.data(), bytes.data() + 128, 96), 0);
  // Writing over the file later does not change what was read (a private mapping of an inode
  // that the atomic rename replaces, not rewrites).
  save_npy(path("x.npy"), counting(DType::float64));
  EXPECT_EQ(values_of(a)[5], 5.0);
}

TEST_F(NpyFile, BigEndianIsConverted) {
  std::string file = format_npy_header(DType::uint16, false, Shape{3});
  file.replace(file.find("<u2"), 3, ">u2");
  file += std::string("\x01\x02\x00\x05\xff\x00", 6);
  write_bytes(path("be.npy"), file);
  EXPECT_EQ(values_of(load_npy(path("be.npy"))), (std::vector<double>{258, 5, 65280}));
}

TEST_F(NpyFile, MisalignedDataAndOddBoolsAreCopied) {
  // A header of 11 bytes puts float64 data at offset 21, not a multiple of 8.
  std::string text = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,)}\n";
  std::string file = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(text.size()) + '\0' + text;
  ASSERT_NE(file.size() % 8, 0u);
  const double values[2] = {1.5, -2.25};
  file.append(reinterpret_cast<const char*>(values), sizeof(values));
  write_bytes(path("odd.npy"), file);
  const AnyTensor odd = load_npy(path("odd.npy"));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(odd.data()) % alignof(double), 0u);
  EXPECT_EQ(values_of(odd), (std::vector<double>{1.5, -2.25}));

  std::string bools = format_npy_header(DType::boolean, false, Shape{4}) + std::string("\x00\x01\x02\xff", 4);
  write_bytes(path("bools.npy"), bools);
  const AnyTensor b = load_npy(path("bools.npy"));
  const auto* raw = static_cast<const unsigned char*>(b.data());
  EXPECT_EQ(std::vector<int>(raw, raw + 4), (std::vector<int>{0, 1, 1, 1})) << "numpy reads non-zero bytes as True";
}

TEST_F(NpyFile, ErrorsNameTheFile) {
  try {
    load_npy(path("missing.npy"));
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_EQ(std::string(e.what()), path("missing.npy") + ": cannot open: No such file or directory");
  }
  write_bytes(path("short.npy"), format_npy_header(DType::float32, false, Shape{10}) + std::string(39, '\0'));
  try {
    load_npy(path("short.npy"));
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find(path("short.npy") + ": truncated: the header promises 40 bytes"),
              std::string::npos);
  }
}

TEST_F(NpyFile, AtomicWritesLeaveNothingBehindOnFailure) {
  write_bytes(path("keep.npy"), "old content");
  {
    AtomicFile out(path("keep.npy"));
    out.write("partial", 7);
    EXPECT_EQ(names().size(), 2u) << "the temporary file sits next to the target";
    // No commit: the writer gave up.
  }
  EXPECT_EQ(read_bytes(path("keep.npy")), "old content");
  EXPECT_EQ(names(), std::vector<std::string>{"keep.npy"});
  {
    AtomicFile out(path("keep.npy"));
    out.write("new", 3);
    out.commit();
  }
  EXPECT_EQ(read_bytes(path("keep.npy")), "new");
  EXPECT_EQ(names(), std::vector<std::string>{"keep.npy"});
  EXPECT_THROW(AtomicFile(path("no/such/folder/x.npy")), FileError);
  EXPECT_THROW(AtomicFile(folder_.string()), FileError);
  EXPECT_EQ(fs::status(path("keep.npy")).permissions() & fs::perms::owner_read, fs::perms::owner_read);
}

}  // namespace
}  // namespace einops::tool
