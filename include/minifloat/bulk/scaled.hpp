// Fused scaling and the fused absolute maximum are options of
// mf::bulk::encode / decode (encode.hpp: mf::bulk::fused_steps); this
// header keeps its include path working and the deprecated names
// (deprecated.hpp). See docs/scaling.md.
#pragma once

#include "deprecated.hpp"
#include "encode.hpp"
