// Umbrella header: everything the library offers.
#pragma once

#include "config.hpp"
#include "format.hpp"
#include "rounding.hpp"
#include "value.hpp"
#include "convert.hpp"
#include "formats.hpp"
#include "promotion.hpp"
#include "arithmetic.hpp"
#include "limits.hpp"
#include "cmath.hpp"
#include "hash.hpp"
#include "io.hpp"
#include "random.hpp"
#include "conversion.hpp"
