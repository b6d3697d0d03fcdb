// A bounded, thread-safe cache with heterogeneous lookup (a key view is compared in full against
// the stored key; the hash only picks the bucket), so a hit allocates nothing.
//
// Bounding is generational: entries go into the young map; when it is full it becomes the old
// map and the previous old map is dropped. A hit in the old map promotes the entry. At most
// 2 x capacity entries live at once, and a working set that fits in one generation stays cached.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <unordered_map>
#include <utility>

namespace einops::detail {

template <class Key, class Value, class Hash, class Equal>
class BoundedCache {
 public:
  explicit BoundedCache(std::size_t capacity) : capacity_(capacity) {}

  template <class KeyView>
  std::optional<Value> find(const KeyView& key) {
    {
      std::shared_lock lock(mutex_);
      if (auto it = young_.find(key); it != young_.end()) return it->second;
      if (old_.find(key) == old_.end()) return std::nullopt;
    }
    std::unique_lock lock(mutex_);
    auto it = old_.find(key);
    if (it == old_.end()) {  // promoted or dropped by another thread meanwhile
      auto young = young_.find(key);
      return young == young_.end() ? std::nullopt : std::optional<Value>(young->second);
    }
    Value value = it->second;
    auto node = old_.extract(it);
    insert_locked(std::move(node.key()), value);
    return value;
  }

  void insert(Key key, Value value) {
    std::unique_lock lock(mutex_);
    insert_locked(std::move(key), std::move(value));
  }

  std::size_t size() const {
    std::shared_lock lock(mutex_);
    return young_.size() + old_.size();
  }
  std::size_t capacity() const { return 2 * capacity_; }
  void clear() {
    std::unique_lock lock(mutex_);
    young_.clear();
    old_.clear();
  }

 private:
  void insert_locked(Key key, Value value) {
    if (young_.size() >= capacity_) {
      old_ = std::move(young_);
      young_.clear();
    }
    young_.insert_or_assign(std::move(key), std::move(value));
  }

  std::size_t capacity_;
  mutable std::shared_mutex mutex_;
  std::unordered_map<Key, Value, Hash, Equal> young_;
  std::unordered_map<Key, Value, Hash, Equal> old_;
};

}  // namespace einops::detail
