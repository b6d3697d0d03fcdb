// Prints einops::buffer_cache_limit(): the default limit this process gets from
// EINOPS_BUFFER_CACHE_MB (run by the buffer_cache_default_* tests, CMakeLists.txt).
#include <cstdio>

#include <einops/memory.hpp>

int main() {
  std::printf("%zu\n", einops::buffer_cache_limit());
  return 0;
}
