// einops for C++: the whole public API in one include.
#pragma once

#include "einops/backend.hpp"
#include "einops/dtype.hpp"
#include "einops/einsum.hpp"
#include "einops/error.hpp"
#include "einops/limits.hpp"
#include "einops/memory.hpp"
#include "einops/ops.hpp"
#include "einops/pack.hpp"
#include "einops/parse_shape.hpp"
#include "einops/pattern.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"
#include "einops/threads.hpp"
#include "einops/version.hpp"
