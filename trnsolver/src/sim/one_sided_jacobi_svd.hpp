#pragma once
// The sim backend's SVD: one-sided (Hestenes) Jacobi on the columns of A with the round-robin schedule of
// jacobi_schedule — rounds of disjoint column pairs, fp32 dot products and rotations with every operation
// rounded on its own (the VectorEngine's arithmetic; compiled without FMA contraction).

#include <trncore/options.hpp>
#include <trncore/view.hpp>

#include <cstdint>

namespace trnsolver::detail {

/// The thin SVD of the m×n float matrix `a` (layout, lda): s (k = min(m, n), descending), and when u/vt are
/// not null U (m×k, ldu) and Vᵀ (k×n, ldvt) in the same layout. Returns 0, or 1 when a sweep limit of 60 was
/// reached before a sweep without rotations. Inputs are checked by the caller.
std::int64_t svd_one_sided_jacobi(trncore::Layout layout, std::int64_t m, std::int64_t n, const float* a,
                                  std::int64_t lda, float* s, float* u, std::int64_t ldu, float* vt, std::int64_t ldvt,
                                  const trncore::Options& options);

}  // namespace trnsolver::detail
