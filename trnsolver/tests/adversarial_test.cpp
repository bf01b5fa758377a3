// The adversarial layer for trnsolver (issue #18, docs/trncore.md "Certificates"): solve() on host and sim,
// with and without targets, over inputs chosen to break certificates — Wilkinson's growth matrix, gfpp-style
// growth, Kahan's matrix, a κ sweep 10^1…10^16 with random orthogonal factors, rows and columns scaled by
// 2^±40, near-singular and singular matrices — against binary128 references (trnsci_testing::solve_quad,
// GEPP plus refinement in binary128; no trnsolver or LAPACK code). For every certified result the true
// error is at most the bound; every met result has an error within its target; a singular A is an info
// value with an uncertified report. The dense drivers gesv and posv are checked against the backward error
// bounds their headers state, and singular / indefinite inputs against their info. Reduced counts by default; TRNSCI_ADVERSARIAL=full runs the full ones.
#include <trnsolver/dense.hpp>
#include <trnsolver/solve.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>
#include <trnsci_testing/adversarial.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using trnsci_testing::quad;
using trnsolver::SolveOptions;
using trnsolver::SolveReport;

struct Case {
  std::string name;
  std::int64_t n;
  std::vector<double> a;  // column-major n×n
};

// The hard inputs, `full` selecting the full count.
std::vector<Case> cases(bool full) {
  using namespace trnsci_testing;
  std::vector<Case> out;
  const std::vector<std::int64_t> wilkinson_sizes =
      full ? std::vector<std::int64_t>{20, 31, 40, 50, 53, 60} : std::vector<std::int64_t>{20, 50, 60};
  for (std::int64_t n : wilkinson_sizes) out.push_back({"wilkinson n=" + std::to_string(n), n, wilkinson_growth(n)});
  for (std::int64_t n : full ? std::vector<std::int64_t>{30, 61} : std::vector<std::int64_t>{61})
    for (double c : full ? std::vector<double>{0.5, 0.9} : std::vector<double>{0.9})
      out.push_back({"gfpp n=" + std::to_string(n) + " c=" + trncore::detail::sci(c), n,
                     gfpp(n, c, 7 + static_cast<std::uint64_t>(n))});
  for (std::int64_t n : full ? std::vector<std::int64_t>{40, 64} : std::vector<std::int64_t>{40})
    out.push_back({"kahan n=" + std::to_string(n), n, kahan(n, 1.2, 25.0)});
  const int step = full ? 1 : 3;
  for (int e = 1; e <= 16; e += step) {
    const std::int64_t n = 48;
    out.push_back({"kappa=1e" + std::to_string(e), n,
                   with_condition(n, n, std::pow(10.0, e), 100 + static_cast<std::uint64_t>(e))});
  }
  for (int e : full ? std::vector<int>{2, 8, 12} : std::vector<int>{8}) {
    const std::int64_t n = 40;
    auto rows = with_condition(n, n, std::pow(10.0, e), 300 + static_cast<std::uint64_t>(e));
    scale_rows(rows, n, n, 40, 11);
    out.push_back({"rows 2^+-40 kappa=1e" + std::to_string(e), n, rows});
    auto cols = with_condition(n, n, std::pow(10.0, e), 400 + static_cast<std::uint64_t>(e));
    scale_cols(cols, n, n, 40, 12);
    out.push_back({"cols 2^+-40 kappa=1e" + std::to_string(e), n, cols});
  }
  // n = 160 crosses the 128-column block of the blocked LU: only there do the sim factorization's trailing
  // updates run as TensorEngine GEMMs (bf16/fp32), whose backward error the bounds rely on.
  for (int e : full ? std::vector<int>{2, 6, 10} : std::vector<int>{6}) {
    const std::int64_t n = 160;
    out.push_back({"n=160 kappa=1e" + std::to_string(e), n,
                   with_condition(n, n, std::pow(10.0, e), 700 + static_cast<std::uint64_t>(e))});
  }
  if (full) out.push_back({"gfpp n=160 c=5.000e-01", 160, gfpp(160, 0.5, 701)});
  // Rows scaled by 2^±140: entries beyond fp32's range, so the fp32/bf16 factors overflow or underflow (the
  // low-precision strategies must fail over honestly; the LU stand-in for A⁻¹ is not trusted).
  {
    const std::int64_t n = 24;
    auto a = with_condition(n, n, 1e3, 600);
    scale_rows(a, n, n, 140, 13);
    out.push_back({"rows 2^+-140 kappa=1e3", n, a});
  }
  // Near-singular: the last row is the first plus a perturbation of 2^-40 (κ ≈ 1e12·n) or 2^-52 relative.
  for (int p : full ? std::vector<int>{40, 52} : std::vector<int>{52}) {
    const std::int64_t n = 37;
    auto a = random_matrix(n, n, 500 + static_cast<std::uint64_t>(p));
    for (std::int64_t j = 0; j < n; ++j)
      a[static_cast<std::size_t>(n - 1 + j * n)] =
          a[static_cast<std::size_t>(j * n)] * (1.0 + std::ldexp(j % 2 ? 1.0 : -1.0, -p));
    out.push_back({"near-singular 2^-" + std::to_string(p), n, a});
  }
  return out;
}

// True error ‖x̂ − x‖∞/‖x‖∞ of a solution against the refined binary128 reference; the report's a-priori
// bound is relative to the exact x in the same norm (solve.hpp).
TEST(AdversarialSolve, EveryCertificateHoldsOnHostAndSim) {
  const bool full = trnsci_testing::adversarial_full();
  // TRNSOLVER_ADVERSARIAL_VERBOSE=1 prints one line per case (error, bound, met, the reason when uncertified).
  const bool verbose = std::getenv("TRNSOLVER_ADVERSARIAL_VERBOSE") != nullptr;
  trnsci_testing::Tally tally("trnsolver::solve");
  trnsci_testing::Tally lapack_style("trnsolver::solve forward_error_bound_normwise/componentwise");
  for (const Case& c : cases(full)) {
    trnsci_testing::Rng rng(c.n);
    std::vector<double> b(static_cast<std::size_t>(c.n));
    for (double& v : b) v = rng.normal();
    const auto ref = trnsci_testing::solve_quad(c.n, c.a.data(), b.data());
    ASSERT_FALSE(ref.empty()) << c.name;
    // The default strategy, and LU-IR / GMRES-IR alone (no fallback: their stagnation and non-convergence
    // must be reported, and the bounds of whatever iterate they return must hold when certified).
    const std::vector<trnsolver::Refinement> strategies =
        full ? std::vector<trnsolver::Refinement>{trnsolver::Refinement::automatic, trnsolver::Refinement::lu_ir,
                                                  trnsolver::Refinement::gmres_ir}
             : std::vector<trnsolver::Refinement>{trnsolver::Refinement::automatic, trnsolver::Refinement::lu_ir};
    // Backends: host (fp32 factors), sim with bf16 factors (the default), and in the full run sim with fp32
    // TensorEngine factors.
    const int backends = full ? 3 : 2;
    for (const trnsolver::Refinement how : strategies)
      for (int backend = 0; backend < backends; ++backend)
        for (const double target : full ? std::vector<double>{0.0, 1e-6, 1e-8, 1e-10, 1e-12, 1e-14}
                                        : std::vector<double>{0.0, 1e-6, 1e-10, 1e-14}) {
          if (how != trnsolver::Refinement::automatic && !full && target != 0.0 && target != 1e-14) continue;
          SolveOptions o;
          o.refinement = how;
          o.fallback = how == trnsolver::Refinement::automatic;
          const bool sim = backend > 0;
          if (sim) o.backend = trncore::Backend::sim;
          if (backend == 2) o.factor = trnsolver::FactorPrecision::fp32;
          if (target > 0) o.target_forward_error = target;
          SolveReport r;
          std::vector<double> x(static_cast<std::size_t>(c.n), 0.0);
          const std::int64_t info =
              trnsolver::solve(trncore::Layout::col_major, c.n, 1, c.a.data(), c.n, b.data(), c.n, x.data(), c.n, o, r);
          const std::string what = c.name + (sim ? (backend == 2 ? " sim-fp32 " : " sim ") : " host ") +
                                   std::string(trnsolver::to_string(how)) + " target " + trncore::detail::sci(target) +
                                   "\n" + r.to_string();
          ASSERT_EQ(info, r.info) << what;
          // The certificate's shape (docs/trncore.md): met == certified && (!target || bound <= target).
          EXPECT_EQ(r.met, r.certified && (target == 0.0 || r.a_priori_bound <= target)) << what;
          EXPECT_EQ(r.certified, r.uncertified_reason.empty()) << what;
          if (info > 0) {
            EXPECT_FALSE(r.certified) << what;
            tally.record(false, r.a_priori_bound, 0.0, what);
            continue;
          }
          const double err = trnsci_testing::normwise_error(x.data(), ref);
          if (verbose)
            std::printf("%-28s %-5s %-8s target %-9s error %-9s bound %-9s %s%s\n", c.name.c_str(),
                        sim ? (backend == 2 ? "sim32" : "sim") : "host", std::string(trnsolver::to_string(how)).c_str(),
                        trncore::detail::sci(target).c_str(), trncore::detail::sci(err).c_str(),
                        trncore::detail::sci(r.a_priori_bound).c_str(), r.met ? "met" : "not met",
                        r.certified ? "" : (", " + r.uncertified_reason).c_str());
          if (target > 0)
            tally.record_met(r.certified, r.met, r.a_priori_bound, target, err, what);
          else
            tally.record(r.certified, r.a_priori_bound, err, what);
          // The report's other certificates, relative to x̂ as documented: normwise and componentwise.
          quad xnorm = 0, diff = 0;
          double comp = 0.0;
          for (std::size_t i = 0; i < x.size(); ++i) {
            const quad d = trnsci_testing::quad_abs(static_cast<quad>(x[i]) - ref[i]);
            diff = d > diff ? d : diff;
            xnorm = trnsci_testing::quad_abs(static_cast<quad>(x[i])) > xnorm
                        ? trnsci_testing::quad_abs(static_cast<quad>(x[i]))
                        : xnorm;
            comp =
                std::max(comp, x[i] != 0.0 ? static_cast<double>(d / trnsci_testing::quad_abs(static_cast<quad>(x[i])))
                                           : (d != 0 ? HUGE_VAL : 0.0));
          }
          lapack_style.record(r.certified, r.forward_error_bound_normwise,
                              xnorm > 0 ? static_cast<double>(diff / xnorm) : 0.0, "normwise " + what);
          lapack_style.record(r.certified, r.forward_error_bound_componentwise, comp, "componentwise " + what);
        }
  }
  EXPECT_EQ(tally.violations(), 0);
  EXPECT_EQ(lapack_style.violations(), 0);
}

// An exactly singular A (two equal rows, or a zero column): info > 0, never an exception, uncertified with the
// reason; the overload without a report throws TargetNotMet naming it.
TEST(AdversarialSolve, SingularMatricesAreInfoValues) {
  for (const std::int64_t n : {1, 2, 17, 64}) {
    auto a = trnsci_testing::random_matrix(n, n, 900 + static_cast<std::uint64_t>(n));
    for (std::int64_t i = 0; i < n; ++i) a[static_cast<std::size_t>(i + (n - 1) * n)] = 0.0;  // last column zero
    std::vector<double> b(static_cast<std::size_t>(n), 1.0), x(static_cast<std::size_t>(n), 0.0);
    for (const bool sim : {false, true}) {
      SolveOptions o;
      if (sim) o.backend = trncore::Backend::sim;
      SolveReport r;
      EXPECT_EQ(trnsolver::solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, x.data(), n, o, r), n)
          << r.to_string();
      EXPECT_FALSE(r.certified);
      EXPECT_FALSE(r.met);
      EXPECT_NE(r.uncertified_reason.find("singular"), std::string::npos) << r.uncertified_reason;
      EXPECT_THROW(trnsolver::solve(trncore::Layout::col_major, n, 1, a.data(), n, b.data(), n, x.data(), n, o),
                   trncore::TargetNotMet);
    }
  }
}

// gesv and posv: the backward error their headers state — (A + ΔA)x̂ = b with |ΔA| ≤ (3γ_n + γ_n²)|L̂||Û| for
// gesv (Higham Thm 9.4), γ_{3n+1}|R̂ᵀ||R̂| for posv (Thm 10.4) — checked in binary128 on the hard inputs; and
// info for singular / indefinite ones with B left unchanged.
double gamma(double k) { return k * 0x1p-53 / (1.0 - k * 0x1p-53); }

TEST(AdversarialDense, GesvAndPosvKeepTheirBackwardErrorBoundsAndReportInfo) {
  const bool full = trnsci_testing::adversarial_full();
  trnsci_testing::Tally tally("trnsolver::gesv/posv backward error");
  for (const Case& c : cases(full)) {
    const std::int64_t n = c.n;
    const auto un = static_cast<std::size_t>(n);
    trnsci_testing::Rng rng(3 * n);
    std::vector<double> b(un);
    for (double& v : b) v = rng.normal();
    // gesv: ω = max_i |b − A x̂|_i / (|L̂||Û||x̂|)_i in binary128 (rows in factor order), against 3γ_n + γ_n².
    std::vector<double> lu = c.a, x = b;
    std::vector<std::int64_t> ipiv(un);
    const std::int64_t info = trnsolver::gesv(trncore::Layout::col_major, n, 1, lu.data(), n, ipiv.data(), x.data(), n);
    if (info != 0) {
      EXPECT_EQ(x, b) << c.name;  // B unchanged
      tally.record(false, 0.0, 0.0, c.name);
      continue;
    }
    std::vector<quad> r(un), scale(un, 0), t(un, 0);
    for (std::size_t i = 0; i < un; ++i) r[i] = b[i];
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = 0; i < un; ++i) r[i] -= static_cast<quad>(c.a[i + j * un]) * x[j];
    // r's rows follow A; P·r follows the factors (the interchanges in order).
    std::vector<quad> pr = r;
    for (std::size_t k = 0; k < un; ++k) std::swap(pr[k], pr[static_cast<std::size_t>(ipiv[k] - 1)]);
    for (std::size_t k = 0; k < un; ++k)  // t = |Û||x̂|
      for (std::size_t j = k; j < un; ++j)
        t[k] += trnsci_testing::quad_abs(static_cast<quad>(lu[k + j * un])) *
                trnsci_testing::quad_abs(static_cast<quad>(x[j]));
    for (std::size_t i = 0; i < un; ++i)  // scale = |L̂| t
      for (std::size_t k = 0; k <= i; ++k)
        scale[i] += (k == i ? quad(1) : trnsci_testing::quad_abs(static_cast<quad>(lu[i + k * un]))) * t[k];
    double omega = 0.0;
    for (std::size_t i = 0; i < un; ++i)
      if (scale[i] > 0) omega = std::max(omega, static_cast<double>(trnsci_testing::quad_abs(pr[i]) / scale[i]));
    const double g = gamma(static_cast<double>(n));
    tally.record(true, 3 * g + g * g, omega, "gesv " + c.name);
    // posv on AᵀA + I·‖A‖²·2^-20 (SPD; the growth and scaling of A carry over to its Cholesky factor).
    std::vector<double> s(un * un, 0.0);
    double amax = 0.0;
    for (double v : c.a) amax = std::max(amax, std::abs(v));
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = 0; i <= j; ++i) {
        quad acc = 0;
        for (std::size_t k = 0; k < un; ++k) acc += static_cast<quad>(c.a[k + i * un]) * c.a[k + j * un];
        s[i + j * un] = s[j + i * un] = static_cast<double>(acc) + (i == j ? std::ldexp(amax * amax, -20) : 0.0);
      }
    std::vector<double> chol = s, y = b;
    const std::int64_t pinfo =
        trnsolver::posv(trncore::Layout::col_major, trnsolver::Uplo::lower, n, 1, chol.data(), n, y.data(), n);
    if (pinfo != 0) {
      EXPECT_EQ(y, b) << c.name;
      continue;
    }
    std::vector<quad> rs(un), ls(un, 0), lt(un, 0);
    for (std::size_t i = 0; i < un; ++i) rs[i] = b[i];
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t i = 0; i < un; ++i) rs[i] -= static_cast<quad>(s[i + j * un]) * y[j];
    for (std::size_t k = 0; k < un; ++k)  // lt = |L̂ᵀ||ŷ|
      for (std::size_t j = k; j < un; ++j)
        lt[k] += trnsci_testing::quad_abs(static_cast<quad>(chol[j + k * un])) *
                 trnsci_testing::quad_abs(static_cast<quad>(y[j]));
    for (std::size_t i = 0; i < un; ++i)
      for (std::size_t k = 0; k <= i; ++k)
        ls[i] += trnsci_testing::quad_abs(static_cast<quad>(chol[i + k * un])) * lt[k];
    double pomega = 0.0;
    for (std::size_t i = 0; i < un; ++i)
      if (ls[i] > 0) pomega = std::max(pomega, static_cast<double>(trnsci_testing::quad_abs(rs[i]) / ls[i]));
    tally.record(true, gamma(3.0 * static_cast<double>(n) + 1.0), pomega, "posv " + c.name);
  }
  // Singular and indefinite: info, B unchanged, no exception.
  std::vector<double> sing = {1, 2, 2, 4}, bs = {1, 1}, bs0 = bs;
  std::vector<std::int64_t> piv(2);
  EXPECT_EQ(trnsolver::gesv(trncore::Layout::col_major, 2, 1, sing.data(), 2, piv.data(), bs.data(), 2), 2);
  EXPECT_EQ(bs, bs0);
  std::vector<double> indef = {1, 2, 2, 1};
  EXPECT_EQ(trnsolver::posv(trncore::Layout::col_major, trnsolver::Uplo::lower, 2, 1, indef.data(), 2, bs.data(), 2),
            2);
  EXPECT_EQ(bs, bs0);
  EXPECT_EQ(tally.violations(), 0);
}

}  // namespace
