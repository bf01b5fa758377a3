#pragma once
/// @file
/// Dense factorizations and drivers: LU, Cholesky, LDLᵀ, QR, least squares, SVD, pinv, symmetric and
/// generalized eigensolvers, real Schur form, condition estimation, inverse square roots of SPD matrices.
///
/// Host backend: a thin checked layer over LAPACKE (the C interface to the LAPACK that liblapack resolves
/// to, OpenBLAS's here), in the style of LAPACK++. Full reference: docs/trnsolver-dense.md.
///
/// Conventions shared by every function in this file:
/// - T is float or double. Matrices are stored in `layout` (trncore::Layout, both layouts everywhere) with
///   a leading dimension: element (i, j) is a[i·lda + j] (row-major) or a[i + j·lda] (column-major).
///   Every matrix of one call is in the same layout.
/// - Results of a row-major call mean what they mean for a column-major call (LAPACKE's row-major
///   semantics): the same factors, pivots and vectors, only stored row by row.
/// - Pivot arrays are int64_t and 1-based, as in LAPACK: row i (0-based) was interchanged with row
///   ipiv[i] − 1.
/// - Numerical outcomes are returned, never thrown: `info` = 0 on success, > 0 with LAPACK's meaning (a
///   zero pivot, a leading minor that is not positive definite, no convergence, ...). Functions that
///   cannot fail numerically return void.
/// - Bad arguments throw: trncore::InvalidArgument for negative sizes, a null pointer with a nonzero
///   size, non-finite input to an iterative routine (SVD, eigensolvers, Schur, gelsd, pinv, inverse
///   square roots), a NaN rcond/anorm or invalid options; trncore::DimensionMismatch for a leading
///   dimension below its minimum, a pivot/tau/eigenvalue array that is too short, views whose shapes or
///   layouts do not agree; trncore::NotSupported for sizes beyond LAPACK's 32-bit integers, the sim
///   backend (except getrf, getrs, potrf, potrs, sytrf, sytrs, gecon, geqrf, gels, gelsd, lstsq, gesdd/svd, pinv,
///   syevd/eigh, sygvd/eigh_generalized, gees/schur and inv_sqrt_spd below; getrs/potrs/sytrs/gecon solve with the factors in fp32 on the host), a math mode other than automatic or the data's own precision, or a target_forward_error.
/// - Options::backend = sim, float data: syevd/eigh run the cyclic Jacobi of <trnsolver/jacobi.hpp> (fp32
///   VectorEngine arithmetic; info 1 if it does not converge) up to n = 128 and the blocked tridiagonal + QL
///   path beyond (EighMethod selects either), sygvd/eigh_generalized reduce with the blocked
///   Cholesky of B and solve the reduced problem by Jacobi; gesdd/svd run one-sided Jacobi (Job::full completes the
///   shorter factor with the Q of its blocked QR); gels factors A (m ≥ n) or Aᵀ (m < n) by the blocked QR and
///   applies Qᵀ/Q to B as sim GEMMs, solving with R in fp32; gelsd (and lstsq's svd method) solve with the
///   one-sided Jacobi SVD, the products by Uᵣᵀ and Vᵣ as sim GEMMs; sytrf runs a blocked Bunch–Kaufman LDLᵀ (lasyf-style fp32 panels, trailing
///   updates L₂₁·W₂₁ᵀ as sim GEMMs; LAPACK's format, upper via the reversed matrix) and sytrs solves with it in
///   fp32 on the host; gees/schur reduce to Hessenberg form by
///   blocks (lahr2-style panels in VectorEngine fp32, trailing updates as sim GEMMs) and run the Francis
///   double-shift QR in fp32 with LAPACK's standardized 2×2 blocks; geqrf runs a blocked Householder QR whose
///   compact-WY trailing updates are sim GEMMs (LAPACK's output format); inv_sqrt_spd's products are sim
///   GEMMs in options.core.math_mode; getrf (square) and potrf run the blocked right-looking
///   factorizations of the NeuronCore model — 128-column fp32 panels with every operation rounded on its
///   own (VectorEngine arithmetic), trailing updates as trnblas sim GEMMs in options.math_mode (bf16, fp32,
///   compensated, …) — bitwise identical for any thread count. Their backward error is the host bound plus
///   the GEMM mode's single-pass bound ε relative to |L||U| (|L||Lᵀ|): (γ_{n+1}(u₃₂) + ε)·|L||U|.
///   Messages read "trnsolver::<function>: <what is wrong, with the values>: <what to do>".
/// - Workspaces are queried (lwork = −1) and allocated inside each call. Operands of one call must not
///   share storage (not checked: LAPACK's rule).
/// - Accuracy: the backward-error bounds LAPACK documents, stated on each function with c·n·u terms
///   (u = 2⁻²⁴ float, 2⁻⁵³ double); references in docs/trnsolver-dense.md.

#include <trnblas/types.hpp>
#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace trnsolver {

using trnblas::Diag;
using trnblas::Op;
using trnblas::Side;
using trnblas::Uplo;
using trncore::Layout;

/// What an SVD computes (LAPACK gesdd's jobz): singular values only ('N'), the thin factors U m×k and
/// Vᵀ k×n with k = min(m, n) ('S'), or the full square U m×m and Vᵀ n×n ('A').
enum class Job : std::uint8_t { values_only, thin, full };
/// What an eigensolver or Schur decomposition computes: eigenvalues only, or vectors too (jobz 'N'/'V').
enum class EigJob : std::uint8_t { values_only, vectors };
/// A matrix norm (LAPACK lange's norm): one = max column sum, inf = max row sum, fro = Frobenius,
/// max = largest absolute entry (not a consistent matrix norm).
enum class Norm : std::uint8_t { one, inf, fro, max };
/// How lstsq solves: QR (gels; A must have full rank) or SVD (gelsd; any rank, minimum-norm solution).
enum class LstsqMethod : std::uint8_t { qr, svd };
/// Which algorithm syevd/eigh run on the sim backend (the host backend always runs LAPACK's syevd): cyclic
/// Jacobi (eigenvalues of graded matrices to high relative accuracy; O(n³) work per sweep, all VectorEngine),
/// blocked Householder tridiagonalization + implicit QL + back transformation (the scalable path: O(n³) once,
/// the reduction's trailing updates and the back transformation as TensorEngine GEMMs; absolute accuracy
/// u·‖A‖), or automatic: Jacobi up to n = 128 (one tile), tridiagonal beyond.
enum class EighMethod : std::uint8_t { automatic, jacobi, tridiagonal };
/// How inv_sqrt_spd computes A^{-1/2}: from the eigendecomposition (syevd), or by the coupled
/// Newton–Schulz iteration (GEMMs only, the Trainium-friendly form).
enum class InvSqrtMethod : std::uint8_t { eigh, newton_schulz };

/// "values_only", "thin", "full". Never throws.
std::string_view to_string(Job job) noexcept;
/// "values_only", "vectors". Never throws.
std::string_view to_string(EigJob job) noexcept;
/// "one", "inf", "fro", "max". Never throws.
std::string_view to_string(Norm norm) noexcept;
/// "qr", "svd". Never throws.
std::string_view to_string(LstsqMethod method) noexcept;
/// "eigh", "newton_schulz". Never throws.
std::string_view to_string(InvSqrtMethod method) noexcept;
/// "automatic", "jacobi", "tridiagonal". Never throws.
std::string_view to_string(EighMethod method) noexcept;
///@{
/// Parse to_string's names. @throws trncore::ParseError naming the text and the accepted names.
Job parse_job(std::string_view text);
EigJob parse_eig_job(std::string_view text);
Norm parse_norm(std::string_view text);
LstsqMethod parse_lstsq_method(std::string_view text);
InvSqrtMethod parse_inv_sqrt_method(std::string_view text);
EighMethod parse_eigh_method(std::string_view text);
///@}

/// An owned dense rows×cols matrix in `layout` with ld = cols (row-major) or rows (column-major), at
/// least 1: what the convenience drivers return.
template <class T>
struct DenseMatrix {
  std::vector<T> data;  ///< the elements, rows·cols of them, in `layout` with leading dimension ld()
  ///@{
  /// The shape.
  std::int64_t rows = 0, cols = 0;
  ///@}
  Layout layout = Layout::row_major;  ///< row-major or column-major storage

  DenseMatrix() = default;
  /// A zero-filled rows×cols matrix. @throws trncore::InvalidArgument for negative sizes.
  DenseMatrix(std::int64_t rows, std::int64_t cols, Layout layout);
  /// The leading dimension: cols (row-major) or rows (column-major), at least 1.
  std::int64_t ld() const noexcept {
    const std::int64_t l = layout == Layout::row_major ? cols : rows;
    return l > 0 ? l : 1;
  }
  /// Element (i, j), unchecked (0 ≤ i < rows, 0 ≤ j < cols).
  T& operator()(std::int64_t i, std::int64_t j) noexcept {
    return data[static_cast<std::size_t>(layout == Layout::row_major ? i * ld() + j : i + j * ld())];
  }
  /// Element (i, j), read-only, unchecked.
  const T& operator()(std::int64_t i, std::int64_t j) const noexcept {
    return data[static_cast<std::size_t>(layout == Layout::row_major ? i * ld() + j : i + j * ld())];
  }
  /// A view of the matrix (valid while it lives and data is not reallocated), for the view overloads.
  trncore::MatrixView<T> view() { return {data.data(), rows, cols, ld(), layout}; }
  /// A read-only view of the matrix.
  trncore::MatrixView<const T> view() const { return {data.data(), rows, cols, ld(), layout}; }
};

// ---------------------------------------------------------------------------------------------------
// LU with partial pivoting
// ---------------------------------------------------------------------------------------------------

/// LU factorization with partial pivoting (LAPACK ?getrf): A = P·L·U with A m×n, L m×min(m,n) unit lower
/// trapezoidal, U min(m,n)×n upper trapezoidal, both overwriting A (L's unit diagonal not stored).
/// @param layout   storage order of A
/// @param m, n     rows and columns of A (≥ 0)
/// @param a        A on entry; L and U on exit
/// @param lda      leading dimension of A (≥ max(1, row length in `layout`))
/// @param ipiv  min(m, n) 1-based pivots: row i was interchanged with row ipiv[i] − 1.
/// @param options  backend (sim: square A only), math mode and threads as the file header describes; no
///                 target_forward_error
/// @return 0, or i > 0 when U(i−1, i−1) is exactly zero: the factorization is complete but U is singular
///         (no exception; solving with it would divide by zero).
/// @throws as the file header says (lda below its minimum, null a or ipiv with m, n > 0, ...).
/// Accuracy: P·L̂·Û = A + ΔA with |ΔA| ≤ γ_n·|L̂||Û| componentwise (Higham, ASNA 2nd ed., Thm 9.3; γ_n =
/// n·u/(1 − n·u)); normwise ‖ΔA‖ ≤ γ_n·ρ·‖A‖·n with ρ the growth factor, small in practice.
/// Row-major: computed by LAPACKE's row-major interface, which factors a transposed copy (cost measured
/// in docs/benchmarks.md).
template <class T>
std::int64_t getrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options = {});

/// Solves op(A)·X = B (LAPACK ?getrs) with the LU of getrf (n×n), B n×nrhs overwritten by X.
/// @param layout  storage order of the LU and of B
/// @param trans  no_trans solves A·X = B; trans and conj_trans solve Aᵀ·X = B.
/// @param n       order of A (≥ 0)
/// @param nrhs    columns of B (≥ 0)
/// @param a       getrf's L and U
/// @param lda     leading dimension of a
/// @param ipiv   getrf's n pivots; each must lie in [1, n] (checked: garbage pivots would index outside B).
/// @param b       B on entry, X on exit
/// @param ldb     leading dimension of B
/// @param options backend, threads (as getrf)
/// Accuracy: (A + ΔA)·x̂ = b with |ΔA| ≤ (3γ_n + γ_n²)·|L̂||Û| per column (Higham Thm 9.4). A zero on
/// U's diagonal gives inf/NaN in X (getrf's info says so beforehand).
template <class T>
void getrs(Layout layout, Op trans, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?gesv): getrf on A (overwritten by its LU), then getrs on B (overwritten by X).
/// @return getrf's info; when it is > 0, B is left unchanged (as LAPACK).
template <class T>
std::int64_t gesv(Layout layout, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, std::int64_t* ipiv, T* b,
                  std::int64_t ldb, const trncore::Options& options = {});

/// A norm of the m×n matrix A (LAPACK ?lange): one, inf, fro or max (0 for an empty matrix). Row-major
/// needs no copy (the 1-norm of A is the ∞-norm of its stored transpose).
template <class T>
T lange(Layout layout, Norm norm, std::int64_t m, std::int64_t n, const T* a, std::int64_t lda,
        const trncore::Options& options = {});

/// Reciprocal condition number estimate 1/(‖A‖·‖A⁻¹‖) in the 1-norm (norm = one) or ∞-norm (norm = inf)
/// from getrf's LU of the n×n matrix A (LAPACK ?gecon, Higham's estimator ?lacn2).
/// @param layout  storage order of the LU
/// @param norm    Norm::one or Norm::inf
/// @param n       order of A (≥ 0)
/// @param lu      getrf's L and U of A
/// @param lda     leading dimension of lu
/// @param anorm  ‖A‖ in the same norm, of the original A (use lange before getrf); must be ≥ 0 and not NaN.
/// @param options backend, threads (as getrf)
/// @param rcond  receives the estimate; 0 when anorm = 0 or U is exactly singular, 1 for n = 0.
/// @return 0, or LAPACK's info > 0 (newer LAPACKs: the estimate overflowed or was NaN).
/// @throws InvalidArgument for norm = fro or max, a negative or NaN anorm; else as the file header.
/// Accuracy: the estimate of ‖A⁻¹‖ is a lower bound of the true norm (up to rounding), in practice
/// within a factor 3 and never more than n below it (LAPACK Working Note 36; Higham, ASNA Ch. 15).
template <class T>
std::int64_t gecon(Layout layout, Norm norm, std::int64_t n, const T* lu, std::int64_t lda,
                   std::type_identity_t<T> anorm, T* rcond, const trncore::Options& options = {});

// ---------------------------------------------------------------------------------------------------
// Cholesky and LDLᵀ
// ---------------------------------------------------------------------------------------------------

/// Cholesky factorization of the symmetric positive definite n×n A (LAPACK ?potrf): A = L·Lᵀ (uplo =
/// lower) or Uᵀ·U (upper), the factor overwriting the `uplo` triangle; the other one is not referenced.
/// @return 0, or i > 0 when the leading minor of order i is not positive definite (factorization
///         stopped; no exception).
/// Accuracy: R̂ᵀR̂ = A + ΔA with |ΔA| ≤ γ_{n+1}·|R̂ᵀ||R̂| (Higham Thm 10.3), hence ‖ΔA‖₂ ≤ n·γ_{n+1}·‖A‖₂.
/// Row-major: no copy (the stored transpose is the same symmetric matrix with the other triangle).
template <class T>
std::int64_t potrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda,
                   const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?potrs) with potrf's factor of A (n×n), B n×nrhs overwritten by X.
/// Accuracy: (A + ΔA)·x̂ = b with |ΔA| ≤ γ_{3n+1}·|R̂ᵀ||R̂| per column (Higham Thm 10.4).
/// Row-major: two triangular solves (trnblas::trsm) on the row-major data, no copy.
template <class T>
void potrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda, T* b,
           std::int64_t ldb, const trncore::Options& options = {});

/// Solves A·X = B for SPD A (LAPACK ?posv): potrf then potrs. @return potrf's info (B unchanged if > 0).
template <class T>
std::int64_t posv(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                  std::int64_t ldb, const trncore::Options& options = {});

/// LDLᵀ factorization of the symmetric (indefinite) n×n A with Bunch–Kaufman diagonal pivoting (LAPACK
/// ?sytrf): A = U·D·Uᵀ (upper) or L·D·Lᵀ (lower), D block diagonal with 1×1 and 2×2 blocks, factors in
/// the `uplo` triangle. ipiv (n entries) as LAPACK: ipiv[k] > 0 is a 1×1 block with rows k and
/// ipiv[k] − 1 interchanged; a 2×2 block has ipiv[k] = ipiv[k+1] = −p < 0 (lower: rows k+1 and p − 1;
/// upper: rows k and p − 1).
/// @return 0, or i > 0 when D(i−1, i−1) is exactly zero (D singular; no exception).
/// Accuracy: backward stable with the γ_n-type bound of Higham Thm 11.3 (growth ≤ 2.57^{n−1}, modest in
/// practice); ‖A − L̂D̂L̂ᵀ‖ ≤ c·n·u·‖|L̂||D̂||L̂ᵀ|‖.
template <class T>
std::int64_t sytrf(Layout layout, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, std::int64_t* ipiv,
                   const trncore::Options& options = {});

/// Solves A·X = B (LAPACK ?sytrs) with sytrf's factorization and pivots; B n×nrhs overwritten by X.
/// The pivots are checked for the structure sytrf produces (indices in range, 2×2 blocks paired).
template <class T>
void sytrs(Layout layout, Uplo uplo, std::int64_t n, std::int64_t nrhs, const T* a, std::int64_t lda,
           const std::int64_t* ipiv, T* b, std::int64_t ldb, const trncore::Options& options = {});

// ---------------------------------------------------------------------------------------------------
// QR and least squares
// ---------------------------------------------------------------------------------------------------

/// Householder QR of the m×n A (LAPACK ?geqrf): R (min(m,n)×n upper trapezoidal) overwrites A's upper
/// triangle, the Householder vectors v_i (v_i(i) = 1 implicit) lie below the diagonal, tau has
/// min(m, n) scalars; Q = H_0·H_1·…, H_i = I − tau_i·v_i·v_iᵀ.
/// Accuracy: A + ΔA = Q·R̂ with Q exactly orthogonal and ‖Δa_j‖₂ ≤ γ̃_{mn}·‖a_j‖₂ per column (Higham Thm
/// 19.4). Row-major: LAPACKE's transposed copy (the copy-free ?gelqf of the stored transpose measured
/// slower; docs/benchmarks.md).
template <class T>
void geqrf(Layout layout, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* tau,
           const trncore::Options& options = {});

/// Forms the m×n matrix Q with orthonormal columns (LAPACK ?orgqr) from the first k reflectors of
/// geqrf, overwriting A; m ≥ n ≥ k ≥ 0 (InvalidArgument otherwise). tau has k scalars.
/// Accuracy: ‖Q̂ᵀQ̂ − I‖ ≤ c·m·n·u. Row-major: LAPACKE's transposed copy.
template <class T>
void orgqr(Layout layout, std::int64_t m, std::int64_t n, std::int64_t k, T* a, std::int64_t lda, const T* tau,
           const trncore::Options& options = {});

/// Least squares or minimum-norm solution by QR/LQ (LAPACK ?gels) for full-rank A (m×n):
/// trans = no_trans: min ‖B − A·X‖ (m ≥ n) or the minimum-norm solution of A·X = B (m < n); trans =
/// trans: the same for Aᵀ. B is max(m, n)×nrhs: on entry the right-hand sides in its first rows, on exit
/// X in its first n (trans: m) rows; for overdetermined problems rows n… hold the residual's components
/// (their sum of squares per column is the residual norm squared). A is overwritten by its QR/LQ.
/// @return 0, or i > 0 when R(i−1, i−1) is exactly zero: A does not have full rank, no solution
///         computed (use gelsd). No exception.
/// Accuracy: the computed X solves a problem with relative backward error c·m·n·u in A and B (Higham
/// Thm 20.3).
template <class T>
std::int64_t gels(Layout layout, Op trans, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda,
                  T* b, std::int64_t ldb, const trncore::Options& options = {});

/// Minimum-norm least squares solution by SVD (LAPACK ?gelsd, divide and conquer), any rank: singular
/// values s_i ≤ rcond·s_max are treated as zero (rcond < 0: machine precision, as LAPACK). A (m×n) is
/// destroyed, B max(m, n)×nrhs as in gels; s receives min(m, n) singular values (descending), rank the
/// effective rank.
/// @return 0, or i > 0 when the SVD did not converge (i superdiagonals did not reach zero).
/// @throws InvalidArgument for a NaN rcond or non-finite A or B; else as the file header.
/// Accuracy: backward stable (the SVD's bound below); the solution is as accurate as the truncated
/// problem's conditioning s_max/s_rank allows.
template <class T>
std::int64_t gelsd(Layout layout, std::int64_t m, std::int64_t n, std::int64_t nrhs, T* a, std::int64_t lda, T* b,
                   std::int64_t ldb, T* s, std::type_identity_t<T> rcond, std::int64_t* rank,
                   const trncore::Options& options = {});

// ---------------------------------------------------------------------------------------------------
// SVD, pseudo-inverse
// ---------------------------------------------------------------------------------------------------

/// Singular value decomposition A = U·Σ·Vᵀ by divide and conquer (LAPACK ?gesdd). A (m×n) is destroyed;
/// s receives k = min(m, n) singular values, descending. job = values_only: u, vt not referenced (may be
/// null); thin: U m×k in u (ldu), Vᵀ k×n in vt (ldvt); full: U m×m, Vᵀ n×n.
/// @return 0, or i > 0 when the bidiagonal SVD did not converge.
/// @throws InvalidArgument for non-finite A; else as the file header.
/// Accuracy: Û·Σ̂·V̂ᵀ = A + ΔA with ‖ΔA‖₂ ≤ p(m,n)·u·‖A‖₂ and |σ̂_i − σ_i| ≤ p(m,n)·u·σ_1; Û, V̂
/// orthogonal to p(m,n)·u (LAPACK Users' Guide §4.9, p modest). Row-major: no copy (the SVD of the
/// stored transpose with U and Vᵀ exchanged).
template <class T>
std::int64_t gesdd(Layout layout, Job job, std::int64_t m, std::int64_t n, T* a, std::int64_t lda, T* s,
                   std::type_identity_t<T>* u, std::int64_t ldu, std::type_identity_t<T>* vt, std::int64_t ldvt,
                   const trncore::Options& options = {});

/// An SVD: s (k = min(m, n), descending), U and Vᵀ (empty for Job::values_only; m×k and k×n for thin;
/// m×m and n×n for full) in the input's layout, and gesdd's info.
template <class T>
struct SvdResult {
  std::vector<T> s;  ///< the k singular values, descending
  ///@{
  /// U and Vᵀ (see above; empty for Job::values_only).
  DenseMatrix<T> u, vt;
  ///@}
  std::int64_t info = 0;  ///< gesdd's info: 0, or > 0 when the iteration did not converge
};

/// The SVD of A (A is not modified; a copy is factored). As gesdd.
template <class T>
SvdResult<T> svd(trncore::MatrixView<const T> a, Job job = Job::thin, const trncore::Options& options = {});

/// A pseudo-inverse and the rank it used.
template <class T>
struct PinvResult {
  DenseMatrix<T> x;  ///< n×m, in the input's layout
  /// Singular values above the threshold rcond·s_max (0 when info > 0).
  std::int64_t rank = 0;
  std::int64_t info = 0;  ///< gesdd's info; x is zero when it is > 0
};

/// The Moore–Penrose pseudo-inverse A⁺ = V·Σ⁺·Uᵀ from the thin SVD: singular values s_i ≤ rcond·s_max are
/// treated as zero. rcond unset: max(m, n)·ε (numpy's default); must be ≥ 0 and not NaN.
/// Accuracy: A⁺ of a matrix within the SVD's backward error of A; the error in A⁺ grows with
/// s_max/s_rank (the retained condition number).
template <class T>
PinvResult<T> pinv(trncore::MatrixView<const T> a, std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                   const trncore::Options& options = {});

/// A least-squares solution.
template <class T>
struct LstsqResult {
  DenseMatrix<T> x;       ///< n×nrhs, in b's layout
  std::vector<T> s;       ///< singular values (method svd), empty for qr
  std::int64_t rank = 0;  ///< effective rank (svd); min(m, n) for qr when info = 0, 0 otherwise
  std::int64_t info = 0;  ///< gels's or gelsd's info
};

/// min ‖B − A·X‖ (minimum-norm X when underdetermined or rank deficient) for A m×n, B m×nrhs, leaving A
/// and B unchanged (numpy.linalg.lstsq). method = qr: gels (full rank needed; info > 0 otherwise, X zero);
/// svd: gelsd with rcond (unset: max(m, n)·ε; must not be NaN; < 0 means machine precision).
template <class T>
LstsqResult<T> lstsq(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                     LstsqMethod method = LstsqMethod::svd, std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                     const trncore::Options& options = {});

// ---------------------------------------------------------------------------------------------------
// Eigenvalue problems and Schur form
// ---------------------------------------------------------------------------------------------------

/// Eigenvalues (ascending, in w, n entries) and optionally orthonormal eigenvectors of the symmetric n×n
/// A by divide and conquer (LAPACK ?syevd), reading the `uplo` triangle. With vectors, A is overwritten
/// by them (column j of the stored matrix is the eigenvector of w[j], in either layout); otherwise A's
/// `uplo` triangle is destroyed.
/// @return 0, or i > 0 when the algorithm failed to converge.
/// @throws InvalidArgument for non-finite entries in the `uplo` triangle; else as the file header.
/// Accuracy: |λ̂_i − λ_i| ≤ p(n)·u·‖A‖₂ (absolute, not relative: tiny eigenvalues of graded matrices may
/// have large relative error), ‖A·ẑ_i − λ̂_i·ẑ_i‖ ≤ p(n)·u·‖A‖₂, ‖ẐᵀẐ − I‖ ≤ p(n)·u (LAPACK Users'
/// Guide §4.7). Row-major: no copy for the values (eigenvectors: one in-place n×n transposition).
template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   const trncore::Options& options = {});

/// syevd with the sim backend's algorithm chosen (EighMethod; the overload without it uses automatic).
/// Options::backend = sim, float data: jacobi as above; tridiagonal reduces by blocks of 128 columns (panels in
/// VectorEngine fp32, the rank-2·128 trailing updates as two sim GEMMs in options.math_mode), runs the
/// implicit QL of eigh_tridiagonal_ql with the rotations accumulated in fp32, and back-transforms the vectors
/// by the reflectors' compact-WY blocks as sim GEMMs; info 1 if QL does not converge.
/// Accuracy (tridiagonal, fp32 GEMMs): as the host bound with u = 2⁻²⁴, |λ̂_i − λ_i| ≤ p(n)·u·‖A‖₂; bf16 GEMMs
/// replace u by their single-pass bound (docs/trnblas-sim.md) in the reduction and back transformation.
/// @throws NotSupported for a method other than automatic on the host backend; InvalidArgument for an invalid
///         method; else as syevd.
template <class T>
std::int64_t syevd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* w,
                   EighMethod method, const trncore::Options& options = {});

/// The generalized symmetric-definite problem A·x = λ·B·x (LAPACK ?sygvd, itype 1) with A symmetric and
/// B symmetric positive definite (n×n, `uplo` triangles): w ascending; with vectors A is overwritten by
/// Z normalized so that ZᵀBZ = I. B is overwritten by its Cholesky factor.
/// @return 0; i ≤ n when syevd on the reduced problem failed to converge; n + i when the leading minor of
///         order i of B is not positive definite (as LAPACK; no exception).
/// Accuracy: eigenvalues with absolute error p(n)·u·‖B⁻¹‖₂·‖A‖₂ (LAPACK Users' Guide §4.7.2).
template <class T>
std::int64_t sygvd(Layout layout, EigJob job, Uplo uplo, std::int64_t n, T* a, std::int64_t lda, T* b, std::int64_t ldb,
                   T* w, const trncore::Options& options = {});

/// Real Schur form A = Z·T·Zᵀ (LAPACK ?gees, no sorting): T (overwriting A) is quasi upper triangular
/// with 1×1 blocks and 2×2 blocks in standard form (equal diagonal entries, off-diagonals of opposite
/// sign) for complex pairs; Z (n×n orthogonal, in vs; job = vectors) holds the Schur vectors. Eigenvalues
/// wr[i] + i·wi[i] in T's diagonal order, complex conjugate pairs adjacent with wi > 0 first.
/// @return 0, or i > 0 when the QR algorithm failed to compute all eigenvalues (wr/wi i… hold those that
///         converged, as LAPACK).
/// @throws InvalidArgument for non-finite A; vs null with job = vectors and n > 0; else as the header.
/// Accuracy: Z·T̂·Zᵀ = A + ΔA, ‖ΔA‖₂ ≤ p(n)·u·‖A‖₂, Z orthogonal to p(n)·u (Users' Guide §4.8).
template <class T>
std::int64_t gees(Layout layout, EigJob job, std::int64_t n, T* a, std::int64_t lda, std::type_identity_t<T>* wr,
                  std::type_identity_t<T>* wi, std::type_identity_t<T>* vs, std::int64_t ldvs,
                  const trncore::Options& options = {});

/// Eigenvalues and (optionally) eigenvectors of a symmetric matrix.
template <class T>
struct EighResult {
  std::vector<T> w;  ///< ascending
  DenseMatrix<T> z;  ///< n×n, column j the eigenvector of w[j] (empty for values_only)
  /// syevd's / sygvd's info: 0, or > 0 as LAPACK (no convergence; B not positive definite).
  std::int64_t info = 0;
};

/// The eigendecomposition A = Z·diag(w)·Zᵀ of the symmetric A (reading the `uplo` triangle; A is not
/// modified). As syevd. @throws DimensionMismatch for a non-square A.
template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                   const trncore::Options& options = {});

/// eigh with the sim backend's algorithm chosen (see syevd with EighMethod).
template <class T>
EighResult<T> eigh(trncore::MatrixView<const T> a, EigJob job, Uplo uplo, EighMethod method,
                   const trncore::Options& options = {});

/// A·x = λ·B·x for symmetric A and SPD B (not modified): Z with ZᵀBZ = I. As sygvd (info > n: B is not
/// positive definite). @throws DimensionMismatch for non-square or differently shaped A and B.
template <class T>
EighResult<T> eigh_generalized(trncore::MatrixView<const T> a, std::type_identity_t<trncore::MatrixView<const T>> b,
                               EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                               const trncore::Options& options = {});

/// A real Schur decomposition.
template <class T>
struct SchurResult {
  ///@{
  /// Quasi upper triangular T and orthogonal Z, A = Z·T·Zᵀ.
  DenseMatrix<T> t, z;
  ///@}
  ///@{
  /// Eigenvalues wr[i] + i·wi[i] (complex pairs adjacent, positive imaginary part first).
  std::vector<T> wr, wi;
  ///@}
  std::int64_t info = 0;  ///< gees's info: 0, or > 0 when the QR algorithm did not converge
};

/// The real Schur decomposition of the square A (not modified). As gees with vectors.
template <class T>
SchurResult<T> schur(trncore::MatrixView<const T> a, const trncore::Options& options = {});

// ---------------------------------------------------------------------------------------------------
// Inverse square root of an SPD matrix
// ---------------------------------------------------------------------------------------------------

/// Controls of the Newton–Schulz iteration of inv_sqrt_spd.
struct InvSqrtOptions {
  /// Backend, math mode of the Newton–Schulz GEMMs on sim, threads; no target.
  trncore::Options core;
  /// eigh (syevd) or newton_schulz (GEMMs only).
  InvSqrtMethod method = InvSqrtMethod::eigh;
  /// Newton–Schulz: stop when ‖I − Z_k·Y_k‖_F/√n ≤ tolerance, or after max_iterations (converged =
  /// false). tolerance = 0 (the default): 4·n·u of T, or earlier when the quadratic phase stalls at the
  /// rounding level (the distance below 0.01 and no longer halving per step), which counts as converged.
  double tolerance = 0.0;
  /// Newton–Schulz iteration limit (≥ 1).
  std::int64_t max_iterations = 100;
};

/// What inv_sqrt_spd did.
struct InvSqrtReport {
  /// 0; i in 1…n when the leading minor of order i of A is not positive definite (potrf's test, run by
  /// both methods first); n + 1 when syevd did not converge or found an eigenvalue ≤ 0.
  std::int64_t info = 0;
  std::int64_t iterations = 0;  ///< Newton–Schulz iterations (0 for eigh)
  /// ‖X·A·X − I‖_F/√n of the returned X, computed in T's precision (eigh and Newton–Schulz alike).
  double residual = 0.0;
  bool converged = false;  ///< eigh: info = 0; Newton–Schulz: the tolerance was met
};

/// X = A^{-1/2} for the SPD n×n A (only its lower triangle is read), written to x (n×n, ldx). method eigh: X = Q·diag(λ^{-1/2})·Qᵀ from syevd. method
/// newton_schulz: the coupled iteration Y₀ = A/c, Z₀ = I, T_k = (3I − Z_k·Y_k)/2, Y_{k+1} = Y_k·T_k,
/// Z_{k+1} = T_k·Z_k (Higham, Functions of Matrices, §6.7), c = ‖A‖_F so that the spectrum lies in
/// (0, 1]; X = Z/√c. It converges for every SPD A, quadratically once ‖I − Z_kY_k‖ < 1, after about
/// log₂ κ₂(A) slow steps. X is zero when info ≠ 0.
/// @throws InvalidArgument for non-finite A, a negative tolerance or max_iterations < 1; else as the header.
/// Accuracy (eigh): ‖X̂ − X‖/‖X‖ ≲ p(n)·u·κ₂(A)/2 (the eigenvalues' absolute errors, amplified by the
/// derivative of λ^{-1/2}); Newton–Schulz reaches the same level, limited by rounding in the GEMMs.
template <class T>
InvSqrtReport inv_sqrt_spd(Layout layout, std::int64_t n, const T* a, std::int64_t lda, T* x, std::int64_t ldx,
                           const InvSqrtOptions& options = {});

/// A^{-1/2} and the report.
template <class T>
struct InvSqrtResult {
  DenseMatrix<T> x;      ///< A^{-1/2}, n×n in the input's layout (zero when report.info ≠ 0)
  InvSqrtReport report;  ///< what inv_sqrt_spd did
};

/// View form of inv_sqrt_spd (A not modified). @throws DimensionMismatch for a non-square A.
template <class T>
InvSqrtResult<T> inv_sqrt_spd(trncore::MatrixView<const T> a, const InvSqrtOptions& options = {});

// ---------------------------------------------------------------------------------------------------
// View overloads of the low layer: the sizes and leading dimensions come from the views, which must all
// be in one layout (DimensionMismatch otherwise); spans must be long enough (DimensionMismatch).
// ---------------------------------------------------------------------------------------------------

/// getrf on the view; ipiv needs min(m, n) entries.
template <class T>
std::int64_t getrf(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, const trncore::Options& options = {});
/// getrs with the n×n LU and its pivots, B n×nrhs.
template <class T>
void getrs(Op trans, std::type_identity_t<trncore::MatrixView<const T>> lu, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options = {});
/// gesv on the views.
template <class T>
std::int64_t gesv(trncore::MatrixView<T> a, std::span<std::int64_t> ipiv, trncore::MatrixView<T> b,
                  const trncore::Options& options = {});
/// lange of the view.
template <class T>
T lange(Norm norm, trncore::MatrixView<const T> a, const trncore::Options& options = {});
/// gecon of the n×n LU.
template <class T>
std::int64_t gecon(Norm norm, std::type_identity_t<trncore::MatrixView<const T>> lu, std::type_identity_t<T> anorm,
                   T& rcond, const trncore::Options& options = {});
/// potrf on the view.
template <class T>
std::int64_t potrf(Uplo uplo, trncore::MatrixView<T> a, const trncore::Options& options = {});
/// potrs with the factor and B.
template <class T>
void potrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, trncore::MatrixView<T> b,
           const trncore::Options& options = {});
/// posv on the views.
template <class T>
std::int64_t posv(Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options = {});
/// sytrf on the view; ipiv needs n entries.
template <class T>
std::int64_t sytrf(Uplo uplo, trncore::MatrixView<T> a, std::span<std::int64_t> ipiv,
                   const trncore::Options& options = {});
/// sytrs with the factorization, its pivots and B.
template <class T>
void sytrs(Uplo uplo, std::type_identity_t<trncore::MatrixView<const T>> factor, std::span<const std::int64_t> ipiv,
           trncore::MatrixView<T> b, const trncore::Options& options = {});
/// geqrf on the view; tau needs min(m, n) entries.
template <class T>
void geqrf(trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> tau, const trncore::Options& options = {});
/// orgqr on the m×n view with k = tau.size() reflectors.
template <class T>
void orgqr(trncore::MatrixView<T> a, std::type_identity_t<std::span<const T>> tau,
           const trncore::Options& options = {});
/// gels on the views; b is max(m, n)×nrhs.
template <class T>
std::int64_t gels(Op trans, trncore::MatrixView<T> a, trncore::MatrixView<T> b, const trncore::Options& options = {});
/// gelsd on the views; s needs min(m, n) entries.
template <class T>
std::int64_t gelsd(trncore::MatrixView<T> a, trncore::MatrixView<T> b, std::type_identity_t<std::span<T>> s,
                   std::type_identity_t<T> rcond, std::int64_t& rank, const trncore::Options& options = {});
/// gesdd on the views; s needs min(m, n) entries; u and vt are ignored for values_only.
template <class T>
std::int64_t gesdd(Job job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> s, trncore::MatrixView<T> u,
                   trncore::MatrixView<T> vt, const trncore::Options& options = {});
/// syevd on the view; w needs n entries.
template <class T>
std::int64_t syevd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> w,
                   const trncore::Options& options = {});
/// sygvd on the views; w needs n entries.
template <class T>
std::int64_t sygvd(EigJob job, Uplo uplo, trncore::MatrixView<T> a, trncore::MatrixView<T> b,
                   std::type_identity_t<std::span<T>> w, const trncore::Options& options = {});
/// gees on the views; wr and wi need n entries; vs is ignored for values_only.
template <class T>
std::int64_t gees(EigJob job, trncore::MatrixView<T> a, std::type_identity_t<std::span<T>> wr,
                  std::type_identity_t<std::span<T>> wi, trncore::MatrixView<T> vs,
                  const trncore::Options& options = {});

// Mutable views convert to the const views the drivers above take (deduction does not see through the
// conversion, hence these forwarders).
template <class T>
requires(!std::is_const_v<T>) T lange(Norm norm, trncore::MatrixView<T> a, const trncore::Options& options = {}) {
  return lange<T>(norm, trncore::MatrixView<const T>(a), options);
}
template <class T>
requires(!std::is_const_v<T>) SvdResult<T> svd(trncore::MatrixView<T> a, Job job = Job::thin,
                                               const trncore::Options& options = {}) {
  return svd<T>(trncore::MatrixView<const T>(a), job, options);
}
template <class T>
requires(!std::is_const_v<T>) PinvResult<T> pinv(trncore::MatrixView<T> a,
                                                 std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                                                 const trncore::Options& options = {}) {
  return pinv<T>(trncore::MatrixView<const T>(a), rcond, options);
}
template <class T>
requires(!std::is_const_v<T>) LstsqResult<T> lstsq(trncore::MatrixView<T> a,
                                                   std::type_identity_t<trncore::MatrixView<const T>> b,
                                                   LstsqMethod method = LstsqMethod::svd,
                                                   std::optional<std::type_identity_t<T>> rcond = std::nullopt,
                                                   const trncore::Options& options = {}) {
  return lstsq<T>(trncore::MatrixView<const T>(a), b, method, rcond, options);
}
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh(trncore::MatrixView<T> a, EigJob job = EigJob::vectors,
                                                 Uplo uplo = Uplo::lower, const trncore::Options& options = {}) {
  return eigh<T>(trncore::MatrixView<const T>(a), job, uplo, options);
}
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh(trncore::MatrixView<T> a, EigJob job, Uplo uplo, EighMethod method,
                                                 const trncore::Options& options = {}) {
  return eigh<T>(trncore::MatrixView<const T>(a), job, uplo, method, options);
}
template <class T>
requires(!std::is_const_v<T>) EighResult<T> eigh_generalized(trncore::MatrixView<T> a,
                                                             std::type_identity_t<trncore::MatrixView<const T>> b,
                                                             EigJob job = EigJob::vectors, Uplo uplo = Uplo::lower,
                                                             const trncore::Options& options = {}) {
  return eigh_generalized<T>(trncore::MatrixView<const T>(a), b, job, uplo, options);
}
template <class T>
requires(!std::is_const_v<T>) SchurResult<T> schur(trncore::MatrixView<T> a, const trncore::Options& options = {}) {
  return schur<T>(trncore::MatrixView<const T>(a), options);
}
template <class T>
requires(!std::is_const_v<T>) InvSqrtResult<T> inv_sqrt_spd(trncore::MatrixView<T> a,
                                                            const InvSqrtOptions& options = {}) {
  return inv_sqrt_spd<T>(trncore::MatrixView<const T>(a), options);
}

}  // namespace trnsolver
