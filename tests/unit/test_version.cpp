// include/einops/version.hpp against CMake's project(VERSION), which tests/unit/CMakeLists.txt
// passes in as EINOPS_TEST_PROJECT_VERSION_{MAJOR,MINOR,PATCH} and EINOPS_TEST_PROJECT_VERSION.
#include "einops/version.hpp"

#include <gtest/gtest.h>

#include <string>

#include "einops/einops.hpp"

namespace {

TEST(Version, HeaderMatchesCMakeProjectVersion) {
  EXPECT_EQ(EINOPS_VERSION_MAJOR, EINOPS_TEST_PROJECT_VERSION_MAJOR);
  EXPECT_EQ(EINOPS_VERSION_MINOR, EINOPS_TEST_PROJECT_VERSION_MINOR);
  EXPECT_EQ(EINOPS_VERSION_PATCH, EINOPS_TEST_PROJECT_VERSION_PATCH);
  EXPECT_EQ(std::string(EINOPS_VERSION_STRING), std::string(EINOPS_TEST_PROJECT_VERSION));
}

TEST(Version, StringAndNumberAgreeWithTheParts) {
  const std::string parts = std::to_string(EINOPS_VERSION_MAJOR) + "." + std::to_string(EINOPS_VERSION_MINOR) + "." +
                            std::to_string(EINOPS_VERSION_PATCH);
  EXPECT_EQ(std::string(einops::version), parts);
  EXPECT_EQ(EINOPS_VERSION, EINOPS_VERSION_MAJOR * 10000 + EINOPS_VERSION_MINOR * 100 + EINOPS_VERSION_PATCH);
}

}  // namespace
