// The einops command-line tool: einops patterns applied to .npy arrays and PNG pictures, and
// patterns explained. command_line.cpp defines the commands; docs/cli.md is the manual.
#include <iostream>
#include <string>
#include <vector>

#include "command_line.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv, argv + argc);
  return einops::tool::run_command_line(args, std::cout, std::cerr);
}
