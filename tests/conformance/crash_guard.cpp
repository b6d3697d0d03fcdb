#include "crash_guard.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>
#include <initializer_list>

namespace conformance {
namespace {

volatile std::sig_atomic_t installed = 0;
const char* volatile current_case = nullptr;

void write_text(const char* text) {
  // Only async-signal-safe calls in here.
  if (::write(STDERR_FILENO, text, std::strlen(text)) < 0) return;
}

extern "C" void on_crash(int signal) {
  write_text("\neinops_conformance: CRASH (signal ");
  char digits[4] = {static_cast<char>('0' + (signal / 10) % 10), static_cast<char>('0' + signal % 10), ')', '\0'};
  write_text(digits);
  write_text(" while running case ");
  const char* id = current_case;
  write_text(id != nullptr ? id : "(none)");
  write_text("\n");
  std::signal(signal, SIG_DFL);  // re-raise: the exit status still says "crashed"
  std::raise(signal);
}

}  // namespace

void install_crash_guard() {
  if (installed != 0) return;
  installed = 1;
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(signal, &on_crash);
}

void set_current_case(const char* id) { current_case = id; }

}  // namespace conformance
