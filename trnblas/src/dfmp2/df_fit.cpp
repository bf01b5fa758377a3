// The Cholesky route to the fitted tensor: J = L·Lᵀ (LAPACK dpotrf from OpenBLAS), X = L⁻¹·(P|ia) by one
// triangular solve with every (ia) column as a right-hand side, B[ia][Q] = X[Q][ia].
#include <trnblas/df_mp2.hpp>
#include <trnblas/level3.hpp>

#include "checks.hpp"

#include <trncore/detail/checks.hpp>
#include <trncore/error.hpp>

#include <cmath>
#include <string>
#include <vector>

extern "C" {
// LAPACK's Cholesky factorisation (column-major), exported by OpenBLAS; the hidden length argument is the
// gfortran ABI for the CHARACTER uplo.
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, std::size_t uplo_len);
}

namespace trnblas {

std::int64_t df_fit_cholesky(std::int64_t naux, std::int64_t nocc, std::int64_t nvir, const double* pia,
                             const double* j, double* b) {
  constexpr const char* fn = "trnblas::df_fit_cholesky";
  trncore::detail::check_nonnegative(fn, {{"naux", naux}, {"nocc", nocc}, {"nvir", nvir}});
  const std::int64_t nov = trncore::detail::checked_product(fn, {{"nocc", nocc}, {"nvir", nvir}});
  const std::int64_t elements = trncore::detail::checked_product(fn, {{"naux", naux}, {"nocc*nvir", nov}});
  trncore::detail::check_pointer(fn, "pia", pia, elements);
  trncore::detail::check_pointer(fn, "j", j, trncore::detail::checked_product(fn, {{"naux", naux}, {"naux", naux}}));
  trncore::detail::check_pointer(fn, "b", b, elements);
  if (naux == 0 || nov == 0) return 0;
  detail::check_blasint(fn, {{"naux", naux}, {"nocc*nvir", nov}});
  const auto finite = [&](const char* name, const double* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i)
      if (!std::isfinite(x[i]))
        throw trncore::InvalidArgument(fn, std::string(name) + "[" + std::to_string(i) + "] is not finite",
                                       "pass finite integrals and metric");
  };
  finite("pia", pia, naux * nov);
  finite("j", j, naux * naux);
  const detail::Region out{b, 1, naux * nov, 1, sizeof(double)};
  detail::check_no_overlap(fn, "b", out, "pia", {pia, 1, naux * nov, 1, sizeof(double)});
  detail::check_no_overlap(fn, "b", out, "j", {j, 1, naux * naux, 1, sizeof(double)});

  // J is symmetric, so its row-major storage is also J in column-major order: factor the lower triangle.
  std::vector<double> l(j, j + naux * naux);
  const int n = static_cast<int>(naux);
  int info = 0;
  dpotrf_("L", &n, l.data(), &n, &info, 1);
  if (info != 0) return info;  // info < 0 cannot happen: the arguments are valid by construction

  // (P|ia) row-major naux × nov is Y = (P|ia)ᵀ column-major nov × naux; Y·L⁻ᵀ = Xᵀ.
  std::vector<double> y(pia, pia + naux * nov);
  trsm<double>(Layout::col_major, Side::right, Uplo::lower, Op::trans, Diag::non_unit, nov, naux, 1.0, l.data(), naux,
               y.data(), nov);
  for (std::int64_t q = 0; q < naux; ++q)
    for (std::int64_t ia = 0; ia < nov; ++ia) b[ia * naux + q] = y[static_cast<std::size_t>(q * nov + ia)];
  return 0;
}

}  // namespace trnblas
