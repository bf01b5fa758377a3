#pragma once
// Entries of the Gaussian kernel matrix, each a pure function of (x_i, x_j, h) whatever block it is formed
// in: ‖x_i − x_j‖² summed over the coordinates in order, in T; the exponent −‖·‖²·(1/(2h²)) in T; exp in T
// (float: exp_fixed in kernel_entries.cpp, a range reduction and degree-7 Taylor polynomial within 2 ulp,
// vectorised; double: std::exp). The suite compiles with -ffp-contract=off, and kernel_entries.cpp with
// -fno-trapping-math (which lets the compiler vectorise the selects; no value changes), so vectorised and
// scalar iterations give the same bits.
#include <cstdint>

namespace trnsolver::mpi::randomized_detail {

/// out(i, j) = K(r0 + i, c0 + j), column-major with ld; points row-major n×d in double (exact copies of T).
template <class T>
void kernel_entries(const double* points, std::int64_t d, double h, std::int64_t r0, std::int64_t rows, std::int64_t c0,
                    std::int64_t cols, T* out, std::int64_t ld);

}  // namespace trnsolver::mpi::randomized_detail
