// The message of the EinopsError a call throws, for the unit tests that check what errors say.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "einops/error.hpp"

namespace einops_test {

/// The message of the EinopsError `call` throws (fails the test when it does not throw).
template <class Call>
std::string message_of(Call&& call) {
  try {
    call();
  } catch (const einops::EinopsError& error) {
    return error.what();
  }
  ADD_FAILURE() << "no EinopsError thrown";
  return {};
}

}  // namespace einops_test
