// The tool's small parts: command-line words, shape lists, dtype casts, array printing.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "arguments.hpp"
#include "array_print.hpp"
#include "cast.hpp"
#include "tool_errors.hpp"

namespace einops::tool {
namespace {

TEST(Arguments, FilesAndAxisLengthsInAnyOrder) {
  const Positionals p = split_positionals({"b1=4", "batch.npy", "w2=-1", "./a=1", "dir/x=2.npy", "=3", "é=2"});
  EXPECT_EQ(p.files, (std::vector<std::string>{"batch.npy", "./a=1", "dir/x=2.npy"}));
  ASSERT_EQ(p.lengths.size(), 4u);
  EXPECT_EQ(p.lengths.entries()[0], (AxisLengths::Entry{"b1", 4}));
  EXPECT_EQ(p.lengths.entries()[1], (AxisLengths::Entry{"w2", -1}));
  EXPECT_EQ(p.lengths.entries()[2], (AxisLengths::Entry{"", 3})) << "the library rejects an empty name, as einops";
  EXPECT_EQ(p.lengths.entries()[3], (AxisLengths::Entry{"é", 2}));
  EXPECT_THROW(split_positionals({"h=two"}), UsageError);
  EXPECT_THROW(split_positionals({"h=99999999999999999999"}), UsageError);
}

TEST(Arguments, Shapes) {
  EXPECT_EQ(parse_shape_list("2,3,4"), (Shape{2, 3, 4}));
  EXPECT_EQ(parse_shape_list("16x32"), (Shape{16, 32}));
  EXPECT_EQ(parse_shape_list(""), Shape{});
  EXPECT_THROW(parse_shape_list("2,,3"), UsageError);
  EXPECT_THROW(parse_shape_list("2,-3"), UsageError);
  EXPECT_THROW(parse_shape_list("2,"), UsageError);

  const std::vector<Shape> shapes = {{2, 3}, {}, {4}, {-1, 5}};
  EXPECT_EQ(format_shape_list(shapes), "[(2, 3), (), (4,), (-1, 5)]");
  EXPECT_EQ(parse_shape_list_text(format_shape_list(shapes)), shapes);
  EXPECT_EQ(parse_shape_list_text("(2,3)(4,)"), (std::vector<Shape>{{2, 3}, {4}}));
  EXPECT_THROW(parse_shape_list_text("[(2, 3]"), UsageError);
  EXPECT_THROW(parse_shape_list_text("[(2,,3)]"), UsageError);
  EXPECT_THROW(parse_shape_list_text("[2, 3]"), UsageError);
}

TEST(Cast, DefinedForEveryValue) {
  AnyTensor x(DType::float64, Shape{6});
  const double values[] = {1.9, -1.9, 1e300, -1e300, std::numeric_limits<double>::quiet_NaN(), 0.0};
  std::copy(std::begin(values), std::end(values), static_cast<double*>(x.data()));
  const auto as = [&](DType dtype) {
    std::vector<double> out;
    const AnyTensor y = cast(x, dtype);
    EXPECT_EQ(y.dtype(), dtype);
    visit_dtype(dtype, [&](auto zero) {
      using T = decltype(zero);
      for (const T& v : y.as<T>().to_vector()) out.push_back(static_cast<double>(v));
    });
    return out;
  };
  EXPECT_EQ(as(DType::int8), (std::vector<double>{1, -1, 127, -128, 0, 0}));
  EXPECT_EQ(as(DType::uint16), (std::vector<double>{1, 0, 65535, 0, 0, 0}));
  EXPECT_EQ(as(DType::int64)[2], 9223372036854775807.0);
  EXPECT_EQ(as(DType::boolean), (std::vector<double>{1, 1, 1, 1, 1, 0}));
  const std::vector<double> half = as(DType::float16);
  EXPECT_EQ(half[0], 1.900390625);
  EXPECT_TRUE(std::isinf(half[2]));
  EXPECT_TRUE(std::isnan(half[4]));
  EXPECT_EQ(dtype_from_name("float16"), DType::float16);
  EXPECT_EQ(dtype_from_name("bfloat16"), std::nullopt) << "numpy has no bfloat16";
  EXPECT_EQ(dtype_from_name("complex64"), std::nullopt);
}

TEST(ArrayPrint, LikeNumpy) {
  AnyTensor ints(DType::int64, Shape{2, 3});
  for (int i = 0; i < 6; ++i) static_cast<std::int64_t*>(ints.data())[i] = i * 5;
  EXPECT_EQ(format_array(ints), "shape (2, 3), int64\n[[ 0  5 10]\n [15 20 25]]\n");
  AnyTensor flags(DType::boolean, Shape{2});
  static_cast<bool*>(flags.data())[1] = true;
  EXPECT_EQ(format_array(flags), "shape (2,), bool\n[False  True]\n");
  AnyTensor halves(DType::float16, Shape{3});
  const float values[] = {0.1f, 2.0f, -1.5f};
  for (int i = 0; i < 3; ++i) static_cast<float16*>(halves.data())[i] = float16(values[i]);
  EXPECT_EQ(format_array(halves), "shape (3,), float16\n[ 0.1   2. -1.5]\n");
  AnyTensor big(DType::uint8, Shape{2000});
  const std::string text = format_array(big);
  EXPECT_NE(text.find("[0 0 0 ... 0 0 0]"), std::string::npos) << text;
  EXPECT_EQ(format_array(AnyTensor(DType::float32, Shape{0, 3})), "shape (0, 3), float32\n[]\n");
}

}  // namespace
}  // namespace einops::tool
