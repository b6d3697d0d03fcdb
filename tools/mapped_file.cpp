#include "mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "tool_errors.hpp"

namespace einops::tool {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw FileError(path, "cannot open: " + system_error_text(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    throw FileError(path, "cannot stat: " + system_error_text(error));
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw FileError(path, S_ISDIR(info.st_mode) ? "is a directory" : "is not a regular file");
  }
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size == 0) {  // mmap refuses length 0; an empty file still has a (wrong) format to report
    ::close(fd);
    return std::shared_ptr<const MappedFile>(new MappedFile(nullptr, 0));
  }
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int error = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (data == MAP_FAILED) throw FileError(path, "cannot map into memory: " + system_error_text(error));
  return std::shared_ptr<const MappedFile>(new MappedFile(static_cast<const unsigned char*>(data), size));
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<unsigned char*>(data_), size_);
}

}  // namespace einops::tool
