#pragma once
// The implicit QL iteration of eigh_tridiagonal_ql on its own, for the other tridiagonal reductions (the sim
// backend's blocked one behind syevd) to share.

#include <trncore/sim/engine_stats.hpp>
#include <trncore/sim/spec.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

/// Implicit QL with Wilkinson-type shifts on the symmetric tridiagonal (d, e) — d the n diagonal entries, e[i]
/// the entry coupling i and i+1 (e[n−1] = 0) — in W's arithmetic: d becomes the eigenvalues (unsorted), and
/// the rotations are accumulated into z (n×n row-major, z ← z·G, so its columns become the vectors) when z is
/// not empty. VectorEngine work is counted into stats when not null. Returns the sweep count, or −1 when an
/// eigenvalue did not deflate within 30·n sweeps. (Golub and Van Loan §8.3; Wilkinson and Reinsch's tql2.)
template <class W>
std::int64_t implicit_ql(std::int64_t n, std::vector<W>& d, std::vector<W>& e, std::vector<W>& z,
                         trncore::sim::EngineStats* stats, const trncore::sim::GenerationSpec& spec);

/// The same iteration in fp32 (bitwise the same d, e, and vectors as implicit_ql<float>) with the vectors z, when
/// not null, n×n column-major (vector i in z[i·n, i·n + n)): each sweep's rotations are recorded and applied in
/// one pass over the columns they touch, block of 64 rows by block on up to `threads` threads (trncore's
/// convention: ≤ 0 means the default); every entry sees the same operations in the same order for any
/// `threads`. Returns the sweep count, or −1 when an eigenvalue did not deflate within 30·n sweeps.
std::int64_t implicit_ql_columns(std::int64_t n, std::vector<float>& d, std::vector<float>& e, float* z, int threads);

}  // namespace trnsolver::detail
