// How many threads the built-in kernels may use.
//
// Large copies and reductions are split into chunks whose boundaries depend only on the problem,
// never on the thread count, so every result (float sums included) is bit-identical for 1, 2, 3
// or more threads. Small problems always run on the calling thread. A call made while another
// call is using the threads (a caller that is itself multi-threaded) runs on its own thread
// instead of adding more: the library never runs more than the requested number of threads.
#pragma once

namespace einops {

/// Threads the kernels may use, the calling thread included. `n <= 0` restores the default: the
/// number of hardware threads. 1 turns threading off.
void set_num_threads(int n);

/// The current setting (at least 1).
int get_num_threads();

}  // namespace einops
