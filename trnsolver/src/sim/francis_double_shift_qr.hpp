#pragma once
// The Francis double-shift QR iteration on an upper Hessenberg matrix (Golub and Van Loan, Matrix
// Computations 4th ed., §7.5), in fp32 with every operation rounded on its own (the VectorEngine's
// arithmetic; compiled without FMA contraction): deflation when a subdiagonal entry falls below
// u·(|h_{i−1,i−1}| + |h_ii|), exceptional shifts after 10 and 20 iterations without deflation, and every
// converged 2×2 block brought to LAPACK's standard form (real eigenvalues split into a triangular block;
// complex pairs with equal diagonal entries and off-diagonal entries of opposite sign).

#include <cstdint>

namespace trnsolver::detail {

/// Reduces the column-major upper Hessenberg n×n `h` (ldh; entries below the subdiagonal are ignored and
/// zeroed) to real Schur form T = Zᵀ·H·Z in place, accumulating the rotations into the n×n `z` (ldz) when
/// it is not null (Z ← Z·Q). Eigenvalues wr[i] + i·wi[i] in T's diagonal order, complex pairs with wi > 0
/// first. Returns 0, or i > 0 when the iteration did not deflate within 30·max(10, n) steps on the active
/// block ending at row i − 1 (wr/wi i…n−1 hold the eigenvalues that converged, as LAPACK's hseqr).
std::int64_t francis_schur(std::int64_t n, float* h, std::int64_t ldh, float* z, std::int64_t ldz, float* wr,
                           float* wi);

/// The standardized Schur factorization of the real 2×2 matrix [a b; c d] (LAPACK's lanv2 contract):
/// returns it overwritten by [a' b'; c' d'] = [cs −sn; sn cs]ᵀ·[a b; c d]·[cs −sn; sn cs] with c' = 0 for
/// real eigenvalues, or a' = d' and b'·c' < 0 for a complex pair; rt1 = (a', ±√|b'c'|), rt2 its conjugate.
struct Standard2x2 {
  float a, b, c, d, cs, sn, rt1r, rt1i, rt2r, rt2i;
};
Standard2x2 standardize_2x2(float a, float b, float c, float d);

}  // namespace trnsolver::detail
