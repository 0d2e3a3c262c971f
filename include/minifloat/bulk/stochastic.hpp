// Bulk stochastic rounding is an option of mf::bulk::encode
// (mf::conversion::stochastic, conversion.hpp and encode.hpp); this header
// keeps its include path working and the deprecated names (deprecated.hpp). See
// docs/stochastic-rounding.md.
#pragma once

#include "deprecated.hpp"
#include "encode.hpp"
