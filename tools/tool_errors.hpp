// The tool's own errors. Both are reported on one line and end the tool with status 2
// (an EinopsError, a pattern that does not fit the data, ends it with status 1).
#pragma once

#include <stdexcept>
#include <string>

namespace einops::tool {

/// A problem with a file the tool reads or writes (missing, malformed, unwritable): "FILE: problem".
class FileError : public std::runtime_error {
 public:
  FileError(const std::string& path, const std::string& problem) : std::runtime_error(path + ": " + problem) {}
};

/// A command line that cannot be run (a missing option, a malformed axis length).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The text of errno `error` ("No such file or directory").
std::string system_error_text(int error);

}  // namespace einops::tool
