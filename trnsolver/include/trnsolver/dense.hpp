#pragma once
/// @file
/// Dense factorizations and drivers: LU, Cholesky, LDLᵀ, QR, least squares, SVD, pinv, symmetric and
/// generalized eigensolvers, real Schur form, condition estimation, inverse square roots of SPD matrices.
