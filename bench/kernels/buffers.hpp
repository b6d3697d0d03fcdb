// Inputs and outputs of the benchmark cases, allocated and touched before timing starts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>
#include <einops/einops.hpp>

#include "cases.hpp"

namespace bench {

/// Raw bytes, 64-byte aligned, every page touched.
class Buffer {
 public:
  explicit Buffer(std::int64_t bytes)
      : bytes_(bytes), data_(static_cast<std::byte*>(::operator new(static_cast<std::size_t>(bytes), std::align_val_t{64}))) {}
  ~Buffer() { ::operator delete(data_, std::align_val_t{64}); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  std::byte* data() const { return data_; }
  void fill_pattern() const {
    for (std::int64_t i = 0; i < bytes_; ++i) data_[i] = static_cast<std::byte>((i * 37 + 11) % 101);
  }

 private:
  std::int64_t bytes_;
  std::byte* data_;
};

/// The case's input: small integers (exact in every dtype), row-major.
einops::AnyTensor make_input(const Case& c);
/// A zero-filled output of the result's shape and dtype.
einops::AnyTensor make_output(const Case& c);

std::string benchmark_name(const std::string& implementation, const Case& c, int threads);
void configure(benchmark::internal::Benchmark* b);

}  // namespace bench
