// Umbrella header: everything the library offers.
#pragma once

#include "config.hpp"
#include "format.hpp"
#include "rounding.hpp"
#include "value.hpp"
#include "convert.hpp"
#include "formats.hpp"
