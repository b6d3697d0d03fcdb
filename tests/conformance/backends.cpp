#include <utility>

#include "backend.hpp"

namespace conformance {
namespace {

Backend make_builtin() {
  Backend backend{"builtin", {}};
  register_builtin_reshape_ops(backend.ops);
  return backend;
}

struct Factory {
  const char* name;
  Backend (*make)();
};
// Later backends (torch, eigen, xtensor) add a line here, guarded by their build option.
constexpr Factory factories[] = {
    {"builtin", &make_builtin},
};

}  // namespace

std::optional<Backend> make_backend(std::string_view name) {
  for (const Factory& factory : factories)
    if (name == factory.name) return factory.make();
  return std::nullopt;
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const Factory& factory : factories) names.emplace_back(factory.name);
  return names;
}

}  // namespace conformance
