// A whole file mapped read-only into memory: large inputs are paged in on demand, never copied.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace einops::tool {

class MappedFile {
 public:
  /// Maps `path` (a regular file). Throws FileError naming the path when it cannot.
  static std::shared_ptr<const MappedFile> open(const std::string& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const unsigned char> bytes() const { return {data_, size_}; }

 private:
  MappedFile(const unsigned char* data, std::size_t size) : data_(data), size_(size) {}
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace einops::tool
