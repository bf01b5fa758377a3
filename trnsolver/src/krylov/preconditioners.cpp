// Jacobi, block-Jacobi (LAPACK getrf/getrs on each diagonal block) and SSOR(ω) preconditioners for a
// dense matrix. Each copies what it needs, so the returned operator does not refer to the matrix.
#include "common.hpp"

#include <trncore/error.hpp>

#include <lapacke.h>

#include <limits>
#include <memory>

namespace trnsolver {

namespace {

using namespace detail;

std::string str(std::int64_t v) { return std::to_string(v); }

template <class T>
std::vector<T> checked_diagonal(const char* fn, trncore::MatrixView<const T> a, const char* hint) {
  check_square(fn, a.rows(), a.cols());
  std::vector<T> d(static_cast<std::size_t>(a.rows()));
  for (std::int64_t i = 0; i < a.rows(); ++i) {
    d[static_cast<std::size_t>(i)] = a(i, i);
    if (a(i, i) == 0 || !std::isfinite(a(i, i)))
      throw trncore::InvalidArgument(fn,
                                     "the diagonal entry a(" + str(i) + ", " + str(i) + ") = " +
                                         trncore::detail::sci(static_cast<double>(a(i, i))) + " is zero or not finite",
                                     hint);
  }
  return d;
}

template <class T>
LinearOperator<T> make_jacobi(trncore::MatrixView<const T> a) {
  auto inv = std::make_shared<std::vector<T>>(checked_diagonal(
      "trnsolver::jacobi_preconditioner", a, "Jacobi needs a nonzero diagonal; try block_jacobi_preconditioner"));
  for (T& d : *inv) d = T(1) / d;
  return LinearOperator<T>(a.rows(), [inv](std::span<const T> r, std::span<T> z) {
    for (std::size_t i = 0; i < z.size(); ++i) z[i] = (*inv)[i] * r[i];
  });
}

lapack_int getrf(lapack_int n, double* a, lapack_int* ipiv) {
  return LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
lapack_int getrf(lapack_int n, float* a, lapack_int* ipiv) {
  return LAPACKE_sgetrf(LAPACK_COL_MAJOR, n, n, a, n, ipiv);
}
lapack_int getrs(lapack_int n, const double* a, const lapack_int* ipiv, double* b) {
  return LAPACKE_dgetrs(LAPACK_COL_MAJOR, 'N', n, 1, a, n, ipiv, b, n);
}
lapack_int getrs(lapack_int n, const float* a, const lapack_int* ipiv, float* b) {
  return LAPACKE_sgetrs(LAPACK_COL_MAJOR, 'N', n, 1, a, n, ipiv, b, n);
}

template <class T>
LinearOperator<T> make_block_jacobi(trncore::MatrixView<const T> a, std::int64_t block_size) {
  constexpr const char* fn = "trnsolver::block_jacobi_preconditioner";
  check_square(fn, a.rows(), a.cols());
  if (block_size < 1)
    throw trncore::InvalidArgument(fn, "block_size = " + str(block_size) + " is below 1",
                                   "use a block size >= 1 (1 is Jacobi; n is a full LU solve)");
  const std::int64_t n = a.rows();
  const std::int64_t bs = std::min<std::int64_t>(block_size, std::max<std::int64_t>(n, 1));
  if (bs > std::numeric_limits<lapack_int>::max() / std::max<std::int64_t>(bs, 1))
    throw trncore::InvalidArgument(fn, "block_size = " + str(bs) + " exceeds LAPACK's 32-bit integers",
                                   "use a smaller block size");
  struct Factors {
    std::int64_t n, bs;
    std::vector<T> lu;                // blocks one after the other, each col-major nb × nb
    std::vector<lapack_int> ipiv;     // n pivots, block by block
    std::vector<std::int64_t> start;  // offset of block k in lu
  };
  auto f = std::make_shared<Factors>();
  f->n = n;
  f->bs = bs;
  f->ipiv.resize(static_cast<std::size_t>(n));
  for (std::int64_t r0 = 0; r0 < n; r0 += bs) {
    const std::int64_t nb = std::min(bs, n - r0);
    const auto off = static_cast<std::int64_t>(f->lu.size());
    f->start.push_back(off);
    f->lu.resize(static_cast<std::size_t>(off + nb * nb));
    T* blk = f->lu.data() + off;
    for (std::int64_t j = 0; j < nb; ++j)
      for (std::int64_t i = 0; i < nb; ++i) {
        const T v = a(r0 + i, r0 + j);
        if (!std::isfinite(v))
          throw trncore::InvalidArgument(fn,
                                         "a(" + str(r0 + i) + ", " + str(r0 + j) +
                                             ") = " + trncore::detail::sci(static_cast<double>(v)) + " is not finite",
                                         "pass a matrix of finite values");
        blk[i + j * nb] = v;
      }
    const lapack_int info = getrf(static_cast<lapack_int>(nb), blk, f->ipiv.data() + r0);
    if (info != 0)
      throw trncore::InvalidArgument(fn,
                                     "diagonal block " + str(r0 / bs) + " (rows " + str(r0) + ".." + str(r0 + nb - 1) +
                                         ") is singular: getrf info = " + str(info),
                                     "use another block size, or a preconditioner that does not invert the blocks");
  }
  return LinearOperator<T>(n, [f](std::span<const T> r, std::span<T> z) {
    std::copy(r.begin(), r.end(), z.begin());
    std::size_t k = 0;
    for (std::int64_t r0 = 0; r0 < f->n; r0 += f->bs, ++k) {
      const std::int64_t nb = std::min(f->bs, f->n - r0);
      getrs(static_cast<lapack_int>(nb), f->lu.data() + f->start[k], f->ipiv.data() + r0, z.data() + r0);
    }
  });
}

template <class T>
LinearOperator<T> make_ssor(trncore::MatrixView<const T> a, double omega) {
  constexpr const char* fn = "trnsolver::ssor_preconditioner";
  check_square(fn, a.rows(), a.cols());
  if (!(omega > 0 && omega < 2))
    throw trncore::InvalidArgument(fn, "omega = " + trncore::detail::sci(omega) + " is outside (0, 2)",
                                   "use 0 < omega < 2 (omega = 1 is symmetric Gauss-Seidel)");
  const std::vector<T> d = checked_diagonal(fn, a, "SSOR divides by the diagonal; try block_jacobi_preconditioner");
  const std::int64_t n = a.rows();
  auto copy = std::make_shared<std::vector<T>>(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) (*copy)[static_cast<std::size_t>(i * n + j)] = a(i, j);
  const T w = static_cast<T>(omega), scale = static_cast<T>(omega * (2 - omega));
  return LinearOperator<T>(n, [copy, n, w, scale](std::span<const T> r, std::span<T> z) {
    const T* m = copy->data();
    // (D + ωL) u = r, then u := D u, then (D + ωU) z = u, then z := ω(2 − ω) z.
    for (std::int64_t i = 0; i < n; ++i) {
      T s = 0;
      for (std::int64_t j = 0; j < i; ++j) s += m[i * n + j] * z[static_cast<std::size_t>(j)];
      z[static_cast<std::size_t>(i)] = (r[static_cast<std::size_t>(i)] - w * s) / m[i * n + i];
    }
    for (std::int64_t i = 0; i < n; ++i) z[static_cast<std::size_t>(i)] *= m[i * n + i];
    for (std::int64_t i = n; i-- > 0;) {
      T s = 0;
      for (std::int64_t j = i + 1; j < n; ++j) s += m[i * n + j] * z[static_cast<std::size_t>(j)];
      z[static_cast<std::size_t>(i)] = (z[static_cast<std::size_t>(i)] - w * s) / m[i * n + i];
    }
    for (T& e : z) e *= scale;
  });
}

}  // namespace

LinearOperator<double> jacobi_preconditioner(trncore::MatrixView<const double> a) { return make_jacobi(a); }
LinearOperator<float> jacobi_preconditioner(trncore::MatrixView<const float> a) { return make_jacobi(a); }
LinearOperator<double> block_jacobi_preconditioner(trncore::MatrixView<const double> a, std::int64_t block_size) {
  return make_block_jacobi(a, block_size);
}
LinearOperator<float> block_jacobi_preconditioner(trncore::MatrixView<const float> a, std::int64_t block_size) {
  return make_block_jacobi(a, block_size);
}
LinearOperator<double> ssor_preconditioner(trncore::MatrixView<const double> a, double omega) {
  return make_ssor(a, omega);
}
LinearOperator<float> ssor_preconditioner(trncore::MatrixView<const float> a, double omega) {
  return make_ssor(a, omega);
}

}  // namespace trnsolver
