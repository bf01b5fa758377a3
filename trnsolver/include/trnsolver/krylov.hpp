#pragma once
/// @file
/// Krylov solvers (CG, restarted GMRES, BiCGStab, MINRES) on a matrix or a matvec callback, with Jacobi,
/// block-Jacobi and SSOR preconditioners, and their result struct.
