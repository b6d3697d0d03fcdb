// How many threads the built-in kernels may use, and how long idle ones wait before sleeping.
//
// Large copies and reductions are split into chunks whose boundaries depend only on the problem,
// never on the thread count, so every result (float sums included) is bit-identical for 1, 2, 3
// or more threads. Small problems always run on the calling thread. A call made while another
// call is using the threads (a caller that is itself multi-threaded) runs on its own thread
// instead of adding more: the library never runs more than the requested number of threads.
//
// Environment variables, read once, at the first use of the setting they give a default for.
// A value that is not a plain decimal integer in range (empty, a sign, spaces, other characters,
// too large for int64) is ignored, silently (the library never prints), and the default applies:
//   EINOPS_NUM_THREADS   a positive integer: the default thread count (larger than kMaxThreads
//                        counts as kMaxThreads), instead of the CPUs available to the process.
//                        It wins over the affinity mask and the cgroup quota: `taskset -c 0`
//                        with EINOPS_NUM_THREADS=3 runs 3 threads. 0 is ignored.
//   EINOPS_SPIN_WAIT_US  a non-negative integer: the default of set_spin_wait, in microseconds.
//
// A host application with a pool of its own (OpenMP, oneTBB, a framework's) can run the same
// fixed chunks on that pool instead (set_parallel_for): the built-in pool then never starts.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "einops/export.hpp"

namespace einops {

/// The most threads the kernels use; larger settings count as this.
inline constexpr int kMaxThreads = 256;

/// Threads the kernels may use, the calling thread included. 1 turns threading off.
/// `n <= 0` restores the default: EINOPS_NUM_THREADS where set (see above), otherwise the CPUs
/// available to this process, the smallest of the CPUs in its affinity mask (`taskset`, `docker
/// --cpuset-cpus`), its cgroup's CPU quota rounded up (`docker --cpus=1.5`: 2) and the hardware
/// threads. The default is computed once, at first use; later changes to the affinity, the quota
/// or the variable do not move it. Calling this always wins over the default.
EINOPS_API void set_num_threads(int n);

/// The current setting (at least 1).
EINOPS_API int get_num_threads();

/// How long an idle worker thread polls for the next piece of work before it sleeps. Waking a
/// sleeping thread costs about as much as a whole large copy, and loops
/// call parallel work back to back, so idle workers spin briefly by default, as OpenMP runtimes
/// do. A spinning worker occupies a CPU: a library inside someone else's application, sharing
/// the CPUs with its threads, may want 0 (workers sleep at once). The default is
/// kDefaultSpinWait, or EINOPS_SPIN_WAIT_US where set (see above). Negative durations count as 0,
/// longer ones than kMaxSpinWait as kMaxSpinWait. Applies from each worker's next wait on.
EINOPS_API void set_spin_wait(std::chrono::microseconds wait);

/// The current spin wait.
EINOPS_API std::chrono::microseconds get_spin_wait();

/// The spin wait's default (without EINOPS_SPIN_WAIT_US).
inline constexpr std::chrono::microseconds kDefaultSpinWait{200};

/// The longest spin wait: longer would only burn a CPU that sleeping frees at a small cost.
inline constexpr std::chrono::microseconds kMaxSpinWait{1'000'000};

/// A host application's parallel loop: calls body(i) exactly once for every i in [0, count), on
/// any threads, in any order, and returns when every call has returned. Bodies do not throw.
using ParallelFor = std::function<void(std::int64_t count, const std::function<void(std::int64_t index)>& body)>;

/// Runs einops' parallel work through `parallel_for` instead of the built-in pool, e.g.
///   einops::set_parallel_for([](std::int64_t n, const std::function<void(std::int64_t)>& body) {
///   #pragma omp parallel for schedule(dynamic)
///     for (std::int64_t i = 0; i < n; ++i) body(i);
///   });
/// Each index is one of the chunks the built-in pool would run: chunk boundaries depend on the
/// problem alone, so results stay bit-identical to the built-in pool's for any thread count the
/// host uses. The hook is called only for work that the built-in pool would spread over threads
/// (large problems, get_num_threads() above 1), from the thread that called einops; nested
/// einops calls from inside a body run serially. An empty function (nullptr) restores the
/// built-in pool. Calls already running keep the loop they started with.
EINOPS_API void set_parallel_for(ParallelFor parallel_for);

/// True when a host loop is set (set_parallel_for).
EINOPS_API bool has_host_parallel_for();

}  // namespace einops
