// The showcase's trnsparse part: reads the Matrix Market file installed with trnsparse (found through
// trnsparse::data_dir(), which the installed package config points at <prefix>/share/trnsparse), solves
// A x = b with conjugate gradients (Jacobi) and with CHOLMOD's sparse Cholesky, and prints both relative
// residuals ‖b − A x‖₂/‖b‖₂ and the distance between the two solutions.
#include <trnsparse/trnsparse.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace {

double relative_residual(const trnsparse::Csr<double>& a, const std::vector<double>& x, const std::vector<double>& b) {
  std::vector<double> r(b);
  trnsparse::spmv<double, std::int32_t>(trnblas::Op::no_trans, -1.0, a, x, 1.0, r);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += r[i] * r[i];
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

}  // namespace

void showcase_trnsparse() {
  const std::string path = trnsparse::data_dir() + "/poisson2d_32.mtx";
  std::printf("\ntrnsparse: CG and CHOLMOD on %s\n", path.c_str());
  try {
    trnsparse::MmHeader header;
    const auto a = trnsparse::to_csr(trnsparse::read_matrix_market_file<double, std::int32_t>(path, &header));
    std::printf("  %s\n", trnsparse::sparsity_stats(a).to_string().c_str());
    // b = A·1, so the exact solution is the vector of ones.
    std::vector<double> ones(static_cast<std::size_t>(a.rows), 1.0), b(ones.size());
    trnsparse::spmv<double, std::int32_t>(trnblas::Op::no_trans, 1.0, a, ones, 0.0, b);

    std::vector<double> x_cg(b.size(), 0.0);
    trnsolver::KrylovOptions options;
    options.rtol = 1e-12;
    const auto cg = trnsparse::cg<double, std::int32_t>(a, b, x_cg, options, trnsparse::jacobi_preconditioner(a));
    std::printf("  CG (Jacobi):       %s after %lld iterations, relative residual %.2e\n",
                std::string(trnsolver::to_string(cg.reason)).c_str(), static_cast<long long>(cg.iterations),
                relative_residual(a, x_cg, b));

    const trnsparse::Cholesky cholesky(a);
    std::vector<double> x_chol(b.size());
    if (cholesky.info() != 0) {
      std::printf("  CHOLMOD: the matrix is not positive definite (info %d)\n", cholesky.info());
      return;
    }
    cholesky.solve(b, x_chol);
    std::printf("  CHOLMOD Cholesky:  nnz(L) = %lld, relative residual %.2e\n",
                static_cast<long long>(cholesky.factor_nonzeros()), relative_residual(a, x_chol, b));
    double diff = 0, err = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      diff = std::max(diff, std::fabs(x_cg[i] - x_chol[i]));
      err = std::max(err, std::fabs(x_chol[i] - 1.0));
    }
    std::printf("  max |x_cg - x_chol| = %.2e, max |x_chol - 1| = %.2e\n", diff, err);
  } catch (const std::exception& e) {
    std::printf("  trnsparse showcase failed: %s\n", e.what());
  }
}
