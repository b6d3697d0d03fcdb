// Hostile inputs: sizes that would overflow, ranks past the limit, absurd allocations, and
// patterns built to be slow, deep, huge or malformed. Each must end in an EinopsError that says
// what is wrong, in bounded time, without growing the caches (docs/reliability.md).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <einops/einops.hpp>

namespace {

using einops::AnyTensor;
using einops::AxisLengths;
using einops::DType;
using einops::EinopsError;
using einops::Shape;
using einops::Tensor;
using einops::TensorView;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

/// Generous on purpose: a linear pass over a megabyte takes milliseconds even under sanitizers,
/// while anything quadratic in a megabyte takes hours.
constexpr double kSecondsPerCall = 3.0;

struct Hostile {
  std::string name;
  std::function<void()> call;
  std::vector<std::string> message_parts;  // each must appear in the message
};

/// Runs `c.call`, which must throw EinopsError naming every part, within kSecondsPerCall.
void expect_refused(const Hostile& c) {
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    c.call();
    ADD_FAILURE() << c.name << ": no error";
  } catch (const EinopsError& error) {
    message = error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << c.name << ": not an EinopsError: " << error.what();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, kSecondsPerCall) << c.name;
  for (const std::string& part : c.message_parts)
    EXPECT_NE(message.find(part), std::string::npos) << c.name << ": '" << part << "' not in\n"
                                                     << message.substr(0, 2000);
}

std::string repeated(std::string_view piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out.append(piece);
  return out;
}

std::string numbered_names(std::size_t count, std::string_view prefix = "n") {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out.append(i ? " " : "").append(prefix).append(std::to_string(i));
  return out;
}

constexpr std::size_t kMegabyte = std::size_t{1} << 20;

/// Restores the allocation limit when a test ends, whatever happened.
struct AllocationLimit {
  explicit AllocationLimit(std::size_t bytes) { einops::set_max_allocation_bytes(bytes); }
  ~AllocationLimit() { einops::set_max_allocation_bytes(0); }
  AllocationLimit(const AllocationLimit&) = delete;
  AllocationLimit& operator=(const AllocationLimit&) = delete;
};

// ---- 3. sizes that cannot overflow ------------------------------------------------------------

TEST(HostileSizes, EachIsAnEinopsErrorNamingTheFault) {
  const auto x6 = Tensor<float>::arange({6});
  const auto x23 = Tensor<float>::arange({2, 3});
  static float one = 1.0f;
  // A legitimate broadcast view: 2^20 x 2^20 elements over one float (zero strides).
  const TensorView<float> huge(&one, {std::int64_t{1} << 20, std::int64_t{1} << 20}, {0, 0});
  const std::int64_t big = std::int64_t{1} << 40;
  const std::vector<Hostile> cases = {
      {"negative given length",
       [&] {
         (void)einops::rearrange(x6, std::string("(a b) -> a b"), {{"b", -2}});
       },
       {"rearrange", "(a b) -> a b", "(6,)", "Axis b", "negative length (-2)"}},
      {"negative given length for a new axis",
       [&] {
         (void)einops::repeat(x6, std::string("a -> a r"), {{"r", -1}});
       },
       {"repeat", "Axis r", "negative"}},
      {"negative input length",
       [&] {
         (void)einops::make_plan(einops::Operation::rearrange, std::nullopt, "a b -> b a", Shape{2, -3}, {});
       },
       {"rearrange", "negative length (-3) in dimension 1"}},
      {"negative length in a tensor",
       [&] {
         Tensor<float> t(Shape{4, -1});
       },
       {"negative length"}},
      {"negative length in a view", [&] { TensorView<float> v(&one, {-5}); }, {"negative length"}},
      {"zero anonymous axis",
       [&] { (void)einops::rearrange(x23, std::string("a (b 0) -> a b")); },
       {"rearrange", "Anonymous axis should have positive length, not 0"}},
      {"zero length given to divide by",
       [&] {
         (void)einops::rearrange(x6, std::string("(a b) -> a b"), {{"b", 0}});
       },
       {"rearrange", "chunks of 0"}},
      {"input dimension whose given lengths overflow",
       [&] {
         (void)einops::rearrange(x6, std::string("(a b c) -> a b c"), {{"a", big}, {"b", big}});
       },
       {"rearrange", "overflow int64 at axis b"}},
      {"repeat whose result overflows int64",
       [&] {
         (void)einops::repeat(x6, std::string("a -> a r s"), {{"r", big}, {"s", big}});
       },
       {"repeat", "a -> a r s", "overflow int64 at axis s"}},
      {"empty input whose other axes overflow",
       [&] {
         const auto empty = Tensor<float>::arange({0, 0});
         (void)einops::rearrange(empty, std::string("(a b) (c d) -> a b c d"), {{"b", big}, {"d", big}});
       },
       {"rearrange", "overflow int64 at axis"}},
      {"shape with more elements than int64",
       [&] {
         Tensor<float> t(Shape{big, big});
       },
       {"int64"}},
      {"view whose strides reach past any byte offset",
       [&] {
         TensorView<float> v(&one, {3, 2}, {kInt64Max / 2, 1});
       },
       {"byte offset"}},
      {"view with the most negative stride",
       [&] { TensorView<float> v(&one, {2}, {std::numeric_limits<std::int64_t>::min()}); },
       {"byte offset"}},
      {"repeat larger than the address space",
       [&] {
         (void)einops::repeat(x6, std::string("a -> a r"), {{"r", kInt64Max / 8}});
       },
       {"repeat", "a -> a r", "too large", "allocation limit"}},
      {"repeat of a huge broadcast view",
       [&] {
         (void)einops::repeat(huge, std::string("a b -> a b r"), {{"r", 2}});
       },
       {"repeat", "(1048576, 1048576)", "too large", "allocation limit"}},
      {"reduction with a callable into a huge result",
       [&] { (void)einops::reduce(huge, std::string("a b -> b a"), [](std::span<const float> v) { return v[0]; }); },
       {"a b -> b a", "too large"}},
      {"pack of a huge broadcast view", [&] { (void)einops::pack({AnyTensor(huge)}, "*"); }, {"allocation limit"}},
      {"stacked list larger than the limit",
       [&] {
         const std::vector<AnyTensor> list(4096, AnyTensor(TensorView<float>(&one, {1 << 20, 1 << 20}, {0, 0})));
         (void)einops::rearrange(list, std::string("n a b -> (n a) b"));
       },
       {"rearrange", "list", "allocation limit"}},
  };
  for (const Hostile& c : cases) expect_refused(c);
}

TEST(HostileSizes, AllocationLimitIsCheckedBeforeAllocating) {
  const auto x = Tensor<double>::arange({4, 4});
  const AllocationLimit limit(kMegabyte);
  EXPECT_EQ(einops::max_allocation_bytes(), kMegabyte);
  // 4 x 4 x 8192 doubles = 1 MiB exactly: allowed; one more row is refused.
  EXPECT_EQ(einops::repeat(x, std::string("a b -> a b r"), {{"r", 8192}}).size(), 4 * 4 * 8192);
  expect_refused({"just over the limit",
                  [&] {
                    (void)einops::repeat(x, std::string("a b -> a b r"), {{"r", 8193}});
                  },
                  {"repeat", "(4, 4)", "r: 8193", "allocation limit of 1048576 bytes"}});
  expect_refused({"Tensor over the limit", [&] { Tensor<double> t(Shape{1 << 17, 2}); }, {"allocation limit"}});
  // A view needs no allocation, whatever its size.
  EXPECT_EQ(einops::rearrange(x, std::string("a b -> (a b)")).size(), 16);
}

TEST(HostileSizes, DefaultLimitIsPhysicalMemory) {
  einops::set_max_allocation_bytes(0);
  EXPECT_GE(einops::max_allocation_bytes(), std::size_t{64} << 20);
  EXPECT_LE(einops::max_allocation_bytes(), static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()));
}

TEST(HostileSizes, RankLimit) {
  static_assert(einops::kMaxTensorRank >= 32);
  const auto limit = static_cast<std::size_t>(einops::kMaxTensorRank);
  static float one = 1.0f;
  const TensorView<float> at_limit(&one, Shape(limit, 1));
  const TensorView<float> past_limit(&one, Shape(limit + 1, 1));
  // At the limit everything works.
  EXPECT_EQ(einops::rearrange(at_limit, std::string("... -> ...")).rank(), limit);
  EXPECT_EQ(einops::reduce(at_limit, std::string("a ... -> ..."), "sum").rank(), limit - 1);
  const std::vector<Hostile> cases = {
      {"input rank past the limit",
       [&] { (void)einops::rearrange(past_limit, std::string("... -> ...")); },
       {"rearrange", "65 dimensions", "limit of 64"}},
      {"input rank past the limit, reduced",
       [&] { (void)einops::reduce(past_limit, std::string("... -> "), "sum"); },
       {"sum", "65 dimensions"}},
      {"list of tensors at the limit (stacking adds one)",
       [&] { (void)einops::rearrange(std::vector<AnyTensor>(2, AnyTensor(at_limit)), std::string("... -> ...")); },
       {"rearrange", "65 dimensions"}},
      {"output rank past the limit",
       [&] { (void)einops::rearrange(at_limit, std::string("... -> ... ()")); },
       {"rearrange", "65 dimensions"}},
      {"pattern with more axes than the limit",
       [&] { (void)einops::rearrange(at_limit, numbered_names(limit + 1) + " -> " + numbered_names(limit + 1)); },
       {"rearrange", "Too many axes"}},
      {"pattern with more unit dimensions than the limit",
       [&] { (void)einops::rearrange(at_limit, "... -> ..." + repeated(" ()", limit)); },
       {"Too many axes"}},
      {"pack of a tensor past the limit", [&] { (void)einops::pack({AnyTensor(past_limit)}, "a *"); }, {"pack", "64"}},
  };
  for (const Hostile& c : cases) expect_refused(c);
}

// ---- 4. hostile patterns ------------------------------------------------------------------------

TEST(HostilePatterns, EachIsAnEinopsErrorInBoundedTime) {
  const auto x = Tensor<float>::arange({2, 3});
  const std::string long_name = repeated("a", kMegabyte);
  const auto rearrange_text = [&](std::string pattern) {
    return [&x, pattern = std::move(pattern)] { (void)einops::rearrange(x, pattern); };
  };
  const std::vector<Hostile> cases = {
      {"1 MB name on one side", rearrange_text(long_name + " b -> b"), {"Identifiers only on one side"}},
      {"1 MB of open brackets", rearrange_text(repeated("(", kMegabyte) + " -> a"), {"one-level"}},
      {"1 MB of close brackets", rearrange_text(repeated(")", kMegabyte) + " -> a"), {"not balanced"}},
      {"unbalanced at the end", rearrange_text("a b -> (a b" + repeated(" ", kMegabyte)), {"Imbalanced"}},
      {"thousands of axes", rearrange_text(numbered_names(100000) + " -> n0"), {"Too many axes"}},
      {"half a million unit dimensions",
       rearrange_text("a b -> a b" + repeated(" ()", kMegabyte / 3)),
       {"Too many axes"}},
      {"half a million ones", rearrange_text("a b -> a b" + repeated(" 1", kMegabyte / 2)), {"Too many axes"}},
      {"1 MB of invalid UTF-8", rearrange_text("a b -> " + repeated("\xff", kMegabyte)), {"Invalid UTF-8"}},
      {"truncated UTF-8 sequence", rearrange_text("a b -> a b\xc3"), {"Invalid UTF-8"}},
      {"overlong UTF-8", rearrange_text("a b -> a \xc0\xaf"), {"Invalid UTF-8"}},
      {"UTF-16 surrogate in UTF-8", rearrange_text("a b -> a \xed\xa0\x80"), {"Invalid UTF-8"}},
      {"NUL byte inside a name", rearrange_text(std::string("a\0b c -> c", 10)), {"Unknown character"}},
      {"1 MB of NUL bytes", rearrange_text("a b -> " + std::string(kMegabyte, '\0')), {"Unknown character"}},
      {"huge anonymous axis", rearrange_text("(h 99999999999999999999) w -> h w"), {"too large"}},
      {"1 MB number", rearrange_text("(h " + repeated("9", kMegabyte) + ") w -> h w"), {"too large"}},
      {"1 MB of arrows", rearrange_text(repeated("->", kMegabyte / 2)), {"only once"}},
      {"1 MB of ellipses", rearrange_text(repeated("... ", kMegabyte / 4) + "-> ..."), {"only one ellipsis"}},
      {"1 MB of dots", rearrange_text(repeated(".", kMegabyte) + " -> a"), {"dots only inside ellipsis"}},
      {"1 MB of duplicates", rearrange_text("a b -> " + repeated("a ", kMegabyte / 2)), {"duplicate dimension"}},
      {"1 MB of spaces and no arrow", rearrange_text(repeated(" ", kMegabyte)), {"needs an arrow"}},
      {"1 MB length name",
       [&] {
         (void)einops::rearrange(x, std::string("a b -> b a"), {{long_name, 2}});
       },
       {"rearrange", "a b -> b a"}},
      {"reduce with a 1 MB reduction name",
       [&] { (void)einops::reduce(x, std::string("a b -> a"), long_name); },
       {"Unknown reduction"}},
      {"einsum with half a million operands",
       [&] {
         const std::string pattern = repeated("a,", kMegabyte / 2) + "a -> a";
         const std::vector<AnyTensor> operands{AnyTensor(x)};
         (void)einops::einsum(std::span<const AnyTensor>(operands), pattern);
       },
       {"einsum", "Too many operands"}},
      {"pack with half a million axes",
       [&] { (void)einops::pack({AnyTensor(x)}, repeated("a ", kMegabyte / 2) + "*"); },
       {"pack"}},
      {"parse_shape with 1 MB of brackets",
       [&] { (void)einops::parse_shape(x, repeated("(", kMegabyte)); },
       {"parse_shape"}},
      {"check_shape with half a million groups",
       [&] { (void)einops::check_shape(x, repeated("(_) ", kMegabyte / 4), {}); },
       {"check_shape", "Too many axes"}},
  };
  for (const Hostile& c : cases) expect_refused(c);
}

TEST(HostilePatterns, LongValidPatternsWorkAndAreNotCached) {
  const auto x = Tensor<std::int32_t>::arange({2, 3});
  einops::detail::clear_plan_cache();
  const std::size_t plans_before = einops::detail::plan_cache_size();
  const std::size_t patterns_before = einops::detail::pattern_cache_size();
  const std::string name = repeated("z", kMegabyte);
  const std::string padded = "a b -> b a" + repeated(" ", kMegabyte);
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < 3; ++round) {
    const Tensor<std::int32_t> y = einops::rearrange(x, name + " b -> b " + name);
    EXPECT_EQ(y.shape()[0], 3);
    EXPECT_EQ(y.at({2, 1}), 5);
    const Tensor<std::int32_t> z = einops::rearrange(x, padded);
    EXPECT_EQ(z.at({1, 0}), 1);
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 6 * kSecondsPerCall);
  EXPECT_EQ(einops::detail::plan_cache_size(), plans_before);
  EXPECT_EQ(einops::detail::pattern_cache_size(), patterns_before);
}

TEST(HostilePatterns, CachesStayBoundedUnderAStreamOfDistinctCalls) {
  const auto x = Tensor<float>::arange({4, 6});
  const std::size_t plan_capacity = einops::detail::plan_cache_capacity();
  const std::size_t pattern_capacity = einops::detail::pattern_cache_capacity();
  ASSERT_GT(plan_capacity, 0u);
  ASSERT_GT(pattern_capacity, 0u);
  const std::size_t calls = 3 * (plan_capacity + pattern_capacity);
  for (std::size_t i = 0; i < calls; ++i) {
    // Every call brings a new pattern text, and a new shape key through the length of c.
    const std::string added = "n" + std::to_string(i);
    const std::int64_t c = std::vector<std::int64_t>{1, 2, 3, 6}[i % 4];
    const Tensor<float> y = einops::repeat(x, "a (b c) -> (c b) a " + added, {{"c", c}, {added, 2}});
    ASSERT_EQ(y.size(), 48);
    ASSERT_EQ(y.at({0, 1, 1}), 6.0f);  // element (a=1, b=0, c=0): row 1 of x
    EXPECT_THROW((void)einops::rearrange(x, "a b -> a b " + added), EinopsError);  // errors are never cached
    ASSERT_LE(einops::detail::plan_cache_size(), plan_capacity);
    ASSERT_LE(einops::detail::pattern_cache_size(), pattern_capacity);
  }
}

}  // namespace
