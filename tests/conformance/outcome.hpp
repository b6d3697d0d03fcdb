// The result of running one corpus case.
#pragma once

#include <string>
#include <utility>

namespace conformance {

struct Outcome {
  enum class Status { passed, failed, not_run };
  Status status = Status::passed;
  std::string reason;  // why it failed or was not run; empty when it passed

  static Outcome pass() { return {}; }
  static Outcome fail(std::string why) { return {Status::failed, std::move(why)}; }
  static Outcome skip(std::string why) { return {Status::not_run, std::move(why)}; }
};

}  // namespace conformance
