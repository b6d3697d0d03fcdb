// einops for C++: the operations on the built-in tensor in one include. Other libraries' tensors
// come with their adapter's header (einops/eigen.hpp, einops/xtensor.hpp, einops/torch.hpp), a
// tensor type of your own with einops/backend.hpp (docs/backends.md): code that uses none of them
// does not compile the adapter layer. The thread settings (einops/threads.hpp: <chrono> and
// <functional>, a third of what this header would cost) are included where they are used.
#pragma once

#include "einops/check_shape.hpp"
#include "einops/convert.hpp"
#include "einops/dtype.hpp"
#include "einops/einmix.hpp"
#include "einops/einsum.hpp"
#include "einops/error.hpp"
#include "einops/flip.hpp"
#include "einops/limits.hpp"
#include "einops/memory.hpp"
#include "einops/ops.hpp"
#include "einops/pack.hpp"
#include "einops/parse_shape.hpp"
#include "einops/pattern.hpp"
#include "einops/plan.hpp"
#include "einops/rearrange_view.hpp"
#include "einops/reduction.hpp"
#include "einops/tensor.hpp"
#include "einops/version.hpp"
