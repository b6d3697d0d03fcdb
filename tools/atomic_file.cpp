#include "atomic_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "tool_errors.hpp"

namespace einops::tool {
namespace {

/// The permissions an ordinary new file gets (0666 less the umask): mkstemp's 0600 would
/// otherwise survive the rename.
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) fail("cannot write: is a directory");
  const std::size_t slash = path_.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  std::string pattern = folder + "." + name + ".tmp-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = ::mkstemp(buffer.data());
  if (fd < 0) fail("cannot write: " + system_error_text(errno));
  temporary_.assign(buffer.data());
  ::fchmod(fd, new_file_mode());
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    ::unlink(temporary_.c_str());
    fail("cannot write: " + system_error_text(error));
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void AtomicFile::write(const void* data, std::size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, file_) != size) fail("cannot write: " + system_error_text(errno));
}

std::FILE* AtomicFile::stream() { return file_; }

void AtomicFile::commit() {
  std::FILE* file = file_;
  file_ = nullptr;
  if (std::fflush(file) != 0 || std::ferror(file) != 0) {
    const int error = errno;
    std::fclose(file);
    fail("cannot write: " + system_error_text(error));
  }
  if (std::fclose(file) != 0) fail("cannot write: " + system_error_text(errno));
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) fail("cannot write: " + system_error_text(errno));
  temporary_.clear();
}

void AtomicFile::fail(const std::string& problem) const { throw FileError(path_, problem); }

}  // namespace einops::tool
