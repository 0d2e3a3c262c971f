// Bulk stochastic rounding is an option of mf::bulk::encode now
// (mf::conversion::stochastic, conversion.hpp and encode.hpp); this header
// keeps the old include path and the deprecated names (deprecated.hpp). See
// docs/stochastic-rounding.md.
#pragma once

#include "deprecated.hpp"
#include "encode.hpp"
