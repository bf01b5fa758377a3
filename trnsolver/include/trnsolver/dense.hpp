#pragma once
/// @file
/// Dense factorizations and drivers: LU, Cholesky, LDLᵀ, QR, least squares, SVD, pinv, symmetric and
/// generalized eigensolvers, real Schur form, condition estimation, inverse square roots of SPD matrices.
///
/// Host backend: a thin checked layer over LAPACKE (the C interface to the LAPACK that liblapack resolves
/// to, OpenBLAS's here), in the style of LAPACK++. Full reference: docs/trnsolver-dense.md.
///
/// Conventions shared by every dense routine:
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
///   layouts do not agree; trncore::NotSupported for sizes beyond LAPACK's 32-bit integers, a routine the
///   sim backend does not run (orgqr, and the gesv/posv drivers; double data on sim), a math mode other than
///   automatic or the data's own precision, or a target_forward_error. Messages read
///   "trnsolver::<function>: <what is wrong, with the values>: <what to do>".
/// - Options::backend = sim, float data: getrf (square), potrf, sytrf, geqrf, gels, gelsd/lstsq, gesdd/svd,
///   pinv, syevd/eigh, sygvd/eigh_generalized, gees/schur and inv_sqrt_spd run the NeuronCore model's
///   algorithms (fp32 panels in VectorEngine arithmetic, trailing updates as trnblas sim GEMMs in
///   options.math_mode, bitwise identical for any thread count); getrs, potrs, sytrs and gecon solve with
///   those factors in fp32 on the host. Which algorithm each routine runs and the bounds it keeps: docs/trnsolver.md,
///   "Dense routines on the sim backend"; each routine's comment gives its sim accuracy where it differs.
/// - Workspaces are queried (lwork = −1) and allocated inside each call. Operands of one call must not
///   share storage (not checked: LAPACK's rule).
/// - Accuracy: the backward-error bounds LAPACK documents, stated on each function with c·n·u terms
///   (u = 2⁻²⁴ float, 2⁻⁵³ double); references in docs/trnsolver-dense.md.
///
/// The declarations live in one header per routine family, all included here: <trnsolver/dense/types.hpp>
/// (enums, DenseMatrix), lu.hpp (getrf, getrs, gesv, lange, gecon), cholesky.hpp (potrf, potrs, posv),
/// ldlt.hpp (sytrf, sytrs), qr.hpp (geqrf, orgqr), least_squares.hpp (gels, gelsd, lstsq), svd.hpp (gesdd,
/// svd, pinv), eigen.hpp (syevd, sygvd, eigh, eigh_generalized), schur.hpp (gees, schur) and inv_sqrt.hpp
/// (inv_sqrt_spd).

#include <trnsolver/dense/types.hpp>
#include <trnsolver/dense/lu.hpp>
#include <trnsolver/dense/cholesky.hpp>
#include <trnsolver/dense/ldlt.hpp>
#include <trnsolver/dense/qr.hpp>
#include <trnsolver/dense/least_squares.hpp>
#include <trnsolver/dense/svd.hpp>
#include <trnsolver/dense/eigen.hpp>
#include <trnsolver/dense/schur.hpp>
#include <trnsolver/dense/inv_sqrt.hpp>
