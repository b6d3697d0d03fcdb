// The fused conversion (convert.hpp) and flip (flip.hpp) against a naive reference: the
// rearrangement by the plain copy (same element type), then each element converted and mapped
// by scalar code written here. Every input/output type pair on every SIMD target, the map's
// axis in each position, reversed axes, strided inputs, rounding and saturation at the type
// limits, NaN and infinities, list inputs, and the same bits for 1, 2, 3 and 8 threads.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "error_message.hpp"

namespace {

using einops::bfloat16;
using einops::float16;
using einops::Tensor;
using einops::TensorView;
using einops_test::message_of;

// ---- the reference -----------------------------------------------------------------------------

template <class T>
float to_float(T value) {
  return static_cast<float>(value);
}

/// Out(y) as convert.hpp states it: nearest even; integers NaN -> 0, then saturated.
template <class Out>
Out from_float(float y) {
  if constexpr (std::is_integral_v<Out>) {
    if (std::isnan(y)) return 0;
    const double rounded = std::nearbyint(static_cast<double>(y));
    if (rounded < std::numeric_limits<Out>::min()) return std::numeric_limits<Out>::min();
    if (rounded > std::numeric_limits<Out>::max()) return std::numeric_limits<Out>::max();
    return static_cast<Out>(rounded);
  } else {
    return Out(y);
  }
}

struct Map {
  std::vector<float> scale, offset;
  bool offset_first = false;
};

/// The element of a map at position p along its axis (one value: every position).
float at(const std::vector<float>& values, std::int64_t p) {
  return values.size() == 1 ? values[0] : values[static_cast<std::size_t>(p)];
}

/// out[i] = Out(map(float(y[i]))), p the index of output dimension `axis_dim` (-1: none).
template <class Out, class In>
Tensor<Out> reference(const Tensor<In>& y, const Map* map, int axis_dim) {
  Tensor<Out> out(einops::Shape(y.shape().begin(), y.shape().end()));
  std::int64_t inner = 1;
  for (std::size_t d = static_cast<std::size_t>(axis_dim + 1); axis_dim >= 0 && d < y.rank(); ++d) inner *= y.shape(d);
  for (std::int64_t i = 0; i < y.size(); ++i) {
    float x = to_float(y.data()[i]);
    if (map != nullptr) {
      const std::int64_t p = axis_dim >= 0 ? (i / inner) % y.shape(static_cast<std::size_t>(axis_dim)) : 0;
      const float s = at(map->scale, p), o = at(map->offset, p);
      if (map->offset_first) {
        const float shifted = x + o;
        x = shifted * s;
      } else {
        const float scaled = x * s;
        x = scaled + o;
      }
    }
    out.data()[i] = from_float<Out>(x);
  }
  return out;
}

template <class T>
std::uint64_t bits_of(T value) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) return value.bits;
  else if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(value);
  else return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
}
template <class T>
bool is_nan(T value) {
  if constexpr (std::is_integral_v<T>) return false;
  else return std::isnan(static_cast<float>(value));
}

/// Element-wise identical (any NaN matches any NaN), with the first difference named.
template <class T>
::testing::AssertionResult same_elements(const Tensor<T>& got, const Tensor<T>& expected) {
  if (!std::equal(got.shape().begin(), got.shape().end(), expected.shape().begin(), expected.shape().end()))
    return ::testing::AssertionFailure() << "shapes differ";
  const Tensor<T> g = einops::contiguous(got);
  for (std::int64_t i = 0; i < g.size(); ++i) {
    const T a = g.data()[i], b = expected.data()[i];
    if (is_nan(a) && is_nan(b)) continue;
    if (bits_of(a) != bits_of(b))
      return ::testing::AssertionFailure()
             << "element " << i << ": " << static_cast<double>(to_float(a)) << " (bits " << bits_of(a)
             << ") != " << static_cast<double>(to_float(b)) << " (bits " << bits_of(b) << ")";
  }
  return ::testing::AssertionSuccess();
}

// ---- inputs ------------------------------------------------------------------------------------

/// Values across T's range: for integers every kind of value up to the limits, for floats
/// fractions with exact halves, large values, and (every 97th) NaN and infinities.
template <class T>
Tensor<T> random_tensor(einops::Shape shape, unsigned seed) {
  Tensor<T> x(std::move(shape));
  std::mt19937 rng(seed);
  for (std::int64_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      std::uniform_int_distribution<int> pick(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
      x.data()[i] = static_cast<T>(pick(rng));
    } else {
      std::uniform_int_distribution<int> pick(-1200, 1200);
      float value = static_cast<float>(pick(rng)) / 4.0f;  // quarters: exact halves after scaling by 2
      if (i % 97 == 5) value = std::numeric_limits<float>::quiet_NaN();
      if (i % 97 == 11) value = std::numeric_limits<float>::infinity();
      if (i % 97 == 17) value = -std::numeric_limits<float>::infinity();
      if (i % 97 == 23) value = 70000.0f;  // float16's infinity
      x.data()[i] = T(value);
    }
  }
  return x;
}

/// A per-channel map of three positions whose results cover the output types' limits.
Map channel_map() { return Map{{0.5f, 2.0f, -1.25f}, {3.0f, -0.5f, 100.0f}}; }

// ---- every type pair on every SIMD target --------------------------------------------------------

class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { einops::detail::force_simd_target(GetParam()); }
  void TearDown() override { einops::detail::force_simd_target(""); }
};
std::string target_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

/// The pattern's output has the channel axis at output dimension `axis_dim`.
struct Case {
  const char* pattern;
  int axis_dim;
};
/// Channels-last to planes (split), planes to channels-last (merge), channels kept, channels
/// outermost; on [2, 5, 37, 3] inputs read as `b h w c` (the last three with c = 37 for merge).
const Case kCases[] = {
    {"b h w c -> b c h w", 1}, {"b h w c -> b h w c", 3}, {"b h w c -> c b h w", 0}, {"b h w c -> b w h c", 3}};

template <class In, class Out>
void check_pair() {
  SCOPED_TRACE(std::string(einops::dtype_name(einops::dtype_v<In>)) + " -> " +
               std::string(einops::dtype_name(einops::dtype_v<Out>)));
  const Tensor<In> x = random_tensor<In>({2, 5, 37, 3}, 7);
  const Map map = channel_map();
  const einops::affine<"c"> affine{.scale = map.scale, .offset = map.offset};
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.pattern);
    const Tensor<In> moved = einops::contiguous(einops::rearrange(x, einops::runtime(c.pattern)));
    Tensor<Out> out(einops::Shape(moved.shape().begin(), moved.shape().end()));
    einops::rearrange_into(x, out, einops::runtime(c.pattern),
                           einops::affine<>{.scale = map.scale, .offset = map.offset, .axis = "c"});
    EXPECT_TRUE(same_elements(out, reference<Out>(moved, &map, c.axis_dim)));
    // Conversion only.
    einops::rearrange_into(x, out, einops::runtime(c.pattern));
    EXPECT_TRUE(same_elements(out, reference<Out>(moved, nullptr, -1)));
  }
  // Planes back to channels-last (merge), with a literal pattern and axis.
  const Tensor<In> planes = einops::contiguous(einops::rearrange(x, "b h w c -> b c h w"));
  Tensor<Out> back({2, 5, 37, 3});
  einops::rearrange_into(planes, back, "b c h w -> b h w c", affine);
  EXPECT_TRUE(same_elements(
      back, reference<Out>(einops::contiguous(einops::rearrange(planes, "b c h w -> b h w c")), &map, 3)));
  // The axis inside an output group: the same elements as the planes, regrouped.
  Tensor<Out> grouped = einops::rearrange<Out>(x, "b h w c -> b (c h) w", affine);
  EXPECT_TRUE(
      same_elements(grouped, einops::contiguous(einops::rearrange(
                                 einops::rearrange<Out>(x, "b h w c -> b c h w", affine), "b c h w -> b (c h) w"))));
  // offset first, scalars.
  const Map scalar{{1.5f}, {-7.0f}, true};
  Tensor<Out> y = einops::rearrange<Out>(x, "b h w c -> b c h w",
                                         einops::affine<>{.scale = {1.5f}, .offset = {-7.0f}, .offset_first = true});
  EXPECT_TRUE(same_elements(y, reference<Out>(planes, &scalar, -1)));
}

template <class In>
void check_input() {
  check_pair<In, float>();
  check_pair<In, float16>();
  check_pair<In, bfloat16>();
  check_pair<In, std::uint8_t>();
  check_pair<In, std::int8_t>();
}

TEST_P(EveryTarget, EveryTypePairMatchesTheReference) {
  check_input<std::uint8_t>();
  check_input<std::int8_t>();
  check_input<std::uint16_t>();
  check_input<std::int16_t>();
  check_input<float16>();
  check_input<bfloat16>();
  check_input<float>();
}

/// Reversed axes (flip) and strided inputs go through the same kernels: compared with the
/// reference on a materialised copy of the same view.
TEST_P(EveryTarget, ReversedAndStridedInputs) {
  const Tensor<std::uint8_t> x = random_tensor<std::uint8_t>({3, 9, 70, 4}, 11);
  const Map map = channel_map();
  const TensorView<const std::uint8_t> roi(x.data() + 70 * 4 + 4, {3, 7, 66, 3}, {9 * 70 * 4, 70 * 4, 4, 1});
  const std::vector<TensorView<const std::uint8_t>> views = {
      einops::flip(x.view(), 3), einops::flip(x.view(), 2),
      einops::flip(x.view(), 1), roi,
      einops::flip(roi, 3),      einops::flip(einops::flip(roi, 2), 3)};
  for (std::size_t v = 0; v < views.size(); ++v) {
    SCOPED_TRACE("view " + std::to_string(v));
    const TensorView<const std::uint8_t>& view = views[v];
    const Tensor<std::uint8_t> copy = einops::contiguous(view);
    const bool three = view.shape(3) == 3;
    const Map m = three ? map : Map{{0.5f, 2.0f, -1.25f, 4.0f}, {3.0f, -0.5f, 100.0f, 1.0f}};
    const einops::affine<"c"> affine{.scale = m.scale, .offset = m.offset};
    Tensor<float> out = einops::rearrange<float>(view, "b h w c -> b c h w", affine);
    EXPECT_TRUE(
        same_elements(out, reference<float>(einops::contiguous(einops::rearrange(copy, "b h w c -> b c h w")), &m, 1)));
    // And back: planes read reversed along w into channels-last uint8.
    const Tensor<float> planes = einops::rearrange<float>(copy, "b h w c -> b c h w");
    Tensor<std::uint8_t> back(einops::Shape(copy.shape().begin(), copy.shape().end()));
    einops::rearrange_into(einops::flip(planes, 3), back, "b c h w -> b h w c", affine);
    const Tensor<float> flipped = einops::contiguous(einops::flip(planes, 3));
    EXPECT_TRUE(same_elements(
        back, reference<std::uint8_t>(einops::contiguous(einops::rearrange(flipped, "b c h w -> b h w c")), &m, 3)));
  }
  // A strided output (every other column of a wider tensor).
  Tensor<float> wide({3, 4, 9, 140});
  const TensorView<float> every_other(wide.data(), {3, 4, 9, 70}, {4 * 9 * 140, 9 * 140, 140, 2});
  const einops::affine<"c"> affine4{.scale = {0.5f, 2.0f, -1.25f, 4.0f}, .offset = {3.0f, -0.5f, 100.0f, 1.0f}};
  einops::rearrange_into(x, every_other, "b h w c -> b c h w", affine4);
  const Map m4{affine4.scale, affine4.offset};
  EXPECT_TRUE(same_elements(einops::contiguous(every_other),
                            reference<float>(einops::contiguous(einops::rearrange(x, "b h w c -> b c h w")), &m4, 1)));
}

INSTANTIATE_TEST_SUITE_P(Targets, EveryTarget, ::testing::ValuesIn(einops::detail::simd_targets()), target_name);

// ---- rounding and saturation --------------------------------------------------------------------

TEST(Convert, RoundsToNearestEvenAndSaturatesIntegers) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {-1.0f,  -0.5f, 0.5f,   1.5f,    2.5f,    126.5f, 127.5f, 128.5f, 254.5f, 255.5f,
                                 256.0f, 1e10f, -1e10f, -128.5f, -127.5f, inf,    -inf,   nan,    -nan};
  const std::vector<std::uint8_t> expected_u8 = {0,   0,   0, 2, 2, 126, 128, 128, 254, 255,
                                                 255, 255, 0, 0, 0, 255, 0,   0,   0};
  const std::vector<std::int8_t> expected_i8 = {-1,  0,   0,    2,    2,    126, 127,  127, 127, 127,
                                                127, 127, -128, -128, -128, 127, -128, 0,   0};
  // Long enough for whole vectors on every target, each value at several vector positions.
  constexpr std::int64_t kCopies = 40;
  std::vector<float> values;
  for (std::int64_t k = 0; k < kCopies; ++k) values.insert(values.end(), in.begin(), in.end());
  const auto n = static_cast<std::int64_t>(in.size());
  const Tensor<float> x({kCopies, n}, values);
  const Tensor<std::uint8_t> u8 = einops::rearrange<std::uint8_t>(x, "k n -> k n");
  const Tensor<std::int8_t> i8 = einops::rearrange<std::int8_t>(x, "k n -> k n");
  for (std::int64_t k = 0; k < kCopies; ++k)
    for (std::int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(u8.at({k, i}), expected_u8[static_cast<std::size_t>(i)]) << "value " << in[static_cast<std::size_t>(i)];
      EXPECT_EQ(i8.at({k, i}), expected_i8[static_cast<std::size_t>(i)]) << "value " << in[static_cast<std::size_t>(i)];
    }
}

TEST(Convert, FloatLimitsAndSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor<float> x({1, 4}, {70000.0f, -70000.0f, 65504.0f, 3.0e38f});
  const Tensor<float16> h = einops::rearrange<float16>(x, "a b -> b a");
  EXPECT_EQ(static_cast<float>(h.at({0, 0})), inf);
  EXPECT_EQ(static_cast<float>(h.at({1, 0})), -inf);
  EXPECT_EQ(static_cast<float>(h.at({2, 0})), 65504.0f);
  const Tensor<float> scaled = einops::rearrange<float>(x, "a b -> b a", einops::affine<>{.scale = {10.0f}});
  EXPECT_EQ(scaled.at({3, 0}), inf);  // float32 overflow
  const Tensor<float> nan_input({1, 1}, {std::numeric_limits<float>::quiet_NaN()});
  EXPECT_EQ(einops::rearrange<std::uint8_t>(nan_input, "a b -> a b", einops::affine<>{.offset = {5.0f}}).at({0, 0}), 0);
  EXPECT_TRUE(
      std::isnan(einops::rearrange<float>(nan_input, "a b -> a b", einops::affine<>{.offset = {5.0f}}).at({0, 0})));
}

// ---- threads -----------------------------------------------------------------------------------

TEST(Convert, SameBitsForAnyThreadCount) {
  const Tensor<std::uint8_t> x = random_tensor<std::uint8_t>({4, 256, 256, 3}, 3);
  const Tensor<float> planes_in = random_tensor<float>({4, 3, 128, 256}, 5);
  const einops::affine<"c"> affine{.scale = {1 / 58.395f, 1 / 57.12f, 1 / 57.375f},
                                   .offset = {-2.1179f, -2.0357f, -1.8044f}};
  const int saved = einops::get_num_threads();
  std::vector<Tensor<float>> blobs;
  std::vector<Tensor<std::uint8_t>> images;
  for (int threads : {1, 2, 3, 8}) {
    einops::set_num_threads(threads);
    blobs.push_back(einops::rearrange<float>(einops::flip(x, 3), "b h w c -> b c h w", affine));
    images.push_back(einops::rearrange<std::uint8_t>(planes_in, "b c h w -> b h w c", affine));
  }
  einops::set_num_threads(saved);
  for (std::size_t i = 1; i < blobs.size(); ++i) {
    EXPECT_EQ(std::memcmp(blobs[i].data(), blobs[0].data(), static_cast<std::size_t>(blobs[0].size()) * sizeof(float)),
              0);
    EXPECT_EQ(std::memcmp(images[i].data(), images[0].data(), static_cast<std::size_t>(images[0].size())), 0);
  }
}

// ---- lists, repeat, errors ---------------------------------------------------------------------

TEST(Convert, ListInputsReadInPlace) {
  const Tensor<std::uint8_t> x = random_tensor<std::uint8_t>({3, 6, 10, 3}, 13);
  const einops::affine<"c"> affine{.scale = {0.5f, 2.0f, -1.25f}, .offset = {3.0f, -0.5f, 100.0f}};
  const Tensor<float> expected = einops::rearrange<float>(x, "b h w c -> b c h w", affine);
  // Separate tensors (one layout: read in place through a table of offsets), and ROIs of
  // parents of different widths (their strides differ: the list is stacked first).
  std::vector<Tensor<std::uint8_t>> separate;
  std::vector<Tensor<std::uint8_t>> parents;
  std::vector<TensorView<const std::uint8_t>> rois;
  for (std::int64_t b = 0; b < 3; ++b) {
    separate.emplace_back(einops::Shape{6, 10, 3},
                          std::vector<std::uint8_t>(x.data() + b * 180, x.data() + (b + 1) * 180));
    parents.push_back(einops::repeat(separate.back(), "h w c -> h (w r) c", {{"r", b + 1}}));
  }
  for (std::int64_t b = 0; b < 3; ++b)  // pixel w of the ROI is pixel w * (b + 1) of its parent: x's pixel w
    rois.emplace_back(parents[static_cast<std::size_t>(b)].data(), einops::Shape{6, 10, 3},
                      einops::Shape{10 * (b + 1) * 3, 3 * (b + 1), 1});
  EXPECT_TRUE(same_elements(einops::rearrange<float>(separate, "b h w c -> b c h w", affine), expected));
  EXPECT_TRUE(same_elements(einops::rearrange<float>(rois, "b h w c -> b c h w", affine), expected));
}

TEST(Convert, RepeatConverts) {
  const Tensor<std::uint8_t> x = random_tensor<std::uint8_t>({2, 5, 3}, 17);
  const einops::affine<"c"> affine{.scale = {0.5f, 2.0f, -1.25f}, .offset = {3.0f, -0.5f, 100.0f}};
  const Tensor<float> y = einops::repeat<float>(x, "h w c -> c (h 2) w r", affine, {{"r", 3}});
  const Map map{affine.scale, affine.offset};
  const Tensor<std::uint8_t> moved = einops::contiguous(einops::repeat(x, "h w c -> c (h 2) w r", {{"r", 3}}));
  EXPECT_TRUE(same_elements(y, reference<float>(moved, &map, 0)));
  Tensor<std::uint8_t> into({3, 4, 5, 3});
  einops::repeat_into(y, into, "c h w r -> c h w r", einops::affine<"c">{.scale = {2.0f, 0.5f, -0.8f}});
  EXPECT_EQ(into.at({0, 0, 0, 0}), from_float<std::uint8_t>(y.at({0, 0, 0, 0}) * 2.0f));
}

TEST(Convert, ErrorsNameTheCall) {
  const Tensor<std::uint8_t> x({2, 3});
  const std::string axis = message_of([&] {
    (void)einops::rearrange<float>(x, einops::runtime("a c -> c a"),
                                   einops::affine<>{.scale = {1.f, 2.f}, .axis = "k"});
  });
  EXPECT_NE(axis.find("The axis of the affine map is not an axis of the output"), std::string::npos) << axis;
  const std::string length = message_of([&] {
    (void)einops::rearrange<float>(x, "a c -> c a", einops::affine<"c">{.scale = {1.f, 2.f}});
  });
  EXPECT_NE(length.find("2 scale values"), std::string::npos) << length;
  Tensor<double> wrong({3, 2});
  const std::string type = message_of([&] { einops::rearrange_into(x, wrong, "a c -> c a"); });
  EXPECT_NE(type.find("not uint8 to float64"), std::string::npos) << type;
  Tensor<float> shape({2, 3});
  const std::string out_shape = message_of([&] { einops::rearrange_into(x, shape, "a c -> c a"); });
  EXPECT_NE(out_shape.find("Output tensor is (2, 3), the result is (3, 2)"), std::string::npos) << out_shape;
}

TEST(Flip, ReversesOneAxisAsAView) {
  const Tensor<int> x({2, 3}, {0, 1, 2, 3, 4, 5});
  const TensorView<int> columns = einops::flip(x, 1);
  EXPECT_EQ(columns.to_vector(), (std::vector<int>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(einops::flip(x, 0).to_vector(), (std::vector<int>{3, 4, 5, 0, 1, 2}));
  EXPECT_EQ(einops::flip(columns, 1).data(), x.data());
  EXPECT_THROW((void)einops::flip(x, 2), einops::EinopsError);
  EXPECT_EQ(einops::rearrange(einops::flip(x, 1), "a b -> b a").to_vector(), (std::vector<int>{2, 5, 1, 4, 0, 3}));
}

}  // namespace
