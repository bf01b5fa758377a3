#pragma once
/// @file
/// The whole public API of trncore.

#include <trncore/accuracy_report.hpp>
#include <trncore/backend.hpp>
#include <trncore/build_info.hpp>
#include <trncore/convert.hpp>
#include <trncore/correctly_rounded.hpp>
#include <trncore/dd.hpp>
#include <trncore/eft.hpp>
#include <trncore/error.hpp>
#include <trncore/format.hpp>
#include <trncore/io/npy.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/mx.hpp>
#include <trncore/options.hpp>
#include <trncore/philox.hpp>
#include <trncore/random_words.hpp>
#include <trncore/rounding.hpp>
#include <trncore/sim.hpp>
#include <trncore/small_float.hpp>
#include <trncore/tensor.hpp>
#include <trncore/version.hpp>
#include <trncore/view.hpp>
