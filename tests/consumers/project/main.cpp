// A user's program built against einops (tests/consumers: installed package, pkg-config,
// add_subdirectory, FetchContent). It also catches an EinopsError that the library throws: with a
// shared libeinops, the exception's type crosses the library's boundary.
#include <einops/einops.hpp>

#include <iostream>
#include <string>

int main() {
  const auto x = einops::Tensor<int>::arange({2, 3});
  const auto y = einops::rearrange(x, "a b -> b a");
  std::cout << "consumer " << einops::version << ": (" << y.shape(0) << ", " << y.shape(1) << ")";
  for (int v : y.to_vector()) std::cout << ' ' << v;
  try {
    const std::string unknown_axis = "a b -> a b c";
    einops::rearrange(x, unknown_axis);
  } catch (const einops::EinopsError&) {
    std::cout << "; EinopsError caught";
  }
  std::cout << '\n';
}
