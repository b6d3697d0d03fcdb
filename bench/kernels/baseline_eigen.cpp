// Eigen's Tensor module: shuffle, sum / maximum / mean over axes, broadcast; row-major
// TensorMaps over preallocated memory, on a ThreadPoolDevice with the case's thread count.
// Eigen has no pooling: the pooling cases reduce the window axes of the 6-d view.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "baselines.hpp"
#include "buffers.hpp"

namespace bench {
namespace {

template <class T, int Rank>
using Map = Eigen::TensorMap<Eigen::Tensor<T, Rank, Eigen::RowMajor>>;

template <int Rank>
std::array<Eigen::Index, Rank> dims_of(const einops::Shape& shape) {
  std::array<Eigen::Index, Rank> dims{};
  for (std::size_t i = 0; i < Rank; ++i) dims[i] = shape[i];
  return dims;
}

template <class T, int Rank, int Reduced>
void run_reduce(benchmark::State& state, const Case& c, Eigen::ThreadPoolDevice& device, Map<T, Rank>& x,
                const einops::AnyTensor& output) {
  std::array<Eigen::Index, Reduced> axes{};
  std::array<Eigen::Index, Rank - Reduced> out_dims{};
  for (std::size_t i = 0; i < Reduced; ++i) axes[i] = c.axes[i];
  const einops::Shape out_shape = c.output_view();
  std::copy(out_shape.begin(), out_shape.end(), out_dims.begin());
  Map<T, Rank - Reduced> out(static_cast<T*>(output.data()), out_dims);
  for (auto _ : state) {
    if (c.reduction == "sum") out.device(device) = x.sum(axes);
    else if (c.reduction == "max") out.device(device) = x.maximum(axes);
    else out.device(device) = x.mean(axes);
    benchmark::ClobberMemory();
  }
}

template <class T, int Rank>
void run_typed(benchmark::State& state, const Case& c, Eigen::ThreadPoolDevice& device) {
  const einops::AnyTensor input = make_input(c);
  const einops::AnyTensor output = make_output(c);
  Map<T, Rank> x(static_cast<T*>(input.data()), dims_of<Rank>(c.view));
  if (c.kind == Kind::permute) {
    std::array<Eigen::Index, Rank> perm{}, out_dims{};
    for (std::size_t i = 0; i < Rank; ++i) {
      perm[i] = c.permutation[i];
      out_dims[i] = c.view[static_cast<std::size_t>(c.permutation[i])];
    }
    Map<T, Rank> out(static_cast<T*>(output.data()), out_dims);
    for (auto _ : state) {
      out.device(device) = x.shuffle(perm);
      benchmark::ClobberMemory();
    }
  } else if (c.kind == Kind::repeat) {
    std::array<Eigen::Index, Rank> factors{};
    for (std::size_t i = 0; i < Rank; ++i) factors[i] = c.expand[i] / c.view[i];
    Map<T, Rank> out(static_cast<T*>(output.data()), dims_of<Rank>(c.expand));
    for (auto _ : state) {
      out.device(device) = x.broadcast(factors);
      benchmark::ClobberMemory();
    }
  } else if constexpr (Rank == 4 || Rank == 6) {  // the views of the reduce cases
    if (c.axes.size() == 1) run_reduce<T, Rank, 1>(state, c, device, x, output);
    else run_reduce<T, Rank, 2>(state, c, device, x, output);
  } else {
    state.SkipWithError("reduction rank not instantiated");
  }
}

template <class T>
void run_rank(benchmark::State& state, const Case& c, Eigen::ThreadPoolDevice& device) {
  switch (c.view.size()) {
    case 2: return run_typed<T, 2>(state, c, device);
    case 3: return run_typed<T, 3>(state, c, device);
    case 4: return run_typed<T, 4>(state, c, device);
    case 5: return run_typed<T, 5>(state, c, device);
    case 6: return run_typed<T, 6>(state, c, device);
    default: state.SkipWithError("rank not instantiated");
  }
}

void run_eigen(benchmark::State& state, const Case& c, int threads) {
  Eigen::ThreadPool pool(threads);
  Eigen::ThreadPoolDevice device(&pool, threads);
  switch (c.dtype) {
    case einops::DType::float32: return run_rank<float>(state, c, device);
    case einops::DType::float64: return run_rank<double>(state, c, device);
    case einops::DType::float16: return run_rank<Eigen::half>(state, c, device);
    case einops::DType::int8: return run_rank<std::int8_t>(state, c, device);
    case einops::DType::uint8: return run_rank<std::uint8_t>(state, c, device);
    default: state.SkipWithError("dtype not instantiated");
  }
}

}  // namespace

void register_eigen(const Case& c, int threads) {
  configure(benchmark::RegisterBenchmark(benchmark_name("eigen", c, threads).c_str(), run_eigen, c, threads), c);
}

}  // namespace bench
