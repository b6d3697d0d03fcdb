#include "batch.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

#include "command_line.hpp"
#include "tool_errors.hpp"

namespace einops::tool {

std::string escape_field(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::vector<std::string> split_batch_line(std::string_view line) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\t') {
      words.emplace_back();
    } else if (c != '\\') {
      words.back() += c;
    } else if (i + 1 < line.size() && (line[i + 1] == 't' || line[i + 1] == 'n' || line[i + 1] == '\\')) {
      const char escaped = line[++i];
      words.back() += escaped == 't' ? '\t' : escaped == 'n' ? '\n' : '\\';
    } else {
      throw UsageError("batch: a backslash must be followed by t, n or another backslash");
    }
  }
  return words;
}

int run_batch(const std::string& path, std::ostream& out) {
  std::ifstream file;
  if (path != "-") {
    file.open(path);
    if (!file) throw FileError(path, "cannot open: " + system_error_text(errno));
  }
  std::istream& in = path == "-" ? std::cin : file;
  std::string line;
  while (std::getline(in, line)) {
    std::ostringstream command_out, command_err;
    int status = 2;
    try {
      std::vector<std::string> args = split_batch_line(line);
      if (!args.empty() && args[0] == "batch") throw UsageError("batch: a batch cannot run another batch");
      args.insert(args.begin(), "einops");
      status = run_command_line(args, command_out, command_err);
    } catch (const UsageError& e) {
      command_err << "einops: " << e.what() << "\n";
    }
    out << status << '\t' << escape_field(command_out.str()) << '\t' << escape_field(command_err.str()) << '\n';
  }
  if (in.bad()) throw FileError(path, "cannot read: " + system_error_text(errno));
  return 0;
}

}  // namespace einops::tool
