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
/// The case's einops call into `out` (from make_output): rearrange_into, reduce_into or repeat_into.
void run_case(const Case& c, const einops::AnyTensor& x, const einops::AnyTensor& out,
              const einops::AxisLengths& lengths);

std::string benchmark_name(const std::string& implementation, const Case& c, int threads);
/// Real time in milliseconds, at least 0.3 s per benchmark; 0.1 s for the cases of a named group,
/// which are many and large (their setup takes as long as the timing), so that a whole run stays
/// within minutes.
void configure(benchmark::internal::Benchmark* b, const Case& c);

}  // namespace bench
