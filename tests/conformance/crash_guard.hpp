// A crash inside the library (a signal) still ends the run with a non-zero status; this names
// the case that was running, so the crash can be reproduced with --filter.
#pragma once

namespace conformance {

/// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
void install_crash_guard();
/// The id printed if the process crashes now; `id` must outlive the call (nullptr: none).
void set_current_case(const char* id);

}  // namespace conformance
