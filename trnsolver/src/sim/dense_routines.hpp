#pragma once
// getrf, potrf and syevd on the sim backend: the blocked fp32 factorizations of src/sim, whose trailing
// updates are trnblas sim GEMMs in the caller's math mode (bf16 inputs with fp32 PSUM, fp32, compensated, …)
// and whose panels are fp32 with every operation rounded on its own (the VectorEngine's arithmetic), and
// the cyclic Jacobi eigensolver of jacobi.hpp. The callers have checked their enum arguments (uplo, job).

#include <trnsolver/dense.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// The options the triangular-solve routines (getrs, potrs, gecon) run with: on Options::backend = sim, float
/// data solve with the sim factors in fp32 on the host (the VectorEngine's precision, not modelled
/// instruction by instruction); otherwise `options` unchanged. @throws NotSupported for double data on sim.
template <class T>
trncore::Options solves_on_host(const char* f, const trncore::Options& options);

/// getrf for Options::backend = sim: square float matrices (the TensorEngine has no fp64).
/// @throws NotSupported for double data, m ≠ n or a target_forward_error; the checks of getrf otherwise.
template <class T>
std::int64_t sim_getrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                       const trncore::Options& options);

/// syevd for Options::backend = sim: float matrices, by the cyclic Jacobi of eigh_jacobi (fp32 VectorEngine
/// arithmetic) or the blocked tridiagonal reduction + implicit QL + GEMM back transformation (method; automatic:
/// Jacobi up to n = 128). Returns 0, or 1 when Jacobi or QL did not converge.
template <class T>
std::int64_t sim_syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                       EighMethod method, const trncore::Options& options);

/// syevd's tridiagonal path (float, checked by sim_syevd): eigenvalues ascending into w, and with `vectors`
/// the eigenvectors as the columns of the stored matrix a (caller's layout). Returns 0, or 1 when QL did not
/// converge.
std::int64_t sim_syevd_tridiagonal(Layout layout, bool vectors, Uplo uplo, std::int64_t n, float* a, std::int64_t lda,
                                   float* w, const trncore::Options& options);

/// sygvd for Options::backend = sim: float matrices; B = L·Lᵀ by the blocked Cholesky, C = L⁻¹·A·L⁻ᵀ by fp32
/// triangular solves, C's eigenpairs by eigh_jacobi, Z = L⁻ᵀ·Y. Returns 0, n + i when B's leading minor of
/// order i is not positive definite, or 1 when Jacobi did not converge.
template <class T>
std::int64_t sim_sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b,
                       std::int64_t ldb, T* w, const trncore::Options& options);

/// gesdd for Options::backend = sim: float matrices, by one-sided Jacobi; Job::full completes the thin U
/// (m > n) or Vᵀ (m < n) to a square orthogonal matrix with the trailing columns of the Q of its blocked QR.
/// @throws NotSupported for double data.
template <class T>
std::int64_t sim_gesdd(Layout layout, Job job, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* s, T* u,
                       std::int64_t ldu, T* vt, std::int64_t ldvt, const trncore::Options& options);

/// geqrf for Options::backend = sim: float matrices of any shape and layout (LAPACK's output format, so the
/// host orgqr/ormqr-style consumers accept it).
template <class T>
void sim_geqrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau,
               const trncore::Options& options);

/// gels for Options::backend = sim: float data, both trans, any shape, by one blocked Householder QR of A
/// (m ≥ n) or Aᵀ (m < n) whose trailing updates and applications of Q/Qᵀ to B are sim GEMMs. Returns 0, or
/// i > 0 when R(i−1, i−1) is exactly zero (A rank deficient; B unchanged).
template <class T>
std::int64_t sim_gels(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a,
                      std::int64_t lda, T* b, std::int64_t ldb, const trncore::Options& options);

/// gelsd for Options::backend = sim: float data, the minimum-norm solution from the one-sided Jacobi SVD
/// with the products by Uᵣᵀ and Vᵣ as sim GEMMs. Returns 0, or the SVD's 1 when Jacobi did not converge.
template <class T>
std::int64_t sim_gelsd(Layout layout, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                       std::int64_t ldb, T* s, T rcond, std::int64_t* rank, const trncore::Options& options);

/// gees for Options::backend = sim: float data; blocked Hessenberg reduction with sim GEMM updates, then the
/// Francis double-shift QR iteration in VectorEngine fp32 (LAPACK's standardized 2×2 blocks). Returns 0, or
/// i > 0 when the iteration did not converge (wr/wi i…n−1 hold the converged eigenvalues). The caller checked job.
template <class T>
std::int64_t sim_gees(Layout layout, EigJob job, std::int64_t n, T* a, std::int64_t lda, T* wr, T* wi, T* vs,
                      std::int64_t ldvs, const trncore::Options& options);

/// sytrf for Options::backend = sim: float data, either triangle and layout, by the blocked Bunch–Kaufman LDLᵀ
/// (fp32 panels, trailing updates as sim GEMMs) in LAPACK's format (the host sytrs solves with it). Returns 0, or
/// i > 0 when D(i−1, i−1) is exactly zero.
template <class T>
std::int64_t sim_sytrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                       const trncore::Options& options);

/// potrf for Options::backend = sim: float matrices, either triangle and layout.
template <class T>
std::int64_t sim_potrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda,
                       const trncore::Options& options);

}  // namespace trnsolver::detail
