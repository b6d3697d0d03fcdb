// Prints einops::get_num_threads(): the default thread count this process gets from its
// environment, affinity mask and cgroup (run by the thread_default_* tests, CMakeLists.txt).
#include <cstdio>

#include <einops/threads.hpp>

int main() {
  std::printf("%d\n", einops::get_num_threads());
  return 0;
}
