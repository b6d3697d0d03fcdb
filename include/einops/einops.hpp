// einops for C++: the whole public API in one include.
#pragma once

#include "einops/dtype.hpp"
#include "einops/error.hpp"
#include "einops/ops.hpp"
#include "einops/pattern.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"
