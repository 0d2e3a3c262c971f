// Fused scaling and the fused absolute maximum are options of
// mf::bulk::encode / decode now (encode.hpp: mf::bulk::fused_steps); this
// header keeps the old include path and the deprecated names
// (deprecated.hpp). See docs/scaling.md.
#pragma once

#include "deprecated.hpp"
#include "encode.hpp"
