#pragma once
// The distributed kernels behind trnsolver::mpi::solve and hpl_mxp: the block-cyclic LU without pivoting in
// fp32 (or with sim TensorEngine trailing updates), triangular solves with its factors, and row products with
// the fp64 A — every reduction in global block order, every vector replicated on every rank.

#include <trnsolver/mpi/solve.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace trnsolver::mpi::detail {

/// The block-cyclic layout of an n×n matrix in nb×nb blocks with source (0, 0) on `grid`, and index maps.
struct Cyclic {
  const ProcessGrid* grid = nullptr;
  std::int64_t n = 0, nb = 1;
  int p = 1, q = 1, row = 0, col = 0;
  std::int64_t mloc = 0, nloc = 0;  // local rows and columns on this process
  Cyclic(const ProcessGrid& g, std::int64_t n_, std::int64_t nb_);
  std::int64_t blocks() const { return (n + nb - 1) / nb; }
  /// Rows (or columns) of global index < g held by process coordinate `ip` of `np`.
  std::int64_t below(std::int64_t g, int ip, int np) const;
  /// The global index of local index l on process coordinate ip of np.
  std::int64_t global(std::int64_t l, int ip, int np) const { return ((l / nb) * np + ip) * nb + l % nb; }
};

/// Every rank's local rows of a vector gathered over the process column and laid out globally: `local`
/// holds k·mloc values (k vectors of mloc, vector-major); the result k·n values (k vectors of n).
std::vector<double> replicate_rows(const Cyclic& c, const std::vector<double>& local, std::int64_t k);

/// Column `col` of a distributed n×k matrix with A's row blocking, replicated on every rank. Collective.
std::vector<double> replicate_column(const Cyclic& c, DistMatrix<const double> b, std::int64_t col);
/// Writes column `col` of x from the replicated v (this process's entries only).
void write_column(const Cyclic& c, DistMatrix<double> x, std::int64_t col, const std::vector<double>& v);

/// The distributed low-precision LU without pivoting (A = L·U, unit lower L), fp32 local factors.
struct DistLu {
  Cyclic cy;
  std::vector<float> f;  // local factors, column-major, leading dimension ld
  std::int64_t ld = 1;
  std::vector<float> diag;  // every diagonal block K (nb×nb, leading dimension nb) at K·nb², on every rank
  std::int64_t info = 0;    // 0 or the first exactly zero pivot (1-based, the same on every rank)
  FactorPrecision precision = FactorPrecision::fp32;
  bool sim = false;
  bool gemms_certified = true;  // every trailing/panel GEMM certified by trnblas (the same on every rank)
  std::string method;
  explicit DistLu(const Cyclic& c) : cy(c) {}

  /// v = Â⁻¹v (transpose false) or Â⁻ᵀv in fp64 arithmetic with the fp32 factors; v replicated (n values)
  /// and the same bits on every rank afterwards. Collective.
  void solve(double* v, bool transpose) const;
  /// Pᵀ|L̂||Û|·1 as Factorization::lu_magnitude (rounded upward in effect), replicated; empty on every rank when
  /// a factor entry is subnormal, non-finite or a zero diagonal. Collective.
  std::vector<double> lu_magnitude() const;
  /// Factorization::backward_error_constant() for this factorization's arithmetic.
  double backward_error_constant() const;
};

/// Factors the local part of A (lld × local columns, fp64) rounded to fp32. Collective.
/// `options`: the trailing updates' backend and threads. `certify`: gemms_certified says whether every GEMM met
/// trnblas's certificate (host: its conditions checked block by block around direct OpenBLAS calls; sim: through
/// trnblas::gemm's report); false skips the checks (gemms_certified false). The same bits either way.
DistLu factorize(const Cyclic& c, const double* a, std::int64_t lda, FactorPrecision precision,
                 const trncore::Options& options, bool certify = true);

/// Products of the fp64 A with a replicated x: y = A x (and, with `scale`, s = |A||x|), each row summed as
/// Σ_J (Σ_{j∈J} a_ij x_j), J the global column blocks in ascending order, the inner sums j ascending —
/// the same bits for every grid. Results replicated. `absolute`: y = |A|·x instead (row sums with x = 1).
/// Collective.
void row_products(const Cyclic& c, const double* a, std::int64_t lda, const double* x, std::vector<double>& y,
                  std::vector<double>* scale, bool absolute = false);

}  // namespace trnsolver::mpi::detail
