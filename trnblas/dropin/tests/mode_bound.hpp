#pragma once
// The componentwise bound a routed product must meet in each TRNBLAS_MODE, relative to |α||op(A)||op(B)| +
// |β||C| (docs/trnblas-sim.md), as the drop-in tests compute it — from the documented formulas, not from the
// library. K is the inner dimension of the GEMM the call runs as; u_t the unit roundoff of the data type.

#include <cmath>
#include <string>

namespace trnblas_dropin_test {

// γ_n(u) = n·u/(1 − n·u).
inline double gamma(double n, double u) { return n * u / (1 - n * u); }

inline double mode_bound(const std::string& mode, const std::string& product, long k, double u_t) {
  const bool bf16_products = product != "exact";
  const double kd = static_cast<double>(k);
  // The long-double oracle's own error, γ_{K+2}(2^-64) of the same magnitude (it sums in the same way).
  const double oracle = gamma(kd + 2, 0x1p-64);
  if (mode == "host") return gamma(kd + 2, u_t) + oracle;  // OpenBLAS: the standard GEMM bound (Higham §3.5)
  double eps;
  if (mode == "ozaki") {
    eps = 0x1p-52;  // the default Ozaki target: the slice count is chosen so the certified bound meets it
  } else if (mode == "compensated") {
    // 2T + T² + D ≤ 2^-20 (the slice count's rule), plus (γ_K + γ_P(1 + γ_K))·Σ_{s+t<S} c_s c_t with
    // Σ c_s c_t ≤ (Σ_s c_s)² ≤ ((1 + 2^-w)/(1 − 2^-w))²: w = 4 bits, S = 6, P = 21 passes under bf16
    // products; w = 8, S = 3, P = 6 under exact products.
    const double w = bf16_products ? 4 : 8, passes = bf16_products ? 21 : 6;
    const double c = (1 + std::exp2(-w)) / (1 - std::exp2(-w));
    const double gk = gamma(kd, 0x1p-24);
    eps = 0x1p-20 + (gk + gamma(passes, 0x1p-24) * (1 + gk)) * c * c;
  } else {
    // One pass: inputs rounded to the format (u_in; fp32 mode rounds only double inputs), the product
    // rounded unless two input significands fit the product format (8 bits under bf16 products, 24 under
    // exact), fp32 accumulation in PSUM.
    const double u_in = mode == "fp32"   ? (u_t < 0x1p-30 ? 0x1p-24 : 0.0)
                        : mode == "bf16" ? 0x1p-8
                        : mode == "fp16" ? 0x1p-11
                                         : 0x1p-4;  // fp8_e4m3
    const int bits = mode == "fp32" ? 24 : mode == "bf16" ? 8 : mode == "fp16" ? 11 : 4;
    const double u_p = 2 * bits <= (bf16_products ? 8 : 24) ? 0.0 : (bf16_products ? 0x1p-8 : 0x1p-24);
    eps = (1 + u_in) * (1 + u_in) * (1 + u_p) * (1 + gamma(kd, 0x1p-24)) - 1;
  }
  // The output stage α·P + β·C in the data type: at most three roundings, ε + (1 + ε)((1 + u)³ − 1).
  return eps + (1 + eps) * 3.01 * u_t + oracle;
}

}  // namespace trnblas_dropin_test
