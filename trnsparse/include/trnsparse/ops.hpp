#pragma once
/// @file
/// Sparse operations: SpMV and SpMM (sparse × dense) with alpha/beta and transpose, sparse add/scale, and
/// SpGEMM (sparse × sparse) on the host; SpMM of a BSR matrix on either backend (options.backend; the CSR
/// products on sim are trncore::NotSupported, naming the BSR spmm as the alternative). BLAS semantics
/// throughout: beta = 0 does not read the output.
///
/// Determinism: the non-transposed CSR products run rows in parallel (options.threads), each row
/// summed by one thread in storage order, so results are bitwise identical for every thread count.
/// Transposed products scatter and run on one thread for the same reason.
///
/// Accuracy (host, value type T with unit roundoff u): each output element y_i is a sum of at most
/// m_i + 1 terms (m_i stored entries in row i), so |ŷ_i − y_i| ≤ γ_{m_i+2}·(|α|·Σ|a_ij||x_j| + |β||y_i|)
/// with γ_n = n·u/(1 − n·u) (Higham, ASNA 2nd ed. §3.1).

#include <trnsparse/formats.hpp>

#include <trnblas/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <cstdint>
#include <span>

namespace trnsparse {

/// y = alpha·op(A)·x + beta·y, op = trnblas::Op::no_trans or trans (conj_trans = trans for real T).
/// x has op(A).cols entries and y op(A).rows. Duplicates in A are summed. beta = 0 never reads y.
/// Accuracy: |ŷ_i − y_i| ≤ γ_{m+3}·(|α|Σ_j|a_ij||x_j| + |β||y_i|), m the stored entries of the row.
/// Threads (options.threads; no_trans only) split rows by nonzeros; each row is summed by one thread in
/// storage order, so the result is bitwise identical for every thread count.
/// @throws trncore::InvalidArgument for an invalid A (found while the kernel reads it: y is then
///         unspecified, and nothing outside A's arrays is read), an op that is not a trnblas::Op value, y
///         sharing memory with x, or invalid options; trncore::NotSupported for options.backend = sim (the hint names the BSR spmm) or a
///         math_mode other than automatic or T's precision; trncore::DimensionMismatch when x or y has the
///         wrong length.
template <class T, class I>
void spmv(trnblas::Op op, T alpha, const Csr<T, I>& a, std::span<const T> x, T beta, std::span<T> y,
          const trncore::Options& options = {});

/// y = alpha·op(A)·x + beta·y for BSR A (each stored block multiplies its slice of x; rows summed in
/// block order). Same conventions and errors as the CSR form.
template <class T, class I>
void spmv(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::span<const T> x, T beta, std::span<T> y,
          const trncore::Options& options = {});

/// C = alpha·op(A)·B + beta·C with B (op(A).cols × n) and C (op(A).rows × n) dense row-major with
/// leading dimensions ldb, ldc ≥ max(1, n).
/// @throws trncore::InvalidArgument for an invalid A, negative n, null B/C with nonzero size, ld < n,
///         an invalid op, C sharing memory with B, or invalid options; trncore::DimensionMismatch when a span is too short for its matrix.
template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Csr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options = {});

/// C = alpha·op(A)·B + beta·C for BSR A on either backend (options.backend): bsr_spmm (sim.hpp) under the
/// CSR product's name — one trnblas::gemm per stored block, on the modelled TensorEngine (sim, any of its
/// math modes, with the modelled cost) or OpenBLAS (host). The report certifies the componentwise bound
/// ((1 + ε)^{k+1} − 1)·(|α||A||B| + |β||C|), ε the largest per-block gemm bound, k the most blocks in a block
/// row. Only op = no_trans: trans is trncore::NotSupported (transpose the CSR before to_bsr).
/// @throws as bsr_spmm, naming trnsparse::spmm; trncore::InvalidArgument for an op that is not an Op value.
template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options, trncore::AccuracyReport& report);
/// spmm on BSR without a report: @throws as the report overload, and trncore::TargetNotMet whenever it would
/// return met = false.
template <class T, class I>
void spmm(trnblas::Op op, T alpha, const Bsr<T, I>& a, std::int64_t n, std::span<const T> b, std::int64_t ldb, T beta,
          std::span<T> c, std::int64_t ldc, const trncore::Options& options = {});

/// C = alpha·A + beta·B, canonical output (sorted, duplicates summed; entries that cancel to zero are
/// kept as explicit zeros so the pattern is the union of the patterns).
/// @throws trncore::InvalidArgument for invalid inputs; trncore::DimensionMismatch when shapes differ.
template <class T, class I>
Csr<T, I> add(T alpha, const Csr<T, I>& a, T beta, const Csr<T, I>& b);

/// A ← alpha·A (values only; the pattern is kept even for alpha = 0).
/// @throws trncore::InvalidArgument for an invalid A.
template <class T, class I>
void scale(T alpha, Csr<T, I>& a);

/// C = A·B (sparse × sparse, Gustavson's row-by-row algorithm with a dense accumulator), canonical
/// output; rows in parallel (options.threads), each row accumulated in A's and B's storage order, so
/// bitwise identical for every thread count. Accuracy as SpMV with m_i the number of products in row i.
/// @throws trncore::InvalidArgument for invalid inputs or an nnz(C) that does not fit I;
///         trncore::DimensionMismatch when A.cols != B.rows.
template <class T, class I>
Csr<T, I> spgemm(const Csr<T, I>& a, const Csr<T, I>& b, const trncore::Options& options = {});

}  // namespace trnsparse
