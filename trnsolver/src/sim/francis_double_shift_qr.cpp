#include "sim/francis_double_shift_qr.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace trnsolver::detail {

namespace {

float sign_of(float magnitude, float s) { return std::copysign(magnitude, s); }

// Givens-style rotation of the pair (x, y): x' = c·x + s·y, y' = c·y − s·x (LAPACK's rot).
void rotate(float& x, float& y, float c, float s) {
  const float nx = c * x + s * y, ny = c * y - s * x;
  x = nx;
  y = ny;
}

}  // namespace

Standard2x2 standardize_2x2(float a, float b, float c, float d) {
  const float eps = std::numeric_limits<float>::epsilon();
  float cs = 1.0f, sn = 0.0f;
  if (c == 0.0f) {
    // already upper triangular
  } else if (b == 0.0f) {  // swap the rows and columns
    cs = 0.0f;
    sn = 1.0f;
    std::swap(a, d);
    b = -c;
    c = 0.0f;
  } else if (a - d == 0.0f && (b < 0.0f) != (c < 0.0f)) {
    // already standard: equal diagonal, off-diagonals of opposite sign
  } else {
    const float temp = a - d;
    float p = 0.5f * temp;
    const float bcmax = std::max(std::abs(b), std::abs(c));
    const float bcmis = std::min(std::abs(b), std::abs(c)) * sign_of(1.0f, b) * sign_of(1.0f, c);
    const float scale = std::max(std::abs(p), bcmax);
    float zz = (p / scale) * p + (bcmax / scale) * bcmis;
    if (zz >= 4.0f * eps) {  // real eigenvalues: make the block upper triangular
      zz = p + sign_of(std::sqrt(scale) * std::sqrt(zz), p);
      a = d + zz;
      d = d - (bcmax / zz) * bcmis;
      const float tau = std::hypot(c, zz);
      cs = zz / tau;
      sn = c / tau;
      b = b - c;
      c = 0.0f;
    } else {  // complex or nearly equal real eigenvalues: equalize the diagonal
      const float sigma = b + c;
      const float tau = std::hypot(sigma, temp);
      cs = std::sqrt(0.5f * (1.0f + std::abs(sigma) / tau));
      sn = -(p / (tau * cs)) * sign_of(1.0f, sigma);
      // [a b; c d] ← [cs sn; −sn cs]·([a b; c d]·[cs −sn; sn cs])
      const float aa = a * cs + b * sn, bb = -a * sn + b * cs, cc = c * cs + d * sn, dd = -c * sn + d * cs;
      a = aa * cs + cc * sn;
      b = bb * cs + dd * sn;
      c = -aa * sn + cc * cs;
      d = -bb * sn + dd * cs;
      const float mid = 0.5f * (a + d);
      a = mid;
      d = mid;
      if (c != 0.0f) {
        if (b != 0.0f) {
          if ((b < 0.0f) == (c < 0.0f)) {  // real after all: split into a triangular block
            const float sab = std::sqrt(std::abs(b)), sac = std::sqrt(std::abs(c));
            p = sign_of(sab * sac, c);
            const float t = 1.0f / std::sqrt(std::abs(b + c));
            a = mid + p;
            d = mid - p;
            b = b - c;
            c = 0.0f;
            const float cs1 = sab * t, sn1 = sac * t;
            const float ncs = cs * cs1 - sn * sn1;
            sn = cs * sn1 + sn * cs1;
            cs = ncs;
          }
        } else {
          b = -c;
          c = 0.0f;
          const float old = cs;
          cs = -sn;
          sn = old;
        }
      }
    }
  }
  Standard2x2 r{a, b, c, d, cs, sn, a, 0.0f, d, 0.0f};
  if (c != 0.0f) {
    r.rt1i = std::sqrt(std::abs(b)) * std::sqrt(std::abs(c));
    r.rt2i = -r.rt1i;
  }
  return r;
}

std::int64_t francis_schur(std::int64_t n, float* h, std::int64_t ldh, float* z, std::int64_t ldz, float* wr,
                           float* wi) {
  const auto H = [&](std::int64_t i, std::int64_t j) -> float& { return h[i + j * ldh]; };
  const float ulp = std::numeric_limits<float>::epsilon(), smallest = std::numeric_limits<float>::min();
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = j + 2; i < n; ++i) H(i, j) = 0.0f;
  const std::int64_t max_iterations = 30 * std::max<std::int64_t>(10, n);
  // P = I − τ·v·vᵀ (v = (1, v1, v2), nr = 2 or 3) on rows q…q+nr−1 from the left and columns q…q+nr−1 from the right.
  const auto reflect = [&](std::int64_t q, std::int64_t nr, float tau, float v1, float v2, std::int64_t col0,
                           std::int64_t row1) {
    for (std::int64_t j = col0; j < n; ++j) {
      float s = H(q, j) + v1 * H(q + 1, j);
      if (nr == 3) s += v2 * H(q + 2, j);
      s *= tau;
      H(q, j) -= s;
      H(q + 1, j) -= s * v1;
      if (nr == 3) H(q + 2, j) -= s * v2;
    }
    const auto right = [&](float* m, std::int64_t ld, std::int64_t rows) {
      for (std::int64_t i = 0; i < rows; ++i) {
        float s = m[i + q * ld] + v1 * m[i + (q + 1) * ld];
        if (nr == 3) s += v2 * m[i + (q + 2) * ld];
        s *= tau;
        m[i + q * ld] -= s;
        m[i + (q + 1) * ld] -= s * v1;
        if (nr == 3) m[i + (q + 2) * ld] -= s * v2;
      }
    };
    right(h, ldh, row1);
    if (z != nullptr) right(z, ldz, n);
  };
  std::int64_t i = n - 1;
  while (i >= 0) {
    std::int64_t l = 0;
    bool converged = false;
    for (std::int64_t its = 0; its <= max_iterations; ++its) {
      // The active block l…i: the lowest negligible subdiagonal entry at or above row i.
      for (l = i; l > 0; --l) {
        float tst = std::abs(H(l - 1, l - 1)) + std::abs(H(l, l));
        if (tst == 0.0f) {  // both diagonal entries zero: compare with the neighbouring subdiagonals
          if (l - 2 >= 0) tst += std::abs(H(l - 1, l - 2));
          if (l + 1 <= i) tst += std::abs(H(l + 1, l));
        }
        if (std::abs(H(l, l - 1)) <= std::max(ulp * tst, smallest)) {
          H(l, l - 1) = 0.0f;
          break;
        }
      }
      if (l >= i - 1) {
        converged = true;
        break;
      }
      if (its == max_iterations) break;
      // The shifts: the eigenvalues of the trailing 2×2 (as trace s and determinant t), or exceptional ones.
      float h11, h12, h21, h22;
      if (its == 10) {
        const float w = std::abs(H(l + 1, l)) + std::abs(H(l + 2, l + 1));
        h11 = 0.75f * w + H(l, l);
        h12 = -0.4375f * w;
        h21 = w;
        h22 = h11;
      } else if (its == 20) {
        const float w = std::abs(H(i, i - 1)) + std::abs(H(i - 1, i - 2));
        h11 = 0.75f * w + H(i, i);
        h12 = -0.4375f * w;
        h21 = w;
        h22 = h11;
      } else {
        h11 = H(i - 1, i - 1);
        h12 = H(i - 1, i);
        h21 = H(i, i - 1);
        h22 = H(i, i);
      }
      // Scaled by the block's magnitude so that the quadratic terms neither overflow nor underflow.
      const float scale = std::abs(h11) + std::abs(h12) + std::abs(h21) + std::abs(h22);
      float s = 0.0f, t = 0.0f;
      if (scale != 0.0f) {
        const float a11 = h11 / scale, a12 = h12 / scale, a21 = h21 / scale, a22 = h22 / scale;
        s = a11 + a22;
        t = a11 * a22 - a12 * a21;
      }
      // First column of (H − σ₁)(H − σ₂) restricted to rows l…l+2, in units of scale² (only its direction matters).
      const float hl = H(l, l) / (scale == 0.0f ? 1.0f : scale), hl1 = H(l + 1, l) / (scale == 0.0f ? 1.0f : scale);
      const float hll1 = H(l, l + 1) / (scale == 0.0f ? 1.0f : scale),
                  hl1l1 = H(l + 1, l + 1) / (scale == 0.0f ? 1.0f : scale);
      const float hl2l1 = H(l + 2, l + 1) / (scale == 0.0f ? 1.0f : scale);
      float x = hl * hl + hll1 * hl1 - s * hl + t;
      float y = hl1 * (hl + hl1l1 - s);
      float zz = hl1 * hl2l1;
      // Chase the bulge from row l down to row i.
      for (std::int64_t q = l; q <= i - 1; ++q) {
        const std::int64_t nr = std::min<std::int64_t>(3, i - q + 1);
        if (q > l) {
          x = H(q, q - 1);
          y = H(q + 1, q - 1);
          zz = nr == 3 ? H(q + 2, q - 1) : 0.0f;
        }
        const float xnorm = nr == 3 ? std::hypot(y, zz) : std::abs(y);
        if (xnorm == 0.0f) continue;  // P = I
        const float norm = std::hypot(x, xnorm);
        const float beta = x >= 0.0f ? -norm : norm;
        const float tau = (beta - x) / beta;
        const float inv = 1.0f / (x - beta);
        const float v1 = y * inv, v2 = nr == 3 ? zz * inv : 0.0f;
        // From the left on rows q…q+nr−1 (columns from q−1: the bulge's column; from l on the first step),
        // from the right on columns q…q+nr−1 (rows up to min(q+3, i), and Z).
        reflect(q, nr, tau, v1, v2, q > l ? q - 1 : l, std::min(q + 3, i) + 1);
        if (q > l) {
          H(q, q - 1) = beta;
          H(q + 1, q - 1) = 0.0f;
          if (nr == 3) H(q + 2, q - 1) = 0.0f;
        }
      }
    }
    if (!converged) return i + 1;
    if (l == i) {  // a 1×1 block
      wr[i] = H(i, i);
      wi[i] = 0.0f;
      i -= 1;
      continue;
    }
    // A 2×2 block at rows i−1, i: standardize and apply the rotation to the rest of T and to Z.
    const Standard2x2 r = standardize_2x2(H(i - 1, i - 1), H(i - 1, i), H(i, i - 1), H(i, i));
    H(i - 1, i - 1) = r.a;
    H(i - 1, i) = r.b;
    H(i, i - 1) = r.c;
    H(i, i) = r.d;
    for (std::int64_t j = i + 1; j < n; ++j) rotate(H(i - 1, j), H(i, j), r.cs, r.sn);
    for (std::int64_t row = 0; row < i - 1; ++row) rotate(H(row, i - 1), H(row, i), r.cs, r.sn);
    if (z != nullptr)
      for (std::int64_t row = 0; row < n; ++row) rotate(z[row + (i - 1) * ldz], z[row + i * ldz], r.cs, r.sn);
    wr[i - 1] = r.rt1r;
    wi[i - 1] = r.rt1i;
    wr[i] = r.rt2r;
    wi[i] = r.rt2i;
    i -= 2;
  }
  return 0;
}

}  // namespace trnsolver::detail
