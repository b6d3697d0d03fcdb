// What a fuzz target does when a property fails: print why and abort, so that libFuzzer (or the
// replay runner) stops on that input and saves it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace einops_fuzz {

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "%s:%d: fuzz property failed: %s\n", file, line, what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace einops_fuzz

#define FUZZ_REQUIRE(condition, what)                                  \
  do {                                                                 \
    if (!(condition)) ::einops_fuzz::fail(__FILE__, __LINE__, (what)); \
  } while (false)
