#pragma once
/// @file
/// The suite's adversarial test layer (issue: "every certificate holds"): generators of hard inputs and
/// binary128 reference answers that share no code with the libraries under test, and a tally that fails a
/// test whenever a certified bound is smaller than the true error. Test support only: never installed with
/// a library.
///
/// Matrices are column-major with leading dimension = rows. Randomness is splitmix64 (Vigna) with
/// Box–Muller, deliberately not trnrand, so the generators cannot share a bug with the code under test.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace trnsci_testing {

/// IEEE binary128 (GCC and Clang on x86-64): 113-bit significand, the oracle precision of this layer.
using quad = __float128;

/// True when TRNSCI_ADVERSARIAL=full: the ctest label `adversarial` runs the full case count.
inline bool adversarial_full() {
  const char* v = std::getenv("TRNSCI_ADVERSARIAL");
  return v != nullptr && std::string_view(v) == "full";
}

/// `full` cases under TRNSCI_ADVERSARIAL=full, `reduced` otherwise (the ci/test run).
inline int adversarial_count(int reduced, int full) { return adversarial_full() ? full : reduced; }

/// splitmix64 stream with uniform and Box–Muller normal variates.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in (0, 1): 53 random bits, never 0.
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1p-53; }
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double r = std::sqrt(-2.0 * std::log(uniform()));
    const double t = 6.283185307179586476925 * uniform();
    spare_ = r * std::sin(t);
    has_spare_ = true;
    return r * std::cos(t);
  }
  /// Uniform integer in [lo, hi].
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

/// m×n with independent N(0, 1) entries.
inline std::vector<double> random_matrix(std::int64_t m, std::int64_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> a(static_cast<std::size_t>(m * n));
  for (double& x : a) x = rng.normal();
  return a;
}

/// Wilkinson's growth matrix: 1 on the diagonal, −1 strictly below, 1 in the last column. Partial pivoting
/// does not pivot and U's last column grows to 2^(n−1) (Higham, "Accuracy and Stability", §9.4).
inline std::vector<double> wilkinson_growth(std::int64_t n) {
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double v = 0.0;
      if (i == j || j == n - 1)
        v = 1.0;
      else if (i > j)
        v = -1.0;
      a[static_cast<std::size_t>(i + j * n)] = v;
    }
  return a;
}

/// A gfpp-style growth matrix (after N. J. Higham and D. J. Higham, "Large growth factors in Gaussian
/// elimination with pivoting", SIMAX 10 (1989); MATLAB's gallery('gfpp')): 1 on the diagonal and in the last
/// column, −c_ij strictly below the diagonal with c_ij = c·(1 ± 10%, seeded) and 0 < c ≤ 0.9, so partial
/// pivoting keeps the diagonal pivots and U's last column grows like Π(1 + c_ij) ≈ (1 + c)^(n−1).
inline std::vector<double> gfpp(std::int64_t n, double c, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double v = 0.0;
      if (i == j || j == n - 1)
        v = 1.0;
      else if (i > j)
        v = -c * (1.0 + 0.1 * (2.0 * rng.uniform() - 1.0));
      a[static_cast<std::size_t>(i + j * n)] = v;
    }
  return a;
}

/// Kahan's matrix: upper triangular diag(1, s, …, s^(n−1)) · (I − c·strict upper ones), s = sin θ,
/// c = cos θ; the diagonal is perturbed by pert·eps·(n−i) so QR with column pivoting keeps the order. Very
/// ill conditioned (κ grows like (1+c)^(n−1)/s^(n−1)) although no diagonal entry is small for modest n.
inline std::vector<double> kahan(std::int64_t n, double theta, double pert) {
  const double s = std::sin(theta), c = std::cos(theta);
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  double si = 1.0;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = i; j < n; ++j) {
      double v = j == i ? 1.0 + pert * 0x1p-52 * static_cast<double>(n - i) : -c;
      a[static_cast<std::size_t>(i + j * n)] = si * v;
    }
    si *= s;
  }
  return a;
}

/// A Haar-distributed n×n orthogonal matrix: Householder QR of a Gaussian matrix with R's diagonal signs
/// folded in (Stewart 1980; Mezzadri 2007).
inline std::vector<double> random_orthogonal(std::int64_t n, Rng& rng) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> a(un * un);
  for (double& x : a) x = rng.normal();
  std::vector<double> q(un * un, 0.0);
  for (std::size_t i = 0; i < un; ++i) q[i + i * un] = 1.0;
  std::vector<std::vector<double>> vs;
  std::vector<double> signs(un, 1.0);
  for (std::size_t k = 0; k < un; ++k) {
    double norm = 0.0;
    for (std::size_t i = k; i < un; ++i) norm += a[i + k * un] * a[i + k * un];
    norm = std::sqrt(norm);
    std::vector<double> v(un, 0.0);
    const double alpha = a[k + k * un] >= 0 ? -norm : norm;
    signs[k] = alpha < 0 ? -1.0 : 1.0;
    for (std::size_t i = k; i < un; ++i) v[i] = a[i + k * un];
    v[k] -= alpha;
    double vv = 0.0;
    for (std::size_t i = k; i < un; ++i) vv += v[i] * v[i];
    if (vv > 0.0)
      for (std::size_t j = k; j < un; ++j) {
        double d = 0.0;
        for (std::size_t i = k; i < un; ++i) d += v[i] * a[i + j * un];
        d = 2.0 * d / vv;
        for (std::size_t i = k; i < un; ++i) a[i + j * un] -= d * v[i];
      }
    vs.push_back(std::move(v));
  }
  // Q = H_0 H_1 … H_{n−1}, applied to I from the right end; then the sign of R's diagonal.
  for (std::size_t kk = un; kk-- > 0;) {
    const std::vector<double>& v = vs[kk];
    double vv = 0.0;
    for (std::size_t i = kk; i < un; ++i) vv += v[i] * v[i];
    if (vv == 0.0) continue;
    for (std::size_t j = 0; j < un; ++j) {
      double d = 0.0;
      for (std::size_t i = kk; i < un; ++i) d += v[i] * q[i + j * un];
      d = 2.0 * d / vv;
      for (std::size_t i = kk; i < un; ++i) q[i + j * un] -= d * v[i];
    }
  }
  for (std::size_t j = 0; j < un; ++j)
    for (std::size_t i = 0; i < un; ++i) q[i + j * un] *= signs[j];
  return q;
}

/// m×n matrix U Σ Vᵀ with random orthogonal U, V and singular values geometric from 1 to 1/kappa (the
/// 2-norm condition number is kappa up to the rounding of the product, which the binary128 oracle sees
/// as given: it solves the system actually stored).
inline std::vector<double> with_condition(std::int64_t m, std::int64_t n, double kappa, std::uint64_t seed) {
  Rng rng(seed);
  const std::vector<double> u = random_orthogonal(m, rng), v = random_orthogonal(n, rng);
  const std::int64_t r = m < n ? m : n;
  std::vector<double> sigma(static_cast<std::size_t>(r));
  for (std::int64_t i = 0; i < r; ++i)
    sigma[static_cast<std::size_t>(i)] =
        r == 1 ? 1.0 : std::pow(kappa, -static_cast<double>(i) / static_cast<double>(r - 1));
  std::vector<double> a(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) {
      long double s = 0.0L;
      for (std::int64_t k = 0; k < r; ++k)
        s += static_cast<long double>(u[static_cast<std::size_t>(i + k * m)]) * sigma[static_cast<std::size_t>(k)] *
             v[static_cast<std::size_t>(j + k * n)];
      a[static_cast<std::size_t>(i + j * m)] = static_cast<double>(s);
    }
  return a;
}

/// Multiplies row i of the column-major m×n `a` by 2^k_i, k_i uniform in [−emax, emax] (exact).
inline void scale_rows(std::vector<double>& a, std::int64_t m, std::int64_t n, int emax, std::uint64_t seed) {
  Rng rng(seed);
  for (std::int64_t i = 0; i < m; ++i) {
    const int k = static_cast<int>(rng.integer(-emax, emax));
    for (std::int64_t j = 0; j < n; ++j)
      a[static_cast<std::size_t>(i + j * m)] = std::ldexp(a[static_cast<std::size_t>(i + j * m)], k);
  }
}

/// Multiplies column j of the column-major m×n `a` by 2^k_j, k_j uniform in [−emax, emax] (exact).
inline void scale_cols(std::vector<double>& a, std::int64_t m, std::int64_t n, int emax, std::uint64_t seed) {
  Rng rng(seed);
  for (std::int64_t j = 0; j < n; ++j) {
    const int k = static_cast<int>(rng.integer(-emax, emax));
    for (std::int64_t i = 0; i < m; ++i)
      a[static_cast<std::size_t>(i + j * m)] = std::ldexp(a[static_cast<std::size_t>(i + j * m)], k);
  }
}

inline quad quad_abs(quad x) { return x < 0 ? -x : x; }

/// x = A⁻¹ b in binary128 for the stored (double) A and b: Gaussian elimination with partial pivoting in
/// binary128, then `refinements` steps whose residuals are computed in binary128 and whose corrections reuse
/// the binary128 LU. GEPP alone has error ≈ growth·n·2^-113·κ, which for Wilkinson's matrix at n = 60
/// (growth 2^59) is ≈ 1e-16 relative — as large as the fp64 errors being checked; each refinement step
/// multiplies the error by about that factor (≪ 1), so two steps leave ≈ growth²·2^-226 + n·κ·2^-113, far
/// below any fp64 result's error for κ ≤ 1e16. Returns an empty vector when A is exactly singular in
/// binary128.
inline std::vector<quad> solve_quad(std::int64_t n, const double* a_colmajor, const double* b, int refinements = 2) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<quad> lu(un * un);
  for (std::size_t i = 0; i < un * un; ++i) lu[i] = a_colmajor[i];
  std::vector<std::size_t> piv(un);
  for (std::size_t k = 0; k < un; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < un; ++i)
      if (quad_abs(lu[i + k * un]) > quad_abs(lu[p + k * un])) p = i;
    if (lu[p + k * un] == 0) return {};
    piv[k] = p;
    if (p != k)
      for (std::size_t j = 0; j < un; ++j) std::swap(lu[k + j * un], lu[p + j * un]);
    for (std::size_t i = k + 1; i < un; ++i) lu[i + k * un] /= lu[k + k * un];
    for (std::size_t j = k + 1; j < un; ++j) {
      const quad u = lu[k + j * un];
      if (u == 0) continue;
      for (std::size_t i = k + 1; i < un; ++i) lu[i + j * un] -= lu[i + k * un] * u;
    }
  }
  const auto lu_solve = [&](std::vector<quad>& v) {
    for (std::size_t k = 0; k < un; ++k) std::swap(v[k], v[piv[k]]);
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = j + 1; i < un; ++i) v[i] -= lu[i + j * un] * v[j];
    for (std::size_t j = un; j-- > 0;) {
      v[j] /= lu[j + j * un];
      for (std::size_t i = 0; i < j; ++i) v[i] -= lu[i + j * un] * v[j];
    }
  };
  std::vector<quad> x(b, b + n);
  lu_solve(x);
  for (int step = 0; step < refinements; ++step) {
    std::vector<quad> r(b, b + n);
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = 0; i < un; ++i) r[i] -= static_cast<quad>(a_colmajor[i + j * un]) * x[j];
    lu_solve(r);
    for (std::size_t i = 0; i < un; ++i) x[i] += r[i];
  }
  return x;
}

/// C = A·B in binary128 from column-major A (m×k) and B (k×n); C column-major m×n. Products of doubles are
/// exact in binary128 (106 ≤ 113 bits), so only the k-term sum rounds: relative error ≤ k·2^-113 of |A||B|.
inline std::vector<quad> gemm_quad(std::int64_t m, std::int64_t n, std::int64_t k, const double* a, const double* b) {
  std::vector<quad> c(static_cast<std::size_t>(m * n), 0);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t p = 0; p < k; ++p) {
      const quad bpj = b[p + j * k];
      if (bpj == 0) continue;
      for (std::int64_t i = 0; i < m; ++i)
        c[static_cast<std::size_t>(i + j * m)] += static_cast<quad>(a[i + p * m]) * bpj;
    }
  return c;
}

/// max |v_i| of a binary128 vector.
inline double max_abs(const std::vector<quad>& v) {
  quad m = 0;
  for (const quad& x : v) m = quad_abs(x) > m ? quad_abs(x) : m;
  return static_cast<double>(m);
}

/// Normwise relative error ‖x − ref‖∞ / ‖ref‖∞ of a double result against a binary128 reference, computed
/// in binary128 (0 when both are zero; +inf when ref is zero and x is not; NaN in x gives NaN).
inline double normwise_error(const double* x, const std::vector<quad>& ref) {
  quad num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (std::isnan(x[i])) return std::numeric_limits<double>::quiet_NaN();
    const quad d = quad_abs(static_cast<quad>(x[i]) - ref[i]);
    num = d > num ? d : num;
    den = quad_abs(ref[i]) > den ? quad_abs(ref[i]) : den;
  }
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return static_cast<double>(num / den);
}

/// Counts the adversarial cases of one test and fails it on every violation: a certified bound below the
/// true error. A NaN error on a certified result is a violation too (the bound promised a number).
class Tally {
 public:
  explicit Tally(std::string name) : name_(std::move(name)) {}
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
  ~Tally() { print(); }

  /// One case: `certified` and `bound` as the call reported them, `true_error` against the oracle.
  void record(bool certified, double bound, double true_error, const std::string& what) {
    ++cases_;
    if (!certified) {
      ++uncertified_;
      return;
    }
    ++certified_;
    if (!(true_error <= bound)) {
      ++violations_;
      ADD_FAILURE() << "adversarial " << name_ << ": certified bound " << bound << " < true error " << true_error
                    << " for " << what;
    }
  }

  /// One case where the call's `met` is checked against a target: met with an error above the target is a
  /// violation whatever the bound says.
  void record_met(bool certified, bool met, double bound, double target, double true_error, const std::string& what) {
    record(certified, bound, true_error, what);
    if (met && !(true_error <= target)) {
      ++violations_;
      ADD_FAILURE() << "adversarial " << name_ << ": met = true with target " << target << " but true error "
                    << true_error << " for " << what;
    }
  }

  std::int64_t cases() const { return cases_; }
  std::int64_t violations() const { return violations_; }

  void print() {
    if (printed_) return;
    printed_ = true;
    std::printf("adversarial %s: %lld cases (%lld certified, %lld uncertified), %lld violations\n", name_.c_str(),
                static_cast<long long>(cases_), static_cast<long long>(certified_),
                static_cast<long long>(uncertified_), static_cast<long long>(violations_));
  }

 private:
  std::string name_;
  std::int64_t cases_ = 0, certified_ = 0, uncertified_ = 0, violations_ = 0;
  bool printed_ = false;
};

}  // namespace trnsci_testing
