// How fuzz_ops reads a call from fuzz bytes (tests/fuzz/make_seeds.py writes the same format):
//
//   byte 0   operation, modulo 12: 0 rearrange, 1 repeat, 2-8 reduce with min, max, sum, mean,
//            prod, any, all, 9-10 reduce with "rearrange"/"repeat", 11 reduce with a callable
//   byte 1   bits 0-1 dtype (float32, float64, int32, bool); bit 2 walk dimension 0 backwards
//            (negative stride); bit 3 pass the input as a list of its slices along dimension 0
//   byte 2   rank, modulo 7
//   then     one byte per dimension: its length, modulo 8
//   then     the pattern, then lines "name=value" (axis lengths, in order), separated by '\n'
//
// Lengths up to 7 and ranks up to 6 keep every input below 1 MB; the pattern and the axis lengths
// are free, so every malformed pattern and absurd length is reachable.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <einops/einops.hpp>

namespace einops_fuzz {

struct Call {
  einops::Operation operation = einops::Operation::rearrange;
  std::string reduction;  // reduce with a named reduction
  bool callable = false;  // reduce with a user callable (the input is float64 then)
  einops::DType dtype = einops::DType::float32;
  bool reversed = false;
  bool list = false;
  einops::Shape shape;
  std::string pattern;
  einops::AxisLengths lengths;
};

inline std::optional<Call> decode_call(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return std::nullopt;
  Call call;
  const unsigned operation = data[0] % 12u;
  constexpr const char* reductions[] = {"min", "max", "sum", "mean", "prod", "any", "all", "rearrange", "repeat"};
  if (operation == 0) call.operation = einops::Operation::rearrange;
  else if (operation == 1) call.operation = einops::Operation::repeat;
  else call.operation = einops::Operation::reduce;
  if (operation >= 2 && operation <= 10) call.reduction = reductions[operation - 2];
  constexpr einops::DType dtypes[] = {einops::DType::float32, einops::DType::float64, einops::DType::int32,
                                      einops::DType::boolean};
  call.dtype = dtypes[data[1] & 3u];
  call.reversed = (data[1] & 4u) != 0;
  call.list = (data[1] & 8u) != 0;
  call.callable = operation == 11 && !call.list;
  if (operation == 11 && call.list) call.reduction = "sum";
  if (call.callable) call.dtype = einops::DType::float64;
  const std::size_t rank = data[2] % 7u;
  if (size < 3 + rank) return std::nullopt;
  for (std::size_t d = 0; d < rank; ++d) call.shape.push_back(data[3 + d] % 8);

  const std::string_view text(reinterpret_cast<const char*>(data + 3 + rank), size - 3 - rank);
  const std::size_t end = text.find('\n');
  call.pattern = std::string(text.substr(0, end));
  for (std::size_t at = end; at != std::string_view::npos;) {
    const std::size_t begin = at + 1;
    at = text.find('\n', begin);
    const std::string_view line =
        text.substr(begin, at == std::string_view::npos ? std::string_view::npos : at - begin);
    const std::size_t equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    std::int64_t value = 0;
    const std::string_view number = line.substr(equals + 1);
    const auto [rest, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc() || rest != number.data() + number.size()) continue;
    call.lengths.add(line.substr(0, equals), value);
  }
  return call;
}

}  // namespace einops_fuzz
