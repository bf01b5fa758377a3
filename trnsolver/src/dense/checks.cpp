// The dense layer's argument checks (common.hpp) and its enum names.
#include "common.hpp"

#include <trncore/detail/enum_names.hpp>
#include <trncore/detail/format_number.hpp>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace trnsolver {

namespace {

using trncore::detail::EnumNames;

constexpr EnumNames<Job, 3> kJobs{{{{"values_only", Job::values_only}, {"thin", Job::thin}, {"full", Job::full}}}};
constexpr EnumNames<EigJob, 2> kEigJobs{{{{"values_only", EigJob::values_only}, {"vectors", EigJob::vectors}}}};
constexpr EnumNames<Norm, 4> kNorms{{{{"one", Norm::one}, {"inf", Norm::inf}, {"fro", Norm::fro}, {"max", Norm::max}}}};
constexpr EnumNames<LstsqMethod, 2> kLstsq{{{{"qr", LstsqMethod::qr}, {"svd", LstsqMethod::svd}}}};
constexpr EnumNames<InvSqrtMethod, 2> kInvSqrt{
    {{{"eigh", InvSqrtMethod::eigh}, {"newton_schulz", InvSqrtMethod::newton_schulz}}}};
constexpr EnumNames<EighMethod, 3> kEigh{
    {{{"automatic", EighMethod::automatic}, {"jacobi", EighMethod::jacobi}, {"tridiagonal", EighMethod::tridiagonal}}}};

}  // namespace

std::string_view to_string(Job v) noexcept { return kJobs.name(v); }
std::string_view to_string(EigJob v) noexcept { return kEigJobs.name(v); }
std::string_view to_string(Norm v) noexcept { return kNorms.name(v); }
std::string_view to_string(LstsqMethod v) noexcept { return kLstsq.name(v); }
std::string_view to_string(InvSqrtMethod v) noexcept { return kInvSqrt.name(v); }
std::string_view to_string(EighMethod v) noexcept { return kEigh.name(v); }
Job parse_job(std::string_view t) { return kJobs.parse(t, "trnsolver::parse_job", "job"); }
EigJob parse_eig_job(std::string_view t) { return kEigJobs.parse(t, "trnsolver::parse_eig_job", "eigenvalue job"); }
Norm parse_norm(std::string_view t) { return kNorms.parse(t, "trnsolver::parse_norm", "norm"); }
LstsqMethod parse_lstsq_method(std::string_view t) {
  return kLstsq.parse(t, "trnsolver::parse_lstsq_method", "lstsq method");
}
InvSqrtMethod parse_inv_sqrt_method(std::string_view t) {
  return kInvSqrt.parse(t, "trnsolver::parse_inv_sqrt_method", "inverse square root method");
}

EighMethod parse_eigh_method(std::string_view t) {
  return kEigh.parse(t, "trnsolver::parse_eigh_method", "symmetric eigensolver method");
}

template <class T>
DenseMatrix<T>::DenseMatrix(std::int64_t r, std::int64_t c, Layout l) : rows(r), cols(c), layout(l) {
  if (r < 0 || c < 0)
    throw trncore::InvalidArgument("trnsolver::DenseMatrix",
                                   "negative size rows = " + std::to_string(r) + ", cols = " + std::to_string(c),
                                   "pass sizes >= 0");
  data.assign(static_cast<std::size_t>(r) * static_cast<std::size_t>(c), T(0));
}
template struct DenseMatrix<float>;
template struct DenseMatrix<double>;

}  // namespace trnsolver

namespace trnsolver::detail {

namespace {

constexpr std::int64_t kLapackMax = std::numeric_limits<lapack_int>::max();
std::string str(std::int64_t v) { return std::to_string(v); }

void check_lapack_range(const char* f, const char* name, std::int64_t v) {
  if (v > kLapackMax)
    throw trncore::NotSupported(f,
                                std::string(name) + " = " + str(v) + " exceeds LAPACK's " +
                                    str(8 * sizeof(lapack_int)) + "-bit integers (limit " + str(kLapackMax) + ")",
                                "split the problem or use smaller matrices");
}

}  // namespace

void check_sizes(const char* f, std::initializer_list<Dim> sizes) {
  trncore::detail::check_nonnegative(f, sizes);
  for (const Dim& s : sizes) check_lapack_range(f, std::string(s.name).c_str(), s.value);
}

void check_options(const char* f, const trncore::Options& options, bool double_precision) {
  trncore::validate(options, f);  // also refuses backend values outside the enum
  if (options.backend != trncore::Backend::host)
    throw trncore::NotSupported(f, "the sim backend of trnsolver's dense layer is not implemented",
                                "use trncore::Backend::host (the default)");
  const auto mode = options.math_mode;
  const bool ok = mode == trncore::MathMode::automatic || (mode == trncore::MathMode::fp64 && double_precision) ||
                  (mode == trncore::MathMode::fp32 && !double_precision);
  if (!ok)
    throw trncore::NotSupported(f,
                                "math mode " + std::string(trncore::to_string(mode)) + " is not a host mode for " +
                                    (double_precision ? "double" : "single") + "-precision data",
                                "use MathMode::automatic: LAPACK computes in the precision of the data");
  if (options.target_forward_error) {
    throw trncore::NotSupported(f,
                                "target_forward_error = " + trncore::detail::sci(*options.target_forward_error) +
                                    " is not certified by the dense factorizations (their bounds are fixed)",
                                "leave target_forward_error unset, or use trnsolver::solve for a certified solve");
  }
}

void check_matrix(const char* f, const char* name, trncore::Layout layout, Dim rows, Dim cols, const void* p,
                  std::int64_t ld, std::size_t elem) {
  if (layout != trncore::Layout::row_major && layout != trncore::Layout::col_major)
    throw trncore::InvalidArgument(f, "layout has the invalid value " + str(static_cast<int>(layout)),
                                   "pass trncore::Layout::row_major or col_major");
  const bool rm = layout == trncore::Layout::row_major;
  const Dim line = rm ? cols : rows;
  const std::int64_t need = line.value > 0 ? line.value : 1;
  const std::string ldname = std::string("ld") + name;
  if (ld < need) {
    const std::string what = line.value > 0 ? std::string(line.name) + " = " + str(line.value) : str(need);
    throw trncore::DimensionMismatch(f,
                                     ldname + " = " + str(ld) + " is below " + what + " for a " +
                                         std::string(rm ? "row-major " : "column-major ") + str(rows.value) + "x" +
                                         str(cols.value) + " matrix",
                                     "pass " + ldname + " >= " + str(need));
  }
  trncore::detail::check_matrix(f, name, layout, rows.value, cols.value, p, ld, elem);
  check_lapack_range(f, ldname.c_str(), ld);
}

void check_layouts(const char* f, std::initializer_list<std::pair<const char*, trncore::Layout>> views) {
  const auto& first = *views.begin();
  for (const auto& v : views)
    if (v.second != first.second)
      throw trncore::DimensionMismatch(f,
                                       std::string(first.first) + " is " +
                                           std::string(trncore::to_string(first.second)) + " but " + v.first + " is " +
                                           std::string(trncore::to_string(v.second)),
                                       "pass every matrix of the call in one layout");
}

void check_extent(const char* f, const char* name, const char* which, std::int64_t have, Dim need) {
  const std::string what = std::string(name) + "'s " + which;
  trncore::detail::check_equal(f, {what, have}, need);
}

template <class T>
std::int64_t check_factorization(const char* f, trncore::Layout layout, std::int64_t m, std::int64_t n, const T* a,
                                 std::int64_t lda, const char* out_name, const void* out,
                                 const trncore::Options& options) {
  check_call<T>(f, {{"m", m}, {"n", n}}, options);
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t k = m < n ? m : n;
  trncore::detail::check_pointer(f, out_name, out, k);
  return k;
}

template <class T>
void check_svd_storage(const char* f, trncore::Layout layout, Job job, std::int64_t m, std::int64_t n, const T* a,
                       std::int64_t lda, const T* s, const T* u, std::int64_t ldu, const T* vt, std::int64_t ldvt) {
  check_matrix(f, "a", layout, {"m", m}, {"n", n}, a, lda, sizeof(T));
  const std::int64_t k = m < n ? m : n;
  trncore::detail::check_pointer(f, "s", s, k);
  if (job == Job::thin) {
    check_matrix(f, "u", layout, {"m", m}, {"min(m, n)", k}, u, ldu, sizeof(T));
    check_matrix(f, "vt", layout, {"min(m, n)", k}, {"n", n}, vt, ldvt, sizeof(T));
  } else if (job == Job::full) {
    check_matrix(f, "u", layout, {"m", m}, {"m", m}, u, ldu, sizeof(T));
    check_matrix(f, "vt", layout, {"n", n}, {"n", n}, vt, ldvt, sizeof(T));
  }
}

#define TRNSOLVER_STORAGE_CHECKS(T)                                                                                \
  template std::int64_t check_factorization<T>(const char*, trncore::Layout, std::int64_t, std::int64_t, const T*, \
                                               std::int64_t, const char*, const void*, const trncore::Options&);   \
  template void check_svd_storage<T>(const char*, trncore::Layout, Job, std::int64_t, std::int64_t, const T*,      \
                                     std::int64_t, const T*, const T*, std::int64_t, const T*, std::int64_t);
TRNSOLVER_STORAGE_CHECKS(float)
TRNSOLVER_STORAGE_CHECKS(double)
#undef TRNSOLVER_STORAGE_CHECKS

template <class T>
void check_finite(const char* f, const char* name, trncore::Layout layout, std::int64_t rows, std::int64_t cols,
                  const T* a, std::int64_t ld, const Uplo* triangle) {
  const bool rm = layout == trncore::Layout::row_major;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      if (triangle != nullptr && (*triangle == Uplo::upper ? j < i : j > i)) continue;
      const T v = a[rm ? i * ld + j : i + j * ld];
      if (!std::isfinite(v)) {
        throw trncore::InvalidArgument(f,
                                       std::string(name) + "(" + str(i) + ", " + str(j) +
                                           ") = " + trncore::detail::sci(static_cast<double>(v)) + " is not finite",
                                       "pass finite entries (the routine iterates to convergence and needs them)");
      }
    }
}
template void check_finite<float>(const char*, const char*, trncore::Layout, std::int64_t, std::int64_t, const float*,
                                  std::int64_t, const Uplo*);
template void check_finite<double>(const char*, const char*, trncore::Layout, std::int64_t, std::int64_t, const double*,
                                   std::int64_t, const Uplo*);

void lapack_rejected(const char* f, std::int64_t info) {
  throw trncore::Error(f, "LAPACK rejected argument " + str(-info) + " after trnsolver's checks passed",
                       "this is a trnsolver bug: please report it with the call's sizes");
}

std::vector<lapack_int> lapack_pivots(const char* f, const std::int64_t* ipiv, std::int64_t count, std::int64_t n) {
  std::vector<lapack_int> out(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    if (ipiv[i] < 1 || ipiv[i] > n)
      throw trncore::InvalidArgument(f, "ipiv[" + str(i) + "] = " + str(ipiv[i]) + " is outside [1, " + str(n) + "]",
                                     "pass the pivots getrf returned (1-based row indices)");
    out[static_cast<std::size_t>(i)] = static_cast<lapack_int>(ipiv[i]);
  }
  return out;
}

}  // namespace trnsolver::detail
