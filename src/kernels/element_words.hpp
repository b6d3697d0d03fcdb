// Kernels that move elements without reading them (copies, gathers) see each element as an
// opaque unsigned word of its size: one instantiation per element size, chosen here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace einops::detail {

/// Calls `run(Word{})` with the unsigned word of `element_size` bytes (1, 2, 4 or 8, the sizes of
/// every dtype); any other size runs nothing.
template <class Run>
void with_element_word(std::size_t element_size, Run&& run) {
  switch (element_size) {
    case 1: return run(std::uint8_t{});
    case 2: return run(std::uint16_t{});
    case 4: return run(std::uint32_t{});
    case 8: return run(std::uint64_t{});
    default: return;
  }
}

}  // namespace einops::detail
