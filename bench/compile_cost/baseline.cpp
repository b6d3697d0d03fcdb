// The same program shape without einops: the standard headers einops uses, 20 plain calls.
#include <cstdio>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {
std::size_t touch(const std::vector<float>& v, std::string_view p) { return v.size() + p.size(); }
}  // namespace

int main() {
  const std::vector<float> x(96);
  std::size_t total = 0;
  total += touch(x, "b c h w -> b h w c");
  total += touch(x, "b h w c -> b c h w");
  total += touch(x, "b c h w -> b (c h w)");
  total += touch(x, "b c (h h2) (w w2) -> b (c h2 w2) h w");
  total += touch(x, "b (h w) c -> b c h w");
  total += touch(x, "(b1 b2) h w c -> (b1 h) (b2 w) c");
  total += touch(x, "b c h w -> c b h w");
  total += touch(x, "b ... c -> c b ...");
  total += touch(x, "a b c d -> d c b a");
  total += touch(x, "b c h w -> b 1 c h w");
  total += touch(x, "b c h w -> b c");
  total += touch(x, "b c (h 2) (w 2) -> b c h w");
  total += touch(x, "b c h w -> c");
  total += touch(x, "b c h w -> b h w");
  total += touch(x, "... c -> c");
  total += touch(x, "b c h w -> b c (h 2) (w 2)");
  total += touch(x, "b c h w -> b c h w r");
  total += touch(x, "b c h w -> (b r) c h w");
  total += touch(x, "b c h w -> b (c 3) h w");
  total += touch(x, "b c h w -> r b c h w");
  std::printf("%zu\n", total);
}
