// einops_conformance: runs the golden corpus (tests/conformance/corpus) against one backend.
//
//   einops_conformance [--corpus PATH] [--backend NAME] [--filter SUBSTRING] [--verbose]
//
// Prints a count per operation and a last line "N passed, M failed"; exits non-zero on any
// failure or when no case ran. Cases the backend does not run (an op it lacks, a dtype its
// library cannot hold) are counted apart, per op and reason, and never counted as passed.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend.hpp"
#include "corpus.hpp"
#include "crash_guard.hpp"
#include "outcome.hpp"

#ifndef EINOPS_CONFORMANCE_DEFAULT_CORPUS
#error "CMake defines EINOPS_CONFORMANCE_DEFAULT_CORPUS (the path of tests/conformance/corpus/einops_golden.jsonl)"
#endif

namespace conformance {
namespace {

struct Options {
  std::string corpus = EINOPS_CONFORMANCE_DEFAULT_CORPUS;
  std::string backend = "builtin";
  std::string filter;
  bool verbose = false;
};

struct Tally {
  std::size_t passed = 0, failed = 0, not_run = 0;
  std::map<std::string, std::size_t, std::less<>> not_run_reasons;
};

constexpr std::size_t quiet_failure_limit = 20;  // without --verbose, the first failures only

void usage(std::ostream& out) {
  out << "usage: einops_conformance [--corpus PATH] [--backend NAME] [--filter SUBSTRING] [--verbose]\n"
         "  --corpus   golden corpus, JSON Lines (default " EINOPS_CONFORMANCE_DEFAULT_CORPUS
         ")\n"
         "  --backend  one of:";
  for (const std::string& name : backend_names()) out << ' ' << name;
  out << " (default builtin)\n"
         "  --filter   run only cases whose id contains SUBSTRING\n"
         "  --verbose  print every failure with its id, pattern and reason\n";
}

// Returns nullopt after printing why the arguments are unusable.
std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    std::optional<std::string_view> inline_value;  // --name=value
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      inline_value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    const auto value = [&]() -> std::optional<std::string> {
      if (inline_value) return std::string(*inline_value);
      if (i + 1 < args.size()) return std::string(args[++i]);
      std::cerr << "einops_conformance: " << arg << " needs a value\n";
      return std::nullopt;
    };
    if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--help" || arg == "-h") {
      usage(std::cout);
      std::exit(0);
    } else if (arg == "--corpus" || arg == "--backend" || arg == "--filter") {
      const auto v = value();
      if (!v) return std::nullopt;
      (arg == "--corpus" ? options.corpus : arg == "--backend" ? options.backend : options.filter) = *v;
    } else {
      std::cerr << "einops_conformance: unknown argument '" << arg << "'\n";
      usage(std::cerr);
      return std::nullopt;
    }
  }
  return options;
}

Outcome run_case(const Backend& backend, const Case& c) {
  if (const auto it = backend.ops.find(c.op); it != backend.ops.end()) return it->second(c);
  for (std::string_view known : known_ops)
    if (c.op == known) return Outcome::skip("not run by this backend yet");
  return Outcome::fail("unknown op '" + c.op + "'");
}

// One line per failure: EinopsError messages span several lines.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

void print_failure(const Options& options, const Case& c, const Outcome& outcome, std::size_t failures_so_far) {
  if (options.verbose) {
    std::cout << "FAIL " << c.id << " [" << c.op << "] \"" << c.pattern << "\": " << one_line(outcome.reason) << '\n';
  } else if (failures_so_far < quiet_failure_limit) {
    std::cout << "FAIL " << c.id << ": " << one_line(outcome.reason) << '\n';
  }
}

int run(const Options& options) {
  const std::optional<Backend> backend = make_backend(options.backend);
  if (!backend) {
    std::cerr << "einops_conformance: no backend '" << options.backend << "' in this build\n";
    usage(std::cerr);
    return 2;
  }
  std::vector<Case> cases;
  try {
    cases = load_corpus(options.corpus);
  } catch (const std::exception& e) {
    std::cerr << "einops_conformance: " << e.what() << '\n';
    return 2;
  }
  std::cout << "corpus " << options.corpus << " (" << cases.size() << " cases), backend " << backend->name
            << (options.filter.empty() ? "" : ", filter '" + options.filter + "'") << '\n';

  // Ops in the corpus format's order, then any unknown ones as they come.
  std::vector<std::string> op_order(known_ops.begin(), known_ops.end());
  std::map<std::string, Tally, std::less<>> tallies;
  Tally total;
  install_crash_guard();
  for (const Case& c : cases) {
    if (c.id.find(options.filter) == std::string::npos) continue;
    set_current_case(c.id.c_str());
    const Outcome outcome = run_case(*backend, c);
    set_current_case(nullptr);
    if (!tallies.contains(c.op) && std::find(op_order.begin(), op_order.end(), c.op) == op_order.end())
      op_order.push_back(c.op);
    Tally& tally = tallies[c.op];
    switch (outcome.status) {
      case Outcome::Status::passed: ++tally.passed, ++total.passed; break;
      case Outcome::Status::not_run:
        ++tally.not_run, ++total.not_run;
        ++tally.not_run_reasons[outcome.reason];
        break;
      case Outcome::Status::failed:
        print_failure(options, c, outcome, total.failed);
        ++tally.failed, ++total.failed;
        break;
    }
  }
  if (!options.verbose && total.failed > quiet_failure_limit)
    std::cout << "... and " << total.failed - quiet_failure_limit << " more failures (--verbose lists all)\n";

  std::printf("%-12s %8s %8s\n", "op", "passed", "failed");
  std::string not_run_list;
  for (const std::string& op : op_order) {
    const auto it = tallies.find(op);
    if (it == tallies.end()) continue;
    const Tally& t = it->second;
    if (t.passed + t.failed > 0) std::printf("%-12s %8zu %8zu\n", op.c_str(), t.passed, t.failed);
    if (t.not_run == 0) continue;
    not_run_list += "  " + op + ": " + std::to_string(t.not_run) + " cases\n";
    for (const auto& [reason, count] : t.not_run_reasons)
      not_run_list += "    " + std::to_string(count) + " " + reason + "\n";
  }
  if (!not_run_list.empty())
    std::cout << "not run by this backend (" << total.not_run << " cases, not counted as passed):\n" << not_run_list;
  std::cout << total.passed << " passed, " << total.failed << " failed" << std::endl;
  if (total.passed + total.failed == 0) std::cerr << "einops_conformance: no case was run\n";
  return total.failed > 0 || total.passed + total.failed == 0 ? 1 : 0;
}

}  // namespace
}  // namespace conformance

int main(int argc, char** argv) {
  const auto options = conformance::parse_options(argc, argv);
  if (!options) return 2;
  return conformance::run(*options);
}
