#pragma once
// r = b − A x for the refinement and the error bounds, in fp64 or double-double, with what the bounds
// need: the magnitudes |A||x| + |b| and a bound on the residual's own rounding error.

#include <trnsolver/solve.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

struct Residual {
  std::vector<double> r;      ///< the residual rounded to double
  std::vector<double> scale;  ///< (|A||x| + |b|)_i, computed in fp64 and rounded upward in effect
  /// |r_i − (b − A x)_i| ≤ |r_i|·2u + error_factor·scale_i (the residual's rounding to double, and its
  /// computation: γ_{n+1} in fp64, 4(n+2)u² in double-double).
  double error_factor = 0.0;
};

/// A is n×n column-major with leading dimension lda; x and b have n entries. Without `with_scale` (the
/// refinement's intermediate residuals) an fp64 residual is one GEMV and `scale` stays empty.
Residual residual(std::int64_t n, const double* a, std::int64_t lda, const double* x, const double* b,
                  ResidualPrecision precision, int threads, bool with_scale = true);

}  // namespace trnsolver::detail
