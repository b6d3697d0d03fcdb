// Hashing and comparing the keys of einops' caches (plans, recipes, einsum patterns, copy
// schedules), written once.
//
// A hash folds 64-bit words into a running value (boost's hash_combine step); text is folded
// eight bytes at a time. Comparisons are plain loops over short keys: std::equal on integers
// becomes a call to memcmp, which costs more than the comparison itself on a cached call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace einops::detail {

/// 2^64 divided by the golden ratio: an odd constant whose bits are spread evenly, so that
/// consecutive values (lengths, enumerators) land far apart.
inline constexpr std::uint64_t kHashSpread = 0x9e3779b97f4a7c15ULL;

/// `hash` with `value` folded in.
constexpr std::uint64_t hash_mix(std::uint64_t hash, std::uint64_t value) {
  return hash ^ (value + kHashSpread + (hash << 6) + (hash >> 2));
}

/// `hash` with the bytes of `text` folded in, eight at a time; the tail word carries the length,
/// so texts that differ only in trailing bytes differ.
inline std::uint64_t hash_text(std::uint64_t hash, std::string_view text) {
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= text.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, sizeof word);
    hash = hash_mix(hash, word);
  }
  std::uint64_t tail = text.size();
  for (; i < text.size(); ++i) tail = (tail << 8) | static_cast<unsigned char>(text[i]);
  return hash_mix(hash, tail);
}

/// Whether two texts hold the same bytes: sizes first, then eight bytes at a time.
inline bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  for (; i + sizeof(std::uint64_t) <= a.size(); i += sizeof(std::uint64_t)) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, sizeof x);
    std::memcpy(&y, b.data() + i, sizeof y);
    if (x != y) return false;
  }
  for (; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

/// Whether two shapes (or any two lists of lengths) are equal.
inline bool same_shape(std::span<const std::int64_t> a, std::span<const std::int64_t> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace einops::detail
