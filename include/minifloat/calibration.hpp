// Umbrella header of static scale calibration: the |x| histogram observer,
// the max / percentile / mse / kl scale searches over a format's grid with
// their cost, and per-channel calibration (docs/scaling.md, "Static
// calibration"). Not included by minifloat.hpp.
#pragma once

#include "calibration/cost.hpp"
#include "calibration/grid.hpp"
#include "calibration/histogram.hpp"
#include "calibration/kl.hpp"
#include "calibration/methods.hpp"
#include "calibration/mse.hpp"
#include "calibration/per_channel.hpp"
#include "calibration/percentile.hpp"
#include "scaling.hpp"
