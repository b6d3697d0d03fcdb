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

/// Raw bytes for the reference passes, from the library's allocator: the same kind of memory as
/// the einops tensors of the same run (2 MB aligned, transparent huge pages on Linux), so that
/// page size and alignment do not differ between einops and its reference.
class Buffer {
 public:
  explicit Buffer(std::int64_t bytes) : tensor_(einops::DType::uint8, einops::Shape{bytes}) {}
  std::byte* data() const { return static_cast<std::byte*>(tensor_.data()); }
  void fill_pattern() const {
    std::byte* bytes = data();
    for (std::int64_t i = 0; i < tensor_.size(); ++i) bytes[i] = static_cast<std::byte>((i * 37 + 11) % 101);
  }

 private:
  einops::AnyTensor tensor_;
};

/// The case's input: small integers (exact in every dtype), row-major.
einops::AnyTensor make_input(const Case& c);
/// A zero-filled output of the result's shape and dtype.
einops::AnyTensor make_output(const Case& c);

std::string benchmark_name(const std::string& implementation, const Case& c, int threads);
void configure(benchmark::internal::Benchmark* b);

}  // namespace bench
