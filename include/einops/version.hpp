// The library's version (semantic versioning). CMake's project(VERSION) states the same numbers,
// and tests/unit/test_version.cpp checks that the two agree.
#pragma once

#include <string_view>

#define EINOPS_VERSION_MAJOR 0
#define EINOPS_VERSION_MINOR 1
#define EINOPS_VERSION_PATCH 0
#define EINOPS_VERSION_STRING "0.1.0"

/// One number that orders versions: MAJOR * 10000 + MINOR * 100 + PATCH (for `#if`).
#define EINOPS_VERSION (EINOPS_VERSION_MAJOR * 10000 + EINOPS_VERSION_MINOR * 100 + EINOPS_VERSION_PATCH)

namespace einops {

/// "MAJOR.MINOR.PATCH" of the headers in use.
inline constexpr std::string_view version = EINOPS_VERSION_STRING;

}  // namespace einops
