#include "cases.hpp"

#include <algorithm>
#include <numeric>

namespace bench {
namespace {

using einops::DType;

std::int64_t product(const einops::Shape& shape) {
  return std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
}

Case permute(std::string pattern, einops::Shape shape, DType dtype, einops::Shape view,
             std::vector<std::int64_t> permutation, std::vector<std::pair<std::string, std::int64_t>> lengths = {}) {
  return Case{Kind::permute, std::move(pattern), std::move(lengths), std::move(shape), dtype, "",
              std::move(view), std::move(permutation), {}, {}};
}

Case reduce(std::string pattern, std::string reduction, DType dtype, std::vector<std::int64_t> axes) {
  const einops::Shape shape{32, 64, 56, 56};
  return Case{Kind::reduce, std::move(pattern), {}, shape, dtype, std::move(reduction), shape, {}, std::move(axes), {}};
}

std::vector<Case> make_cases() {
  std::vector<Case> all;
  const einops::Shape square{4096, 4096}, bchw{32, 64, 56, 56};
  for (DType dtype : {DType::float32, DType::float16, DType::float64, DType::int8}) {
    all.push_back(permute("h w -> w h", square, dtype, square, {1, 0}));
    all.push_back(permute("b c h w -> b h w c", bchw, dtype, bchw, {0, 2, 3, 1}));
  }
  all.push_back(permute("b h w c -> b c h w", {32, 56, 56, 64}, DType::float32, {32, 56, 56, 64}, {0, 3, 1, 2}));
  all.push_back(permute("b (h h2) (w w2) c -> b h w (c h2 w2)", {16, 56, 56, 64}, DType::float32,
                        {16, 28, 2, 28, 2, 64}, {0, 1, 3, 5, 2, 4}, {{"h2", 2}, {"w2", 2}}));
  all.push_back(permute("a b c d e -> e d c b a", {16, 16, 16, 16, 64}, DType::float32, {16, 16, 16, 16, 64},
                        {4, 3, 2, 1, 0}));
  all.push_back(permute("a b c -> b a c", {256, 1024, 64}, DType::float32, {256, 1024, 64}, {1, 0, 2}));

  all.push_back(reduce("b c h w -> b c", "sum", DType::float32, {2, 3}));
  all.push_back(reduce("b c h w -> b h w", "sum", DType::float32, {1}));
  all.push_back(reduce("b c h w -> c h w", "max", DType::float32, {0}));
  all.push_back(reduce("b c h w -> b c", "mean", DType::float16, {2, 3}));
  all.push_back(reduce("b c h w -> b h w", "mean", DType::float16, {1}));

  all.push_back(Case{Kind::repeat, "b c -> b c h w", {{"h", 56}, {"w", 56}}, {32, 64}, DType::float32, "",
                     {32, 64, 1, 1}, {}, {}, {32, 64, 56, 56}});
  all.push_back(Case{Kind::repeat, "h w -> (h 2) (w 2)", {}, {2048, 2048}, DType::float32, "", {2048, 1, 2048, 1}, {},
                     {}, {2048, 2, 2048, 2}});
  return all;
}

}  // namespace

std::string Case::label() const {
  std::string text = pattern;
  if (kind == Kind::reduce) text += " (" + reduction + ")";
  return text;
}

einops::AxisLengths Case::axis_lengths() const {
  einops::AxisLengths out;
  for (const auto& [name, length] : lengths) out.add(name, length);
  return out;
}

std::int64_t Case::input_elements() const { return product(input_shape); }

einops::Shape Case::output_view() const {
  einops::Shape shape;
  switch (kind) {
    case Kind::permute:
      for (std::int64_t axis : permutation) shape.push_back(view[static_cast<std::size_t>(axis)]);
      break;
    case Kind::repeat: shape = expand; break;
    case Kind::reduce:
      for (std::size_t i = 0; i < view.size(); ++i)
        if (std::find(axes.begin(), axes.end(), static_cast<std::int64_t>(i)) == axes.end()) shape.push_back(view[i]);
      break;
  }
  return shape;
}

std::int64_t Case::output_elements() const { return product(output_view()); }

std::int64_t Case::output_bytes() const { return output_elements() * static_cast<std::int64_t>(element_size()); }

std::int64_t Case::reference_bytes() const {
  return kind == Kind::reduce ? input_elements() * static_cast<std::int64_t>(element_size()) : output_bytes();
}

std::int64_t Case::traffic_bytes() const {
  return (input_elements() + output_elements()) * static_cast<std::int64_t>(element_size());
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all = make_cases();
  return all;
}

}  // namespace bench
