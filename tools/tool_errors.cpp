#include "tool_errors.hpp"

#include <cstring>

namespace einops::tool {

std::string system_error_text(int error) { return std::strerror(error); }

}  // namespace einops::tool
