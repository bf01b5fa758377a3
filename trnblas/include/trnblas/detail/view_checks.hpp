#pragma once
// Shape checks of the inline view forms (level1.hpp, level2.hpp), compiled into the library so their
// messages live with the other checks (src/checks.cpp). Not part of the API users program against.
#include <trnblas/types.hpp>

#include <cstdint>

namespace trnblas::detail {

/// @throws trncore::InvalidArgument naming `function` and `name` when op is not one of Op's enumerators.
void check_op(const char* function, const char* name, Op op);

/// @throws trncore::DimensionMismatch naming `function` and both sizes when nx ≠ ny.
void check_same_size(const char* function, const char* x, std::int64_t nx, const char* y, std::int64_t ny);

}  // namespace trnblas::detail
