// A persistent pool of worker threads. The calling thread always takes part; each thread runs its
// own contiguous block of chunks, then claims chunks left in the others' (Job), so uneven chunks
// balance themselves. One call at a time owns the pool: a concurrent or nested call runs serially
// on its own thread (no oversubscription). A host loop set by set_parallel_for replaces the pool:
// it receives the same chunks, by index.
#include "parallel.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "einops/detail/platform.hpp"
#include "einops/threads.hpp"
#include "platform.hpp"
#include "thread_settings.hpp"

namespace einops {
namespace detail {
namespace {

std::atomic<int> requested_threads{0};           // 0: the default
thread_local bool inside_parallel_work = false;  // a pool worker, or a body run by the host loop

/// The host's loop (set_parallel_for). `host_loop_set` lets calls without one skip the lock.
std::atomic<bool> host_loop_set{false};
std::mutex host_loop_mutex;
std::shared_ptr<const ParallelFor> host_loop;

std::shared_ptr<const ParallelFor> current_host_loop() {
  if (!host_loop_set.load(std::memory_order_acquire)) return nullptr;
  std::lock_guard<std::mutex> lock(host_loop_mutex);
  return host_loop;
}

/// Runs chunk `index` of `count` items, chunks of `chunk`, through the host's loop.
void run_on_host(const ParallelFor& loop, std::int64_t count, std::int64_t chunk, std::int64_t chunks, ChunkBody body) {
  loop(chunks, [&](std::int64_t index) {
    const bool was_inside = inside_parallel_work;
    inside_parallel_work = true;  // an einops call made by the body runs serially
    const std::int64_t begin = index * chunk;
    body(begin, std::min(count, begin + chunk));
    inside_parallel_work = was_inside;
  });
}

/// EINOPS_NUM_THREADS, else the CPUs available (threads.hpp). Computed once: the CPU count reads
/// /proc and /sys.
int default_threads() {
  static const int count = [] {
    if (const auto text = environment_variable(kNumThreadsVariable))
      if (const std::optional<int> n = thread_count_setting(*text)) return *n;
    return std::clamp(available_cpus(), 1, kMaxThreads);
  }();
  return count;
}

/// EINOPS_SPIN_WAIT_US, else kDefaultSpinWait, computed once.
std::chrono::microseconds default_spin_wait() {
  static const std::chrono::microseconds wait = [] {
    if (const auto text = environment_variable(kSpinWaitVariable))
      if (const auto us = spin_wait_setting(*text)) return *us;
    return kDefaultSpinWait;
  }();
  return wait;
}

constexpr std::int64_t kSpinWaitUnset = -1;
std::atomic<std::int64_t> spin_wait_us{kSpinWaitUnset};  // microseconds; kSpinWaitUnset: the default

/// One parallel_for call. The chunks are dealt out in contiguous blocks, one per seat (the caller
/// and each worker that joins): a seat runs its own block in order, then takes chunks left in the
/// others', so uneven chunks and late workers still balance. Each thread thus reads one
/// contiguous part of the data, the same part on every call of the same shape, which stays in
/// that core's caches (a shared counter, chunks taken in turn, scatters each thread's reads).
struct Job {
  struct alignas(64) Block {            // a cache line each: seats claim chunks without sharing one
    std::atomic<std::int64_t> next{0};  // chunk index
    std::int64_t end = 0;
  };
  std::int64_t count = 0;
  std::int64_t chunk = 1;
  ChunkBody* body = nullptr;
  std::unique_ptr<Block[]> blocks;
  int seats = 0;   // the caller and the workers that may join
  int joined = 0;  // workers joined; guarded by the pool's mutex

  void deal(std::int64_t chunks, int seats_) {
    seats = seats_;
    blocks = std::make_unique<Block[]>(static_cast<std::size_t>(seats));
    const std::int64_t each = chunks / seats, extra = chunks % seats;  // the first `extra` take one more
    std::int64_t first = 0;
    for (int s = 0; s < seats; ++s) {
      blocks[static_cast<std::size_t>(s)].next.store(first, std::memory_order_relaxed);
      first += each + (s < extra ? 1 : 0);
      blocks[static_cast<std::size_t>(s)].end = first;
    }
  }
  /// Runs seat `seat`'s block, then what is left of the others'.
  void run_chunks(int seat) {
    for (int k = 0; k < seats; ++k) {
      Block& block = blocks[static_cast<std::size_t>((seat + k) % seats)];
      for (;;) {
        const std::int64_t index = block.next.fetch_add(1, std::memory_order_relaxed);
        if (index >= block.end) break;
        const std::int64_t begin = index * chunk;
        (*body)(begin, std::min(count, begin + chunk));
      }
    }
  }
};

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
  }

  /// Runs `job` on the caller and up to `threads - 1` workers; false when the pool is in use.
  bool try_run(Job& job, int threads) {
    if (busy_.exchange(true, std::memory_order_acquire)) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      while (static_cast<int>(workers_.size()) < threads - 1) workers_.emplace_back([this] { work(); });
      job_ = &job;
      ++generation_;
      posted_.store(generation_, std::memory_order_release);
    }
    wake_.notify_all();
    job.run_chunks(0);
    {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [&] { return active_ == 0; });
      job_ = nullptr;
    }
    busy_.store(false, std::memory_order_release);
    return true;
  }

 private:
  void work() {
    inside_parallel_work = true;
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!stopping_ && (job_ == nullptr || generation_ == seen)) {
        lock.unlock();
        spin_for_next_job(seen);
        lock.lock();
      }
      wake_.wait(lock, [&] { return stopping_ || (job_ != nullptr && generation_ != seen); });
      if (stopping_) return;
      seen = generation_;
      Job* job = job_;
      if (job->joined >= job->seats - 1) continue;
      const int seat = ++job->joined;
      ++active_;
      lock.unlock();
      job->run_chunks(seat);
      lock.lock();
      if (--active_ == 0) done_.notify_all();
    }
  }

  /// Polls for the next job for up to get_spin_wait() before sleeping (why: einops/threads.hpp).
  void spin_for_next_job(std::uint64_t seen) const {
    const std::chrono::microseconds spin = get_spin_wait();
    if (spin.count() == 0) return;
    const auto deadline = std::chrono::steady_clock::now() + spin;
    while (posted_.load(std::memory_order_acquire) == seen) {
      for (int i = 0; i < kRelaxesPerClockRead; ++i) cpu_relax();
      if (std::chrono::steady_clock::now() >= deadline) return;
    }
  }
  /// Spin-wait hints between two reads of the clock, which costs more than a hint.
  static constexpr int kRelaxesPerClockRead = 64;

  std::atomic<std::uint64_t> posted_{0};  // generation_, readable without the lock
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  Job* job_ = nullptr;
  std::uint64_t generation_ = 0;
  int active_ = 0;
  bool stopping_ = false;
  std::atomic<bool> busy_{false};
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

void parallel_for(std::int64_t count, std::int64_t chunk, bool use_threads, ChunkBody body) {
  if (count <= 0) return;
  chunk = std::max<std::int64_t>(chunk, 1);
  if (count <= chunk) return body(0, count);  // one chunk (every small call): no pool, no division
  const std::int64_t chunks = (count + chunk - 1) / chunk;
  const int threads = static_cast<int>(std::min<std::int64_t>(get_num_threads(), chunks));
  if (use_threads && threads > 1 && !inside_parallel_work) {
    if (const std::shared_ptr<const ParallelFor> loop = current_host_loop())
      return run_on_host(*loop, count, chunk, chunks, body);
    Job job;
    job.count = count;
    job.chunk = chunk;
    job.body = &body;
    job.deal(chunks, threads);
    if (pool().try_run(job, threads)) return;
  }
  for (std::int64_t begin = 0; begin < count; begin += chunk) body(begin, std::min(count, begin + chunk));
}

}  // namespace detail

void set_num_threads(int n) {
  detail::requested_threads.store(n <= 0 ? 0 : std::min(n, kMaxThreads), std::memory_order_relaxed);
}

int get_num_threads() {
  const int n = detail::requested_threads.load(std::memory_order_relaxed);
  return n > 0 ? n : detail::default_threads();
}

void set_spin_wait(std::chrono::microseconds wait) {
  detail::spin_wait_us.store(detail::clamp_spin_wait(wait).count(), std::memory_order_relaxed);
}

void set_parallel_for(ParallelFor parallel_for) {
  std::shared_ptr<const ParallelFor> loop;
  if (parallel_for) loop = std::make_shared<const ParallelFor>(std::move(parallel_for));
  std::lock_guard<std::mutex> lock(detail::host_loop_mutex);
  detail::host_loop_set.store(loop != nullptr, std::memory_order_release);
  detail::host_loop = std::move(loop);
}

bool has_host_parallel_for() { return detail::host_loop_set.load(std::memory_order_acquire); }

std::chrono::microseconds get_spin_wait() {
  const std::int64_t us = detail::spin_wait_us.load(std::memory_order_relaxed);
  return us == detail::kSpinWaitUnset ? detail::default_spin_wait() : std::chrono::microseconds{us};
}

}  // namespace einops
