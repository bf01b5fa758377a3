#include <trnsparse/direct.hpp>

#include "direct/dense_columns.hpp"

#include <SuiteSparseQR_C.h>

#include <trncore/error.hpp>

#include <string>

namespace trnsparse {

struct Qr::Impl {
  cholmod_common common{};
  SuiteSparseQR_C_factorization* qr = nullptr;
  std::int64_t m = 0, n = 0, rank = 0;

  Impl() {
    cholmod_l_start(&common);
    common.print = 0;
  }
  ~Impl() {
    if (qr) SuiteSparseQR_C_free(&qr, &common);
    cholmod_l_finish(&common);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

Qr::Qr(const Csr<double, std::int64_t>& a_in, Ordering ordering, int) : impl_(std::make_unique<Impl>()) {
  constexpr const char* fn = "trnsparse::Qr";
  detail::require_ordering(ordering, fn);
  validate(a_in, fn);
  if (a_in.rows < a_in.cols)
    throw trncore::InvalidArgument(fn,
                                   "A is " + std::to_string(a_in.rows) + "x" + std::to_string(a_in.cols) + " (m < n)",
                                   "least squares needs m >= n; factor Aᵀ for the minimum-norm problem");
  detail::require_finite_values(a_in.values, fn);
  Impl& q = *impl_;
  q.m = a_in.rows;
  q.n = a_in.cols;
  if (q.n == 0) return;
  // SPQR takes CSC: the CSC of A (not Aᵀ), since QR is not symmetric in A and Aᵀ.
  Csc<double, std::int64_t> c = to_csc(is_canonical(a_in) ? a_in : sum_duplicates(a_in));
  cholmod_sparse s{};
  s.nrow = static_cast<std::size_t>(q.m);
  s.ncol = static_cast<std::size_t>(q.n);
  s.nzmax = c.values.size();
  s.p = c.indptr.data();
  s.i = c.indices.data();
  s.x = c.values.data();
  s.stype = 0;
  s.itype = CHOLMOD_LONG;
  s.xtype = CHOLMOD_REAL;
  s.dtype = CHOLMOD_DOUBLE;
  s.sorted = 1;
  s.packed = 1;
  const int order = ordering == Ordering::natural ? SPQR_ORDERING_FIXED
                    : ordering == Ordering::amd   ? SPQR_ORDERING_AMD
                                                  : SPQR_ORDERING_DEFAULT;
  q.qr = SuiteSparseQR_C_factorize(order, SPQR_DEFAULT_TOL, &s, &q.common);
  if (!q.qr)
    throw trncore::ResourceExhausted(fn, "SPQR factorization failed with status " + std::to_string(q.common.status),
                                     "check available memory");
  q.rank = static_cast<std::int64_t>(q.common.SPQR_istat[4]);
}

Qr::~Qr() = default;
Qr::Qr(Qr&&) noexcept = default;
Qr& Qr::operator=(Qr&&) noexcept = default;

std::int64_t Qr::rank() const noexcept { return impl_->rank; }
std::int64_t Qr::rows() const noexcept { return impl_->m; }
std::int64_t Qr::cols() const noexcept { return impl_->n; }
int Qr::info() const noexcept { return static_cast<int>(impl_->n - impl_->rank); }

void Qr::solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs) const {
  constexpr const char* fn = "trnsparse::Qr::solve";
  Impl& q = *impl_;
  detail::require_rhs(b.size(), x.size(), q.m, q.n, nrhs, fn);
  if (q.n == 0 || nrhs == 0) return;
  std::vector<double> cols = detail::to_column_major(b, q.m, nrhs);
  cholmod_dense rhs{};
  rhs.nrow = static_cast<std::size_t>(q.m);
  rhs.ncol = static_cast<std::size_t>(nrhs);
  rhs.nzmax = cols.size();
  rhs.d = static_cast<std::size_t>(q.m);
  rhs.x = cols.data();
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* qtb = SuiteSparseQR_C_qmult(SPQR_QTX, q.qr, &rhs, &q.common);
  if (!qtb) throw trncore::ResourceExhausted(fn, "SPQR Q'b failed", "check available memory");
  cholmod_dense* sol = SuiteSparseQR_C_solve(SPQR_RETX_EQUALS_B, q.qr, qtb, &q.common);
  cholmod_l_free_dense(&qtb, &q.common);
  if (!sol) throw trncore::ResourceExhausted(fn, "SPQR solve failed", "check available memory");
  detail::from_column_major(static_cast<const double*>(sol->x), q.n, nrhs, static_cast<std::int64_t>(sol->d), x);
  cholmod_l_free_dense(&sol, &q.common);
}

}  // namespace trnsparse
