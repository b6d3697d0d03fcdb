// A thread's most recently used cache entries: the front of every per-call cache (plans in front
// of the shared BoundedCache, adapters' recipes, einsum's compact patterns, copy schedules), so
// that a call repeated on one thread finds its entry with a few comparisons: no lock, no
// allocation, no virtual call.
//
// The entries form kSets sets of kWays entries. A lookup tries the entry used last first (no
// hash), then the ways of the key's set, picked by the key's hash only when there are several
// sets; a new entry replaces the oldest of its set. Entries keep their buffers when overwritten,
// so a thread that has warmed up allocates nothing.
//
// An Entry is default-constructible and has `bool matches(const Key&) const` for each Key it is
// looked up by. One instance serves one thread (hold it thread_local): nothing here is
// synchronised. A pointer or reference to an entry stays valid until the next store() or clear().
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace einops::detail {

template <class Entry, std::size_t kSets, std::size_t kWays = 1>
class RecentEntries {
  static_assert(kSets > 0 && kWays > 0);
  static_assert(kWays <= std::numeric_limits<std::uint8_t>::max(), "a set's next way is kept in a byte");

 public:
  /// What find() saw: the matching entry (null on a miss) and the set a new entry for the key joins.
  struct Lookup {
    Entry* hit = nullptr;
    std::size_t set = 0;
  };

  /// Looks `key` up. `hash_of()` gives the key's hash; it is called only when the entry used last
  /// does not match and there are several sets.
  template <class Key, class HashOf>
  Lookup find(const Key& key, const HashOf& hash_of) {
    if (last_ != nullptr && last_->entry.matches(key)) return {&last_->entry, 0};
    std::size_t set = 0;
    if constexpr (kSets > 1) set = static_cast<std::size_t>(hash_of() % kSets);
    for (Slot& slot : ways_of(set))
      if (slot.filled && &slot != last_ && slot.entry.matches(key)) {
        last_ = &slot;
        return {&slot.entry, set};
      }
    return {nullptr, set};
  }

  /// find() where there is one set: no hash is ever needed.
  template <class Key>
    requires(kSets == 1)
  Lookup find(const Key& key) {
    return find(key, [] { return std::uint64_t{0}; });
  }

  /// Overwrites the oldest entry of the set `miss` names with `fill(Entry&)` and makes it the
  /// entry used last. If `fill` throws, the entry is left empty (it matches no key).
  template <class Fill>
  Entry& store(const Lookup& miss, Fill&& fill) {
    std::uint8_t& next = next_way_[miss.set];
    Slot& slot = ways_of(miss.set)[next];
    next = static_cast<std::uint8_t>((next + 1) % kWays);
    if (last_ == &slot) last_ = nullptr;
    slot.filled = false;
    fill(slot.entry);
    slot.filled = true;
    last_ = &slot;
    return slot.entry;
  }

  /// Forgets every entry; their buffers stay for the next ones.
  void clear() {
    for (Slot& slot : slots_) slot.filled = false;
    last_ = nullptr;
  }

 private:
  struct Slot {
    Entry entry{};
    bool filled = false;
  };

  std::span<Slot, kWays> ways_of(std::size_t set) { return std::span<Slot, kWays>(slots_.data() + set * kWays, kWays); }

  std::array<Slot, kSets * kWays> slots_{};
  std::array<std::uint8_t, kSets> next_way_{};  // per set, the way store() overwrites next
  Slot* last_ = nullptr;                        // filled, or null
};

}  // namespace einops::detail
