#pragma once
// ‖x‖₂ scaled by the largest magnitude so that no square overflows or underflows — shared by the solvers'
// own loops (GMRES-IR's Arnoldi, the sim QR's reflectors, the one-sided Jacobi SVD's column norms).

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace trnsolver::detail {

/// ‖x‖₂ of len values; 0 for a zero vector, and the largest magnitude itself (inf or NaN) when it is not
/// finite. Summed in ascending order in T, each operation rounded as the caller's translation unit compiles it.
template <class T>
T scaled_norm2(const T* x, std::int64_t len) {
  T top = 0;
  for (std::int64_t i = 0; i < len; ++i) top = std::max(top, std::abs(x[i]));
  if (top == T(0) || !std::isfinite(top)) return top;
  T s = 0;
  for (std::int64_t i = 0; i < len; ++i) {
    const T y = x[i] / top;
    s += y * y;
  }
  return top * std::sqrt(s);
}

}  // namespace trnsolver::detail
