// Running one library call against a case's expectation: an array result, or an EinopsError.
// Shared by every op runner so that all of them judge exceptions the same way.
#pragma once

#include <exception>
#include <string>
#include <typeinfo>
#include <utility>

#include "compare.hpp"
#include "corpus.hpp"
#include "einops/error.hpp"
#include "outcome.hpp"
#include "quirks.hpp"

namespace conformance {

/// `call()` returns the result as an einops::AnyTensor. Error cases must throw EinopsError:
/// any other exception, or none, is a failure. Quirk entries may change what is expected.
template <class Call>
Outcome expect_array(const Case& c, Call&& call, ValueMatch match) {
  bool want_error = c.expects_error();
  bool check_values = true;
  if (const Quirk* quirk = find_quirk(c)) {
    want_error = quirk->expect == Quirk::Expect::einops_error;
    check_values = false;
  }
  einops::AnyTensor result;
  try {
    result = call();
  } catch (const einops::EinopsError& e) {
    if (want_error) return Outcome::pass();
    return Outcome::fail(std::string("unexpected EinopsError: ") + e.what());
  } catch (const std::exception& e) {
    return Outcome::fail(std::string("threw ") + typeid(e).name() + " instead of EinopsError: " + e.what());
  } catch (...) {
    return Outcome::fail("threw a non-std exception");
  }
  if (want_error) return Outcome::fail("expected EinopsError, got a result");
  if (!check_values) return Outcome::pass();
  std::string why;
  try {
    why = check_array(c.expect(), result, match);
  } catch (const std::exception& e) {  // a corpus field of the wrong type
    return Outcome::fail(std::string("malformed expectation: ") + e.what());
  }
  return why.empty() ? Outcome::pass() : Outcome::fail(std::move(why));
}

}  // namespace conformance
