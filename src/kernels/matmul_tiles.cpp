// The hybrid MatMul's micro-kernels and packers of every target
// (hybrid/kernels/targets.hpp), in minifloat::kernels.
#include "library_table.hpp"

#include <minifloat/hybrid.hpp>

MF_COMPILE_KERNEL_TABLE(mf::hybrid::kernels::detail::target_family);
