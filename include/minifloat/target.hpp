// The kernel-set selection every module follows: mf::target::set_isa,
// active_isa, current_selection, isa_supported and the MINIFLOAT_ISA
// environment override (target/dispatch.hpp). Not included by
// minifloat.hpp; bulk.hpp (and so mx.hpp) and hybrid.hpp include it.
#pragma once

#include "target/dispatch.hpp"
