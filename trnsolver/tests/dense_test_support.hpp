#pragma once
// Shared pieces of the dense-layer tests: padded matrices in either layout, a long-double matrix type for
// the oracle (reconstructions, residuals, inverses computed by plain loops, never by the code under
// test), and the test ratios.
//
// Tolerances. Every accuracy test computes one of LAPACK's own test ratios (LAPACK TESTING/LIN and EIG:
// dget01, dget02, dpot01, dqrt01, dbdt01, dort01, dsyt21, dhst01, ...), e.g.
//     ‖A − P·L·U‖₁ / (n·‖A‖₁·u)      ‖I − QᵀQ‖₁ / (m·u)
// and requires it to be below 30, the threshold LAPACK's test programs accept (TESTING/dtest.in,
// stest.in, ded.in: "Threshold value of test ratio" 30.0). The ratios are normalised by n·u because the
// backward-error bounds of these algorithms are of the form p(n)·u·‖A‖ with p a low-degree polynomial
// whose measured size is O(n) or smaller (Higham, ASNA 2nd ed., Thm 9.3, 10.3, 19.4; LAPACK Users' Guide
// §4); c = 30 is the margin LAPACK itself uses for the same quantities. u is the unit roundoff of the
// data's type (2⁻²⁴, 2⁻⁵³), as LAPACK's ?lamch('E'). The ratios are computed in long double from the
// factors as returned (float factors widened exactly), so the oracle's own error (≈ n·2⁻⁶⁴) is 2⁻¹¹ of
// the smallest double bound and cannot make a test pass or fail.
#include <trnsolver/dense.hpp>

#include <trncore/error.hpp>
#include <trnsci_testing/errors.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace dense_test {

using trncore::Layout;
using trnsolver::Op;
using trnsolver::Uplo;
using LD = long double;

using Types = ::testing::Types<float, double>;

/// The threshold of LAPACK's test programs for its normalised ratios.
inline constexpr LD kThreshold = 30;

/// Sim backend options for the dense sim tests: `threads`, GEMMs in `mode`; MathMode::fp32 runs under
/// ProductModel::exact, so every TensorEngine product is an fp32 product accumulated in fp32 and the sim
/// algorithms are LAPACK's in fp32, held to LAPACK's ratios with u = 2⁻²⁴.
inline trncore::Options sim_options(int threads, trncore::MathMode mode = trncore::MathMode::fp32) {
  trncore::Options o;
  o.backend = trncore::Backend::sim;
  o.math_mode = mode;
  o.threads = threads;
  if (mode == trncore::MathMode::fp32) o.product = trncore::sim::ProductModel::exact;
  return o;
}

/// The single-pass bound of a bf16 sim GEMM under trn2's default bf16 product model (docs/trnblas-sim.md):
/// (1+u_in)²(1+u_p)(1+γ₁₂₈(u₃₂)) − 1 with u_in = u_p = 2⁻⁸; it takes u's place wherever a GEMM's rounding enters.
inline const double kBf16GemmBound = (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 0x1p-8) * (1 + 128 * 0x1p-24) - 1;

template <class T>
LD unit() {
  return static_cast<LD>(std::numeric_limits<T>::epsilon()) / 2;
}

inline const char* name(Layout l) { return l == Layout::row_major ? "row-major" : "column-major"; }

/// A rows×cols matrix in `layout` with 3 elements of padding per line (ld = line + 3) filled with a
/// sentinel, so ld handling and writes outside the matrix are visible.
template <class T>
struct Mat {
  std::int64_t rows = 0, cols = 0, ld = 1;
  Layout layout = Layout::row_major;
  std::vector<T> buf;

  Mat() = default;
  Mat(std::int64_t r, std::int64_t c, Layout l) : rows(r), cols(c), layout(l) {
    const std::int64_t line = l == Layout::row_major ? c : r, lines = l == Layout::row_major ? r : c;
    ld = std::max<std::int64_t>(line, 1) + 3;
    buf.assign(static_cast<std::size_t>(std::max<std::int64_t>(lines, 1) * ld), sentinel());
    for (std::int64_t i = 0; i < r; ++i)
      for (std::int64_t j = 0; j < c; ++j) (*this)(i, j) = T(0);
  }
  static T sentinel() { return static_cast<T>(-7.25e3); }
  T& operator()(std::int64_t i, std::int64_t j) {
    return buf[static_cast<std::size_t>(layout == Layout::row_major ? i * ld + j : i + j * ld)];
  }
  T operator()(std::int64_t i, std::int64_t j) const {
    return buf[static_cast<std::size_t>(layout == Layout::row_major ? i * ld + j : i + j * ld)];
  }
  T* data() { return buf.data(); }
  const T* data() const { return buf.data(); }
  trncore::MatrixView<T> view() { return {buf.data(), rows, cols, ld, layout}; }
  trncore::MatrixView<const T> view() const { return {buf.data(), rows, cols, ld, layout}; }
  /// Every padding element still holds the sentinel.
  bool padding_intact() const {
    const std::int64_t line = layout == Layout::row_major ? cols : rows;
    for (std::size_t p = 0; p < buf.size(); ++p)
      if (static_cast<std::int64_t>(p % static_cast<std::size_t>(ld)) >= line && buf[p] != sentinel()) return false;
    return true;
  }
};

template <class T>
Mat<T> random_mat(std::int64_t r, std::int64_t c, Layout l, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat<T> m(r, c, l);
  for (std::int64_t j = 0; j < c; ++j)
    for (std::int64_t i = 0; i < r; ++i) m(i, j) = static_cast<T>(u(rng));
  return m;
}

/// Long-double matrix (row-major storage, no padding) for the oracle.
struct W {
  std::int64_t rows = 0, cols = 0;
  std::vector<LD> v;
  W() = default;
  W(std::int64_t r, std::int64_t c) : rows(r), cols(c), v(static_cast<std::size_t>(r * c), 0.0L) {}
  LD& operator()(std::int64_t i, std::int64_t j) { return v[static_cast<std::size_t>(i * cols + j)]; }
  LD operator()(std::int64_t i, std::int64_t j) const { return v[static_cast<std::size_t>(i * cols + j)]; }
};

template <class T>
W widen(const Mat<T>& m) {
  W w(m.rows, m.cols);
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (std::int64_t j = 0; j < m.cols; ++j) w(i, j) = m(i, j);
  return w;
}

template <class T>
W widen(const trnsolver::DenseMatrix<T>& m) {
  W w(m.rows, m.cols);
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (std::int64_t j = 0; j < m.cols; ++j) w(i, j) = m(i, j);
  return w;
}

inline W identity(std::int64_t n) {
  W w(n, n);
  for (std::int64_t i = 0; i < n; ++i) w(i, i) = 1;
  return w;
}

inline W mul(const W& a, const W& b) {
  W c(a.rows, b.cols);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t p = 0; p < a.cols; ++p) {
      const LD x = a(i, p);
      if (x == 0) continue;
      for (std::int64_t j = 0; j < b.cols; ++j) c(i, j) += x * b(p, j);
    }
  return c;
}

inline W transpose(const W& a) {
  W t(a.cols, a.rows);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j) t(j, i) = a(i, j);
  return t;
}

inline W sub(const W& a, const W& b) {
  W c(a.rows, a.cols);
  for (std::size_t p = 0; p < a.v.size(); ++p) c.v[p] = a.v[p] - b.v[p];
  return c;
}

/// Max column sum (0 for an empty matrix).
inline LD norm1(const W& a) {
  LD best = 0;
  for (std::int64_t j = 0; j < a.cols; ++j) {
    LD s = 0;
    for (std::int64_t i = 0; i < a.rows; ++i) s += std::fabs(a(i, j));
    best = std::max(best, s);
  }
  return best;
}

inline LD norm_inf(const W& a) { return norm1(transpose(a)); }

inline LD norm_fro(const W& a) {
  LD s = 0;
  for (LD x : a.v) s += x * x;
  return std::sqrt(s);
}

/// ‖A − B‖₁ / (scale·‖A‖₁·u), 0 when A = 0 and B = 0 (LAPACK's convention for empty problems).
template <class T>
LD ratio(const W& a, const W& b, std::int64_t scale) {
  const LD diff = norm1(sub(a, b));
  if (diff == 0) return 0;
  const LD na = norm1(a);
  return diff /
         (static_cast<LD>(std::max<std::int64_t>(scale, 1)) * std::max(na, std::numeric_limits<LD>::min()) * unit<T>());
}

/// ‖I − QᵀQ‖₁ / (scale·u) for Q with orthonormal columns (dort01).
template <class T>
LD orthogonality(const W& q, std::int64_t scale) {
  const W qtq = mul(transpose(q), q);
  return norm1(sub(identity(q.cols), qtq)) / (static_cast<LD>(std::max<std::int64_t>(scale, 1)) * unit<T>());
}

/// Random SPD matrix B·Bᵀ/n + I (well conditioned), exactly symmetric.
template <class T>
Mat<T> random_spd(std::int64_t n, Layout l, std::mt19937_64& rng) {
  const Mat<T> b = random_mat<T>(n, n, l, rng);
  Mat<T> a(n, n, l);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      LD s = 0;
      for (std::int64_t p = 0; p < n; ++p) s += static_cast<LD>(b(i, p)) * b(j, p);
      const T v = static_cast<T>(s / static_cast<LD>(n) + (i == j ? 1 : 0));
      a(i, j) = v;
      a(j, i) = v;
    }
  return a;
}

/// A random symmetric matrix (exactly symmetric).
template <class T>
Mat<T> random_sym(std::int64_t n, Layout l, std::mt19937_64& rng) {
  Mat<T> a = random_mat<T>(n, n, l, rng);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < i; ++j) a(j, i) = a(i, j);
  return a;
}

/// Sets the triangle opposite to `uplo` (strictly) to NaN: routines must not read it.
template <class T>
void poison_other(Mat<T>& a, Uplo uplo) {
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j)
      if (uplo == Uplo::lower ? j > i : j < i) a(i, j) = std::numeric_limits<T>::quiet_NaN();
}

/// The full symmetric matrix from the `uplo` triangle.
template <class T>
W sym_from(const Mat<T>& a, Uplo uplo) {
  W w(a.rows, a.cols);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t j = 0; j < a.cols; ++j) {
      const bool in = uplo == Uplo::lower ? j <= i : j >= i;
      w(i, j) = in ? a(i, j) : a(j, i);
    }
  return w;
}

/// A random orthogonal n×n matrix in long double: the product of `count` Householder reflectors with
/// random vectors (dense for count ≥ 2).
inline W random_orthogonal(std::int64_t n, std::mt19937_64& rng, int count = 3) {
  std::normal_distribution<double> g;
  W q = identity(n);
  for (int r = 0; r < count && n > 1; ++r) {
    std::vector<LD> v(static_cast<std::size_t>(n));
    LD vv = 0;
    for (auto& x : v) {
      x = g(rng);
      vv += x * x;
    }
    // q := q·(I − 2vvᵀ/vᵀv)
    for (std::int64_t i = 0; i < n; ++i) {
      LD d = 0;
      for (std::int64_t j = 0; j < n; ++j) d += q(i, j) * v[static_cast<std::size_t>(j)];
      for (std::int64_t j = 0; j < n; ++j) q(i, j) -= 2 * d * v[static_cast<std::size_t>(j)] / vv;
    }
  }
  return q;
}

/// Q·diag(lambda)·Qᵀ in long double.
inline W sym_with_spectrum(const W& q, const std::vector<LD>& lambda) {
  const std::int64_t n = q.rows;
  W a(n, n);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      LD s = 0;
      for (std::int64_t p = 0; p < n; ++p) s += q(i, p) * lambda[static_cast<std::size_t>(p)] * q(j, p);
      a(i, j) = a(j, i) = s;
    }
  return a;
}

/// The long-double matrix rounded to T in `layout` (padded).
template <class T>
Mat<T> narrow(const W& w, Layout l) {
  Mat<T> m(w.rows, w.cols, l);
  for (std::int64_t i = 0; i < w.rows; ++i)
    for (std::int64_t j = 0; j < w.cols; ++j) m(i, j) = static_cast<T>(w(i, j));
  return m;
}

/// The inverse by Gauss–Jordan elimination with partial pivoting in long double (the oracle's own
/// solver; n ≤ a few hundred).
inline W inverse(W a) {
  const std::int64_t n = a.rows;
  W inv = identity(n);
  for (std::int64_t k = 0; k < n; ++k) {
    std::int64_t p = k;
    for (std::int64_t i = k + 1; i < n; ++i)
      if (std::fabs(a(i, k)) > std::fabs(a(p, k))) p = i;
    for (std::int64_t j = 0; j < n; ++j) {
      std::swap(a(k, j), a(p, j));
      std::swap(inv(k, j), inv(p, j));
    }
    const LD d = a(k, k);
    for (std::int64_t j = 0; j < n; ++j) {
      a(k, j) /= d;
      inv(k, j) /= d;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      if (i == k || a(i, k) == 0) continue;
      const LD m = a(i, k);
      for (std::int64_t j = 0; j < n; ++j) {
        a(i, j) -= m * a(k, j);
        inv(i, j) -= m * inv(k, j);
      }
    }
  }
  return inv;
}

/// κ₁(A) = ‖A‖₁·‖A⁻¹‖₁ in long double.
inline LD cond1(const W& a) { return norm1(a) * norm1(inverse(a)); }

/// Eigenvalues of a symmetric matrix by cyclic Jacobi in long double (ascending): the oracle for graded
/// matrices, where Jacobi's relative accuracy (Demmel–Veselić 1992) makes it exact to ≈ κ(H)·2⁻⁶⁴.
inline std::vector<LD> jacobi_eigenvalues(W a) {
  const std::int64_t n = a.rows;
  for (int sweep = 0; sweep < 60; ++sweep) {
    LD off = 0;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = i + 1; j < n; ++j)
        off = std::max(off, std::fabs(a(i, j)) / std::sqrt(std::fabs(a(i, i) * a(j, j))));
    if (off < 1e-21L) break;
    for (std::int64_t p = 0; p < n; ++p)
      for (std::int64_t q = p + 1; q < n; ++q) {
        if (a(p, q) == 0) continue;
        const LD theta = (a(q, q) - a(p, p)) / (2 * a(p, q));
        const LD t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const LD c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::int64_t k = 0; k < n; ++k) {
          const LD akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
        }
        for (std::int64_t k = 0; k < n; ++k) {
          const LD apk = a(p, k), aqk = a(q, k);
          a(p, k) = c * apk - s * aqk;
          a(q, k) = s * apk + c * aqk;
        }
      }
  }
  std::vector<LD> w(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = a(i, i);
  std::sort(w.begin(), w.end());
  return w;
}

/// The least-squares oracle: x = (AᵀA)⁻¹Aᵀb (m ≥ n) or Aᵀ(AAᵀ)⁻¹b (m < n) in long double, and the
/// condition number of the Gram matrix (≈ κ₂(A)², the LS forward-error amplification).
struct LsOracle {
  W x;
  LD gram_cond;
};
inline LsOracle ls_oracle(const W& a, const W& b) {
  const bool tall = a.rows >= a.cols;
  const W at = transpose(a);
  const W gram = tall ? mul(at, a) : mul(a, at);
  const W gi = inverse(gram);
  return {tall ? mul(gi, mul(at, b)) : mul(at, mul(gi, b)), norm1(gram) * norm1(gi)};
}

/// dget02: ‖B − op(A)·X‖₁ / (n·‖A‖₁·‖X‖₁·u).
template <class T>
LD solve_ratio(const Mat<T>& a, Op trans, const Mat<T>& x, const Mat<T>& b) {
  W wa = widen(a);
  if (trans != Op::no_trans) wa = transpose(wa);
  const W wx = widen(x);
  const LD r = norm1(sub(widen(b), mul(wa, wx)));
  if (r == 0) return 0;
  return r / (static_cast<LD>(std::max<std::int64_t>(a.rows, 1)) * norm1(wa) * norm1(wx) * unit<T>());
}

/// L·D·Lᵀ (or U·D·Uᵀ) rebuilt from sytrf's packed form exactly as LAPACK documents it: L = P(1)·L(1)·…
/// (lower, k increasing) or U = P(n)·U(n)·… (upper, k decreasing), each P(k) an interchange and L(k) a unit
/// block column; dsyt01's ratio ‖A − L·D·Lᵀ‖₁/(n·‖A‖₁·u).
template <class T>
LD ldl_ratio(const W& a, const Mat<T>& f, Uplo uplo, const std::vector<std::int64_t>& ipiv) {
  const std::int64_t n = a.rows;
  W l = identity(n), d(n, n);
  const auto swap_cols = [&](std::int64_t c1, std::int64_t c2) {
    for (std::int64_t i = 0; i < n; ++i) std::swap(l(i, c1), l(i, c2));
  };
  // l := l·(I + V) with V holding the block's multipliers in `rows` × block columns.
  const auto apply = [&](std::int64_t c0, std::int64_t s, std::int64_t r0, std::int64_t r1) {
    for (std::int64_t c = c0; c < c0 + s; ++c)
      for (std::int64_t i = 0; i < n; ++i) {
        LD add = 0;
        for (std::int64_t r = r0; r < r1; ++r) add += l(i, r) * static_cast<LD>(f(r, c));
        l(i, c) += add;
      }
  };
  if (uplo == Uplo::lower) {
    for (std::int64_t k = 0; k < n;) {
      const std::int64_t s = ipiv[static_cast<std::size_t>(k)] > 0 ? 1 : 2;
      const std::int64_t p = std::llabs(ipiv[static_cast<std::size_t>(k)]) - 1;
      swap_cols(s == 1 ? k : k + 1, p);
      apply(k, s, k + s, n);
      for (std::int64_t i = k; i < k + s; ++i)
        for (std::int64_t j = k; j <= i; ++j) d(i, j) = d(j, i) = f(i, j);
      k += s;
    }
  } else {
    for (std::int64_t k = n - 1; k >= 0;) {
      const std::int64_t s = ipiv[static_cast<std::size_t>(k)] > 0 ? 1 : 2;
      const std::int64_t p = std::llabs(ipiv[static_cast<std::size_t>(k)]) - 1;
      const std::int64_t top = k - s + 1;
      swap_cols(s == 1 ? k : k - 1, p);
      apply(top, s, 0, top);
      for (std::int64_t i = top; i <= k; ++i)
        for (std::int64_t j = i; j <= k; ++j) d(i, j) = d(j, i) = f(i, j);
      k -= s;
    }
  }
  return ratio<T>(a, mul(mul(l, d), transpose(l)), n);
}

}  // namespace dense_test
