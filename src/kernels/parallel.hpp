// The kernels' one entry to threads: a loop over fixed chunks, run on a small persistent pool.
// Assumptions: chunk boundaries are chosen by the caller from the problem alone, so the result
// does not depend on how many threads run them; bodies do not throw.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace einops::detail {

/// A non-owning reference to a callable `void(std::int64_t begin, std::int64_t end)`.
class ChunkBody {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, ChunkBody>)
  ChunkBody(F&& f)  // NOLINT(google-explicit-constructor): used only as a parameter type
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, std::int64_t begin, std::int64_t end) {
          (*static_cast<std::remove_reference_t<F>*>(object))(begin, end);
        }) {}
  void operator()(std::int64_t begin, std::int64_t end) const { call_(object_, begin, end); }

 private:
  void* object_;
  void (*call_)(void*, std::int64_t, std::int64_t);
};

/// Below this many bytes of memory traffic, threads cost more than they save.
inline constexpr std::int64_t kParallelMinBytes = std::int64_t{1} << 20;

/// Calls body(begin, end) for the chunks [0, chunk), [chunk, 2 chunk), ... of [0, count).
/// With `use_threads` false, or a single thread configured, or the pool busy with another call,
/// the chunks run on the calling thread in order; otherwise on up to get_num_threads() threads.
void parallel_for(std::int64_t count, std::int64_t chunk, bool use_threads, ChunkBody body);

}  // namespace einops::detail
