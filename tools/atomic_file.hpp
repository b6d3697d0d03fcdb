// An output file that appears whole or not at all: bytes go to a temporary file next to the
// target, which is renamed over it on commit() and removed if the writer fails or gives up.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace einops::tool {

class AtomicFile {
 public:
  /// Creates the temporary file. Throws FileError naming `path` when its folder is not writable.
  explicit AtomicFile(std::string path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  /// Removes the temporary file unless commit() succeeded.
  ~AtomicFile();

  void write(const void* data, std::size_t size);
  /// A stdio stream on the temporary file, for libraries that write through FILE*.
  std::FILE* stream();
  /// Flushes, closes and renames the temporary file onto the target.
  void commit();

  const std::string& path() const { return path_; }
  /// Throws FileError naming the target path.
  [[noreturn]] void fail(const std::string& problem) const;

 private:
  std::string path_;
  std::string temporary_;
  std::FILE* file_ = nullptr;
};

}  // namespace einops::tool
