#include <trnsparse/direct.hpp>

#include "direct/dense_columns.hpp"

#include <cholmod.h>

#include <trncore/error.hpp>

#include <string>

namespace trnsparse {

struct Cholesky::Impl {
  cholmod_common common{};
  cholmod_factor* factor = nullptr;
  std::int64_t n = 0;
  std::vector<std::int64_t> indptr, indices;  // the analysed pattern (canonical), for refactor checks
  int info = 0;

  Impl() {
    cholmod_l_start(&common);
    common.print = 0;  // numerical failure is reported through info(), never printed
    // LLᵀ also for the simplicial path: CHOLMOD's default simplicial LDLᵀ succeeds on indefinite matrices
    // (negative D), which would hide non-positive-definiteness from info().
    common.final_ll = 1;
  }
  ~Impl() {
    if (factor) cholmod_l_free_factor(&factor, &common);
    cholmod_l_finish(&common);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // CSR of A read as CSC is Aᵀ; stype = 1 (use the upper triangle of Aᵀ) reads A's lower triangle.
  cholmod_sparse view(std::vector<double>& values) {
    cholmod_sparse s{};
    s.nrow = s.ncol = static_cast<std::size_t>(n);
    s.nzmax = values.size();
    s.p = indptr.data();
    s.i = indices.data();
    s.x = values.data();
    s.stype = 1;
    s.itype = CHOLMOD_LONG;
    s.xtype = CHOLMOD_REAL;
    s.dtype = CHOLMOD_DOUBLE;
    s.sorted = 1;
    s.packed = 1;
    return s;
  }

  void factorize(std::vector<double>& values) {
    cholmod_sparse s = view(values);
    cholmod_l_factorize(&s, factor, &common);
    info = common.status == CHOLMOD_NOT_POSDEF ? static_cast<int>(factor->minor) + 1 : 0;
    if (common.status < CHOLMOD_OK)
      throw trncore::ResourceExhausted("trnsparse::Cholesky",
                                       "CHOLMOD failed with status " + std::to_string(common.status),
                                       "check available memory");
  }
};

namespace {
Csr<double, std::int64_t> checked_square_canonical(const Csr<double, std::int64_t>& a, const char* fn) {
  validate(a, fn);
  if (a.rows != a.cols)
    throw trncore::InvalidArgument(fn, "A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols),
                                   "pass a square matrix");
  detail::require_finite_values(a.values, fn);
  return is_canonical(a) ? a : sum_duplicates(a);
}
}  // namespace

Cholesky::Cholesky(const Csr<double, std::int64_t>& a_in, Ordering ordering, int) : impl_(std::make_unique<Impl>()) {
  constexpr const char* fn = "trnsparse::Cholesky";
  detail::require_ordering(ordering, fn);
  Csr<double, std::int64_t> a = checked_square_canonical(a_in, fn);
  impl_->n = a.rows;
  impl_->indptr = a.indptr;
  impl_->indices = a.indices;
  if (a.rows == 0) return;
  if (ordering != Ordering::automatic) {
    impl_->common.nmethods = 1;
    impl_->common.method[0].ordering = ordering == Ordering::natural ? CHOLMOD_NATURAL : CHOLMOD_AMD;
  }
  cholmod_sparse s = impl_->view(a.values);
  impl_->factor = cholmod_l_analyze(&s, &impl_->common);
  if (!impl_->factor)
    throw trncore::ResourceExhausted(fn, "CHOLMOD analysis failed with status " + std::to_string(impl_->common.status),
                                     "check available memory");
  impl_->factorize(a.values);
}

Cholesky::~Cholesky() = default;
Cholesky::Cholesky(Cholesky&&) noexcept = default;
Cholesky& Cholesky::operator=(Cholesky&&) noexcept = default;

int Cholesky::info() const noexcept { return impl_->info; }
std::int64_t Cholesky::size() const noexcept { return impl_->n; }
std::int64_t Cholesky::factor_nonzeros() const noexcept {
  return impl_->factor ? static_cast<std::int64_t>(impl_->common.lnz) : 0;
}

void Cholesky::refactor_impl(const Csr<double, std::int64_t>& a_in) {
  constexpr const char* fn = "trnsparse::Cholesky::refactor";
  Csr<double, std::int64_t> a = checked_square_canonical(a_in, fn);
  if (a.rows != impl_->n || a.indptr != impl_->indptr || a.indices != impl_->indices)
    throw trncore::InvalidArgument(fn, "the matrix's pattern differs from the analysed one",
                                   "construct a new Cholesky for a matrix with a different pattern");
  if (a.rows == 0) return;
  impl_->factorize(a.values);
}

void Cholesky::solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs) const {
  constexpr const char* fn = "trnsparse::Cholesky::solve";
  detail::require_rhs(b.size(), x.size(), impl_->n, impl_->n, nrhs, fn);
  if (impl_->info != 0)
    throw trncore::InvalidArgument(fn,
                                   "the matrix is not positive definite (info = " + std::to_string(impl_->info) + ")",
                                   "check info() before solving; use Lu for indefinite matrices");
  if (impl_->n == 0 || nrhs == 0) return;
  std::vector<double> cols = detail::to_column_major(b, impl_->n, nrhs);
  cholmod_dense rhs{};
  rhs.nrow = static_cast<std::size_t>(impl_->n);
  rhs.ncol = static_cast<std::size_t>(nrhs);
  rhs.nzmax = cols.size();
  rhs.d = static_cast<std::size_t>(impl_->n);
  rhs.x = cols.data();
  rhs.xtype = CHOLMOD_REAL;
  rhs.dtype = CHOLMOD_DOUBLE;
  cholmod_dense* sol = cholmod_l_solve(CHOLMOD_A, impl_->factor, &rhs, &impl_->common);
  if (!sol) throw trncore::ResourceExhausted(fn, "CHOLMOD solve failed", "check available memory");
  detail::from_column_major(static_cast<const double*>(sol->x), impl_->n, nrhs, static_cast<std::int64_t>(sol->d), x);
  cholmod_l_free_dense(&sol, &impl_->common);
}

}  // namespace trnsparse
