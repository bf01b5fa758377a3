#include <trnsparse/direct.hpp>

#include "direct/dense_columns.hpp"

#include <umfpack.h>

#include <trncore/error.hpp>

#include <string>

namespace trnsparse {

struct Lu::Impl {
  std::int64_t n = 0;
  // The CSR arrays of A, read by UMFPACK as the CSC of Aᵀ; kept for solve, which needs the matrix.
  std::vector<std::int64_t> indptr, indices;
  std::vector<double> values;
  double control[UMFPACK_CONTROL]{};
  double stats[UMFPACK_INFO]{};
  void* numeric = nullptr;
  int info = 0;
  double rcond = 0;

  Impl() { umfpack_dl_defaults(control); }
  ~Impl() {
    if (numeric) umfpack_dl_free_numeric(&numeric);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
};

Lu::Lu(const Csr<double, std::int64_t>& a_in, Ordering ordering, int) : impl_(std::make_unique<Impl>()) {
  constexpr const char* fn = "trnsparse::Lu";
  detail::require_ordering(ordering, fn);
  validate(a_in, fn);
  if (a_in.rows != a_in.cols)
    throw trncore::InvalidArgument(fn, "A is " + std::to_string(a_in.rows) + "x" + std::to_string(a_in.cols),
                                   "pass a square matrix; use Qr for least squares");
  detail::require_finite_values(a_in.values, fn);
  Csr<double, std::int64_t> a = is_canonical(a_in) ? a_in : sum_duplicates(a_in);
  Impl& m = *impl_;
  m.n = a.rows;
  m.indptr = std::move(a.indptr);
  m.indices = std::move(a.indices);
  m.values = std::move(a.values);
  if (m.n == 0) return;
  if (ordering == Ordering::natural)
    m.control[UMFPACK_ORDERING] = UMFPACK_ORDERING_NONE;
  else if (ordering == Ordering::amd)
    m.control[UMFPACK_ORDERING] = UMFPACK_ORDERING_AMD;
  void* symbolic = nullptr;
  const auto n = static_cast<SuiteSparse_long>(m.n);
  int status = static_cast<int>(
      umfpack_dl_symbolic(n, n, m.indptr.data(), m.indices.data(), m.values.data(), &symbolic, m.control, m.stats));
  if (status != UMFPACK_OK) {
    if (symbolic) umfpack_dl_free_symbolic(&symbolic);
    throw trncore::ResourceExhausted(fn, "UMFPACK symbolic analysis failed with status " + std::to_string(status),
                                     "check available memory");
  }
  status = static_cast<int>(
      umfpack_dl_numeric(m.indptr.data(), m.indices.data(), m.values.data(), symbolic, &m.numeric, m.control, m.stats));
  umfpack_dl_free_symbolic(&symbolic);
  if (status == UMFPACK_WARNING_singular_matrix) {
    m.info = std::max(1, static_cast<int>(m.n - static_cast<std::int64_t>(m.stats[UMFPACK_UDIAG_NZ])));
  } else if (status != UMFPACK_OK) {
    throw trncore::ResourceExhausted(fn, "UMFPACK numeric factorization failed with status " + std::to_string(status),
                                     "check available memory");
  }
  m.rcond = m.stats[UMFPACK_RCOND];
}

Lu::~Lu() = default;
Lu::Lu(Lu&&) noexcept = default;
Lu& Lu::operator=(Lu&&) noexcept = default;

int Lu::info() const noexcept { return impl_->info; }
std::int64_t Lu::size() const noexcept { return impl_->n; }
double Lu::rcond_estimate() const noexcept { return impl_->rcond; }

void Lu::solve(std::span<const double> b, std::span<double> x, std::int64_t nrhs, bool transpose) const {
  constexpr const char* fn = "trnsparse::Lu::solve";
  const Impl& m = *impl_;
  detail::require_rhs(b.size(), x.size(), m.n, m.n, nrhs, fn);
  if (m.info != 0)
    throw trncore::InvalidArgument(fn, "the matrix is singular (" + std::to_string(m.info) + " zero pivots)",
                                   "check info() before solving; use Qr for a least-squares solution");
  if (m.n == 0 || nrhs == 0) return;
  // UMFPACK holds Aᵀ (our CSR read as CSC), so A x = b is its transposed system and vice versa.
  const int system = transpose ? UMFPACK_A : UMFPACK_At;
  std::vector<double> rhs = detail::to_column_major(b, m.n, nrhs), sol(rhs.size());
  double stats[UMFPACK_INFO];
  for (std::int64_t j = 0; j < nrhs; ++j) {
    const int status =
        static_cast<int>(umfpack_dl_solve(system, m.indptr.data(), m.indices.data(), m.values.data(),
                                          sol.data() + j * m.n, rhs.data() + j * m.n, m.numeric, m.control, stats));
    if (status != UMFPACK_OK)
      throw trncore::ResourceExhausted(fn, "UMFPACK solve failed with status " + std::to_string(status),
                                       "check available memory");
  }
  detail::from_column_major(sol.data(), m.n, nrhs, m.n, x);
}

}  // namespace trnsparse
