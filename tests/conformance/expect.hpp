// Running one library call against a case's expectation: a result, or an EinopsError.
// Shared by every op runner so that all of them judge exceptions the same way.
#pragma once

#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "compare.hpp"
#include "corpus.hpp"
#include "einops/error.hpp"
#include "outcome.hpp"
#include "quirks.hpp"
#include "reasons.hpp"
#include "sentences.hpp"

namespace conformance {

/// `call()` returns the library's result; `check(result)` returns why it does not match the
/// case's expectation (empty when it does). Error cases must throw EinopsError: any other
/// exception, or none, is a failure; an EinopsError must hold einops' sentence (sentences.hpp) and
/// say what check_error_reason asks. Quirk entries may change what is expected.
template <class Call, class Check>
Outcome expect_result(const Case& c, Call&& call, Check&& check) {
  bool want_error = c.expects_error();
  bool check_values = true;
  if (const Quirk* quirk = find_quirk(c)) {
    want_error = quirk->expect == Quirk::Expect::einops_error;
    check_values = false;
  }
  std::optional<std::invoke_result_t<Call&>> result;
  try {
    result.emplace(call());
  } catch (const einops::EinopsError& e) {
    if (want_error && check_values) {
      std::string why = check_einops_sentence(c, e.what());
      if (why.empty()) why = check_error_reason(c, e.what());
      return why.empty() ? Outcome::pass() : Outcome::fail(std::move(why) + "\n" + e.what());
    }
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
    why = check(*result);
  } catch (const std::exception& e) {  // a corpus field of the wrong type
    return Outcome::fail(std::string("malformed expectation: ") + e.what());
  }
  return why.empty() ? Outcome::pass() : Outcome::fail(std::move(why));
}

/// `call()` returns the result as an einops::AnyTensor, compared with the case's array expectation.
template <class Call>
Outcome expect_array(const Case& c, Call&& call, ValueMatch match) {
  return expect_result(c, std::forward<Call>(call),
                       [&](const einops::AnyTensor& result) { return check_array(c.expect(), result, match); });
}

}  // namespace conformance
