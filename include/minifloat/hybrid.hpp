// Hybrid FP8 arithmetic: the reference MatMul and element-wise operations
// over mixed FP8 / 16-bit / int8 types with float32 accumulation, selectable
// accumulation models and the post-processing scale rules (docs/hybrid.md).
#pragma once

#include "target.hpp"
#include "hybrid/accumulation.hpp"
#include "hybrid/element_type.hpp"
#include "hybrid/eltwise.hpp"
#include "hybrid/error.hpp"
#include "hybrid/matmul.hpp"
#include "hybrid/tables.hpp"
