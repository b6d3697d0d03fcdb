// `einops batch`: many commands in one process, so that scripts (and the tests, which run the
// tool on thousands of corpus cases) do not pay a process start per command.
//
// Input: one command a line, its arguments separated by tabs; a backslash escapes a tab (\t),
// a newline (\n) or itself (\\). Output: one line per command, "STATUS<tab>STDOUT<tab>STDERR",
// with the same escapes.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace einops::tool {

/// Runs every command of `path` ("-" for standard input). Returns 0, or 2 when the file cannot
/// be read (a command's own failure is reported on its line).
int run_batch(const std::string& path, std::ostream& out);

std::string escape_field(std::string_view text);
/// The arguments of one line. Throws UsageError for a stray backslash.
std::vector<std::string> split_batch_line(std::string_view line);

}  // namespace einops::tool
