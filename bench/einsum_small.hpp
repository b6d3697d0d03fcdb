// bench_einsum's small/ rows (einsum_small.cpp): attention over short sequences.
#pragma once

namespace bench {

/// Registers the small/ rows; measures the multiply-add peak once, first.
void register_small_products();

}  // namespace bench
