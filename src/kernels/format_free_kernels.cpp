// The kernels of minifloat::kernels that belong to no one format: amax and
// the double narrowing (bulk), the FP4/FP6 packers and the MX blocks (mx).
#include "library_table.hpp"

#include <minifloat/bulk.hpp>
#include <minifloat/mx.hpp>

MF_COMPILE_KERNEL_TABLE(mf::bulk::detail::format_free_kernels);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::packing_kernels);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxfp8_e4m3>);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxfp8_e5m2>);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxfp6_e2m3>);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxfp6_e3m2>);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxfp4>);
MF_COMPILE_KERNEL_TABLE(mf::mx::detail::block_kernels<mf::mx::mxint8>);
