#pragma once
// The few dense vector kernels the iterative solvers need, each summed in index order so a result never
// depends on the thread count.

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace trnsparse::detail {

template <class T>
T dot(std::span<const T> x, std::span<const T> y) {
  T s = T(0);
  for (std::size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
  return s;
}

template <class T>
double norm2(std::span<const T> x) {
  // Scaled sum of squares in double: no overflow for |x_i| near T's max, exact enough for stopping tests.
  double scale = 0, ssq = 1;
  for (T e : x) {
    const double a = std::fabs(static_cast<double>(e));
    if (a == 0) continue;
    if (!std::isfinite(a)) return a;
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  return scale * std::sqrt(ssq);
}

/// y ← y + alpha·x
template <class T>
void axpy(T alpha, std::span<const T> x, std::span<T> y) {
  for (std::size_t i = 0; i < x.size(); ++i) y[i] += alpha * x[i];
}

}  // namespace trnsparse::detail
