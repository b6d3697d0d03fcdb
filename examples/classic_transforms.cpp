#include <einops/einops.hpp>
#include <iostream>
int main() {
  auto x = einops::Tensor<float>::arange({2, 3, 4});
  auto y = einops::rearrange(x, "a b c -> c (a b)");
  for (auto v : y.to_vector()) std::cout << v << ' ';
  std::cout << "\n";
  auto s = einops::reduce(x, "a b c -> a", "sum").as<float>();
  for (auto v : s.to_vector()) std::cout << v << ' ';
  std::cout << "\n";
  auto r = einops::repeat(x, "a b c -> a b c 2");
  std::cout << r.size() << "\n";
  try { einops::rearrange(x, "a b (c -> a b c"); } catch (const einops::EinopsError& e) { std::cout << e.what() << "\n"; }
  try { einops::rearrange(x, "a b c -> a b", {{"c", 5}}); } catch (const einops::EinopsError& e) { std::cout << e.what() << "\n"; }
}
