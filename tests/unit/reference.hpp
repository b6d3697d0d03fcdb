// A naive reference for rearrange/reduce/repeat, shared by the unit tests.
//
// A Problem describes a transform by itself (elementary axes, how they group into input and
// output dimensions), independently of the library's plan. The reference visits every
// combination of axis indices and computes offsets one index at a time: slow, obviously right.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <einops/einops.hpp>

namespace einops_test {

using einops::Shape;

struct Problem {
  std::vector<std::int64_t> axis_length;                    // by axis id
  std::vector<std::vector<int>> input_dims;                 // axis ids of each input dimension
  std::vector<std::vector<int>> output_dims;                // axis ids of each output dimension (empty: unit)
  std::vector<bool> output_parenthesized;                   // per output dim: write "(a)" rather than "a"
  std::vector<std::pair<std::string, std::int64_t>> given;  // axis lengths passed to the op

  static std::string name(int axis) { return "ax" + std::to_string(axis); }

  // Built with append only: GCC 12 warns falsely (-Wrestrict) on some string operator+ chains.
  static void append_group(std::string& out, const std::vector<int>& axes, bool parenthesized) {
    const bool brackets = parenthesized || axes.size() != 1;
    if (!out.empty()) out.append(" ");
    if (brackets) out.append("(");
    for (std::size_t i = 0; i < axes.size(); ++i) {
      if (i > 0) out.append(" ");
      out.append(name(axes[i]));
    }
    if (brackets) out.append(")");
  }

  std::string pattern() const {
    std::string left, right;
    for (const auto& dim : input_dims) append_group(left, dim, false);
    for (std::size_t d = 0; d < output_dims.size(); ++d) append_group(right, output_dims[d], output_parenthesized[d]);
    return left.append(" -> ").append(right);
  }

  einops::AxisLengths lengths() const {
    einops::AxisLengths out;
    for (const auto& [axis_name, length] : given) out.add(axis_name, length);
    return out;
  }

  static Shape shape_of(const std::vector<std::vector<int>>& dims, const std::vector<std::int64_t>& lengths) {
    Shape shape;
    for (const auto& dim : dims) {
      std::int64_t product = 1;
      for (int axis : dim) product *= lengths[static_cast<std::size_t>(axis)];
      shape.push_back(product);
    }
    return shape;
  }
  Shape input_shape() const { return shape_of(input_dims, axis_length); }
  Shape output_shape() const { return shape_of(output_dims, axis_length); }

  bool in_input(int axis) const {
    for (const auto& dim : input_dims)
      if (std::find(dim.begin(), dim.end(), axis) != dim.end()) return true;
    return false;
  }
  bool in_output(int axis) const {
    for (const auto& dim : output_dims)
      if (std::find(dim.begin(), dim.end(), axis) != dim.end()) return true;
    return false;
  }

  /// Calls visit(input_offset, output_index) for every combination of axis indices: the input
  /// offset uses `strides` (elements), the output index is row-major in the output shape.
  template <class Visit>
  void for_each(const std::vector<std::int64_t>& strides, Visit&& visit) const {
    const std::size_t count = axis_length.size();
    for (std::int64_t length : axis_length)
      if (length == 0) return;
    std::vector<std::int64_t> index(count, 0);
    const auto linear = [&](const std::vector<int>& dim) {
      std::int64_t at = 0;
      for (int axis : dim)
        at = at * axis_length[static_cast<std::size_t>(axis)] + index[static_cast<std::size_t>(axis)];
      return at;
    };
    const Shape out_shape = output_shape();
    for (;;) {
      std::int64_t in_offset = 0;
      for (std::size_t d = 0; d < input_dims.size(); ++d) in_offset += linear(input_dims[d]) * strides[d];
      std::int64_t out_index = 0;
      for (std::size_t d = 0; d < output_dims.size(); ++d)
        out_index = out_index * out_shape[d] + linear(output_dims[d]);
      visit(in_offset, out_index);
      std::size_t a = count;
      while (a > 0) {
        --a;
        if (++index[a] < axis_length[a]) break;
        index[a] = 0;
        if (a == 0) return;
      }
      if (count == 0) return;
    }
  }
};

inline std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t length : shape) n *= length;
  return n;
}

/// rearrange/repeat reference: the output in row-major order.
template <class T>
std::vector<T> reference_copy(const Problem& problem, const T* data, const std::vector<std::int64_t>& strides) {
  std::vector<T> out(static_cast<std::size_t>(element_count(problem.output_shape())));
  problem.for_each(strides, [&](std::int64_t in, std::int64_t o) { out[static_cast<std::size_t>(o)] = data[in]; });
  return out;
}

/// reduce reference for "sum", "max", "min", "prod": computed in double (tests use small integers,
/// so every result is exact whatever the summation order).
template <class T>
std::vector<double> reference_reduce(const Problem& problem, const T* data, const std::vector<std::int64_t>& strides,
                                     const std::string& reduction) {
  const auto n = static_cast<std::size_t>(element_count(problem.output_shape()));
  double init = 0;
  if (reduction == "prod") init = 1;
  if (reduction == "max") init = -std::numeric_limits<double>::infinity();
  if (reduction == "min") init = std::numeric_limits<double>::infinity();
  std::vector<double> out(n, init);
  problem.for_each(strides, [&](std::int64_t in, std::int64_t o) {
    double& acc = out[static_cast<std::size_t>(o)];
    const auto x = static_cast<double>(data[in]);
    if (reduction == "sum") acc += x;
    else if (reduction == "prod") acc *= x;
    else if (reduction == "max") acc = std::max(acc, x);
    else if (reduction == "min") acc = std::min(acc, x);
  });
  return out;
}

enum class Kind { rearrange, reduce, repeat };

/// A random transform: input dims split into 1-3 axes, axes permuted and regrouped; `reduce`
/// drops some axes, `repeat` adds some. Some lengths are given (never two unknowns per dim).
inline Problem random_problem(std::mt19937& rng, Kind kind) {
  const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Problem p;
  const int ndim = uniform(1, 4);
  for (int d = 0; d < ndim; ++d) {
    std::vector<int> dim;
    const int parts = uniform(1, 3);
    for (int k = 0; k < parts; ++k) {
      dim.push_back(static_cast<int>(p.axis_length.size()));
      p.axis_length.push_back(uniform(1, 4));
    }
    // Give every length but (usually) one, so at most one is inferred per dimension.
    const int inferred = uniform(0, parts);  // == parts: give all of them
    for (int k = 0; k < parts; ++k)
      if (k != inferred && (parts > 1 || uniform(0, 3) == 0))
        p.given.emplace_back(Problem::name(dim[static_cast<std::size_t>(k)]),
                             p.axis_length[static_cast<std::size_t>(dim[static_cast<std::size_t>(k)])]);
    p.input_dims.push_back(dim);
  }
  std::vector<int> order(p.axis_length.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::shuffle(order.begin(), order.end(), rng);
  if (kind == Kind::reduce) {
    const auto drop = static_cast<std::size_t>(uniform(1, static_cast<int>(order.size())));
    order.resize(order.size() - drop);
  }
  if (kind == Kind::repeat) {
    const int added = uniform(1, 2);
    for (int k = 0; k < added; ++k) {
      const int axis = static_cast<int>(p.axis_length.size());
      p.axis_length.push_back(uniform(1, 3));
      p.given.emplace_back(Problem::name(axis), p.axis_length.back());
      order.insert(order.begin() + uniform(0, static_cast<int>(order.size())), axis);
    }
  }
  // Cut the output order into consecutive groups; sometimes add a unit dimension "()".
  for (std::size_t at = 0; at < order.size();) {
    const auto take = std::min<std::size_t>(static_cast<std::size_t>(uniform(1, 3)), order.size() - at);
    p.output_dims.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(at),
                               order.begin() + static_cast<std::ptrdiff_t>(at + take));
    p.output_parenthesized.push_back(uniform(0, 4) == 0);
    at += take;
    if (uniform(0, 6) == 0) {
      p.output_dims.emplace_back();
      p.output_parenthesized.push_back(true);
    }
  }
  // The given lengths come in a random order (the order is part of the cache key only).
  std::shuffle(p.given.begin(), p.given.end(), rng);
  return p;
}

/// Random strides for `shape` inside a buffer: dimensions laid out in a random order, some
/// reversed (negative stride), with padding. Returns the strides and the offset of index 0
/// within a buffer of `buffer_size` elements.
struct Layout {
  std::vector<std::int64_t> strides;
  std::int64_t origin = 0;
  std::int64_t buffer_size = 0;
};

inline Layout random_layout(std::mt19937& rng, const Shape& shape) {
  const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Layout layout;
  layout.strides.assign(shape.size(), 0);
  std::vector<std::size_t> order(shape.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::int64_t step = 1;
  for (std::size_t k = order.size(); k-- > 0;) {  // order[last] is innermost
    const std::size_t d = order[k];
    layout.strides[d] = step;
    step *= std::max<std::int64_t>(shape[d], 1) + uniform(0, 1);  // optional padding
  }
  layout.buffer_size = step;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1 && uniform(0, 2) == 0) {  // reverse this dimension
      layout.origin += (shape[d] - 1) * layout.strides[d];
      layout.strides[d] = -layout.strides[d];
    }
  return layout;
}

}  // namespace einops_test
