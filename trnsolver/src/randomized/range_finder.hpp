#pragma once
// The randomized range finder and the SVD on its basis: the steps rsvd, rsvd_adaptive and
// eigh_randomized share (HMT 2011, Alg. 4.4 and 5.1).
#include "common.hpp"

#include <cstdint>
#include <string_view>

namespace trnsolver::randomized_detail {

/// The operator of a dense matrix whose products run through `ledger` (so sim GEMMs are costed). The
/// view and the ledger must outlive it.
template <class T>
MatrixOperator<T> ledger_operator(trncore::MatrixView<const T> a, CostLedger& ledger);

/// Y = A·Ω (rows×l) for Ω = sketch_matrix(sketch, cols, l). With a dense A and a sparse sign or SRHT
/// sketch, Ω is never formed (sketch_right on the host).
template <class T>
DenseMatrix<T> sample_range(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t l,
                            const Sketch& sketch, const trncore::Options& core, std::int64_t& matvecs,
                            std::string_view function);

/// Q (rows×l, orthonormal) spanning (A·Aᵀ)^q·A·Ω, re-orthonormalised after every product. core.monitor,
/// when set, is called after every power iteration with ‖(I − Q_oldQ_oldᵀ)Q_new‖_F/√l, as `function`; a
/// stop ends the power iterations (stopped is set true then).
template <class T>
DenseMatrix<T> range_basis(const MatrixOperator<T>& a, const trncore::MatrixView<const T>* dense, std::int64_t l,
                           std::int64_t power_iterations, const Sketch& sketch, const trncore::Options& core,
                           std::int64_t& matvecs, std::string_view function, bool& stopped);

/// The SVD of Q·Qᵀ·A from Bᵀ = Aᵀ·Q (gesdd of the cols×l Bᵀ), truncated to `rank` ≤ Q's columns.
template <class T>
RsvdResult<T> svd_on_basis(const MatrixOperator<T>& a, const DenseMatrix<T>& q, std::int64_t rank,
                           const trncore::Options& core, std::int64_t& matvecs, std::string_view function);

}  // namespace trnsolver::randomized_detail
