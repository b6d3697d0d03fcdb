// One command of the einops tool, from its words to its exit status.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace einops::tool {

/// Runs `args` (args[0] is the program name) as the tool would, writing to `out` and `err`.
/// Returns the exit status: 0 success, 1 EinopsError, 2 usage or file error, 3 internal error.
int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace einops::tool
