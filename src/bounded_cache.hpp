// A bounded, thread-safe cache with heterogeneous lookup (a key view is compared in full against
// the stored key; the hash only picks the bucket), so a hit allocates nothing.
//
// Bounding is generational: entries go into the young map; when it is full it becomes the old
// map and the previous old map is dropped. A hit in the old map promotes the entry. At most
// 2 x capacity entries live at once, and a working set that fits in one generation stays cached.
//
// The cache is split into shards by hash, each with its own lock, so that many threads missing
// at once (new patterns, new shapes) do not queue behind one writer; the key is hashed once.
// A dropped generation is freed after its lock is released.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace einops::detail {

template <class Key, class Value, class Hash, class Equal>
class BoundedCache {
 public:
  static constexpr std::size_t kShards = 16;

  explicit BoundedCache(std::size_t capacity) : shard_capacity_((capacity + kShards - 1) / kShards) {}

  template <class KeyView>
  std::optional<Value> find(const KeyView& key) {
    const Probe<KeyView> probe{key, Hash{}(key)};
    Shard& shard = shard_of(probe.hash);
    {
      std::shared_lock lock(shard.mutex);
      if (auto it = shard.young.find(probe); it != shard.young.end()) return it->second;
      if (shard.old.find(probe) == shard.old.end()) return std::nullopt;
    }
    std::unique_lock lock(shard.mutex);
    auto it = shard.old.find(probe);
    if (it == shard.old.end()) {  // promoted or dropped by another thread meanwhile
      auto young = shard.young.find(probe);
      return young == shard.young.end() ? std::nullopt : std::optional<Value>(young->second);
    }
    Value value = it->second;
    auto node = shard.old.extract(it);
    Map dropped = insert_locked(shard, std::move(node.key()), value);
    lock.unlock();  // `dropped` is freed without blocking other threads
    return value;
  }

  void insert(Key key, Value value) {
    Shard& shard = shard_of(Hash{}(key));
    Map dropped;
    std::unique_lock lock(shard.mutex);
    dropped = insert_locked(shard, std::move(key), std::move(value));
    lock.unlock();
  }

  std::size_t size() const {
    std::size_t total = 0;
    for (const Shard& shard : shards_) {
      std::shared_lock lock(shard.mutex);
      total += shard.young.size() + shard.old.size();
    }
    return total;
  }
  /// The most entries the cache holds at once.
  std::size_t capacity() const { return 2 * kShards * shard_capacity_; }
  void clear() {
    for (Shard& shard : shards_) {
      Map young, old;
      std::unique_lock lock(shard.mutex);
      young.swap(shard.young);
      old.swap(shard.old);
    }
  }

 private:
  /// A lookup with its hash already computed.
  template <class KeyView>
  struct Probe {
    const KeyView& key;
    std::size_t hash;
  };
  struct ProbeHash : Hash {
    using is_transparent = void;
    using Hash::operator();
    template <class KeyView>
    std::size_t operator()(const Probe<KeyView>& probe) const {
      return probe.hash;
    }
  };
  struct ProbeEqual : Equal {
    using is_transparent = void;
    using Equal::operator();
    template <class KeyView>
    bool operator()(const Probe<KeyView>& probe, const Key& key) const {
      return Equal::operator()(probe.key, key);
    }
    template <class KeyView>
    bool operator()(const Key& key, const Probe<KeyView>& probe) const {
      return Equal::operator()(key, probe.key);
    }
  };
  using Map = std::unordered_map<Key, Value, ProbeHash, ProbeEqual>;

  struct alignas(64) Shard {  // one cache line apart: no false sharing between locks
    mutable std::shared_mutex mutex;
    Map young;
    Map old;
  };

  Shard& shard_of(std::size_t hash) { return shards_[(hash ^ (hash >> 29)) % kShards]; }

  /// Inserts; returns the generation dropped to make room (empty if none), for the caller to
  /// destroy after unlocking.
  [[nodiscard]] Map insert_locked(Shard& shard, Key key, Value value) {
    Map dropped;
    if (shard.young.size() >= shard_capacity_) {
      dropped = std::exchange(shard.old, std::move(shard.young));
      shard.young = Map();
    }
    shard.young.insert_or_assign(std::move(key), std::move(value));
    return dropped;
  }

  std::size_t shard_capacity_;
  std::array<Shard, kShards> shards_;
};

/// Hash and equality of text keys that also take a std::string_view (heterogeneous lookup).
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
struct TextEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

/// A BoundedCache keyed by text (a pattern, or a pattern followed by shapes as raw bytes).
template <class Value>
using TextKeyedCache = BoundedCache<std::string, Value, TextHash, TextEqual>;

}  // namespace einops::detail
