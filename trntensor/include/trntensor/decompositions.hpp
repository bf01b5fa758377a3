#pragma once
/// @file
/// Tensor decompositions on the host in fp64: CP by alternating least squares (with an optional line
/// search and a non-negative variant), Tucker by HOSVD and HOOI, tensor train by TT-SVD with ε-truncation and
/// a maximum rank, and the reconstruction of each. The SVDs and small solves run through Eigen (BDCSVD,
/// complete orthogonal decomposition); the tensor contractions (mode products, MTTKRP) through einsum.

#include <trntensor/tensor.hpp>

#include <trncore/options.hpp>

#include <cstdint>
#include <limits>
#include <vector>

namespace trntensor {

/// Options of cp_als: the suite's trncore::Options (threads of the einsums; seed of the initial factors; backend
/// must be host; monitor, called once per sweep) plus the routine's own fields. Set the fields by assignment.
struct CpOptions : trncore::OptionsFor<CpOptions> {
  /// Number of rank-one terms R (≥ 1).
  std::int64_t rank = 1;
  /// Sweeps at most; stops earlier when the fit changes by less than `tolerance` in one sweep.
  int max_iterations = 500;
  /// Convergence threshold on |fit_k − fit_{k−1}| between consecutive sweeps (≥ 0; 0 runs every sweep).
  double tolerance = 1e-12;
  /// Extrapolate every factor by s = it^(1/3) times its last change after each sweep, kept only when the
  /// fit improves (Bro's line search, 1998).
  bool line_search = false;
  /// Non-negative factors by hierarchical ALS (column-wise projected updates, Cichocki & Phan 2009).
  bool nonnegative = false;
  // The random initial factors: std::mt19937_64 seeded with trncore::Options::seed, uniform in [0, 1).
};

/// Options of tucker_hooi: the suite's trncore::Options (threads; backend must be host; monitor, called once per
/// sweep) plus the iteration's own fields.
struct HooiOptions : trncore::OptionsFor<HooiOptions> {
  /// Sweeps at most.
  int max_iterations = 50;
  /// Stops when ‖G‖_F changes by at most tolerance·‖X‖_F in one sweep (≥ 0).
  double tolerance = 1e-12;
};

/// X ≈ Σ_r λ_r · a⁰_r ∘ a¹_r ∘ … with factor n stored as an I_n × R row-major tensor of unit-norm columns.
struct CpDecomposition {
  /// λ_r, R entries: the norms of the columns moved out of the factors.
  std::vector<double> weights;
  /// One factor per mode n of x, shape I_n × R, unit-norm columns.
  std::vector<Tensor<double>> factors;
  /// 1 − ‖X − X̂‖_F / ‖X‖_F at return.
  double fit = 0;
  /// Sweeps performed (≤ CpOptions::max_iterations).
  int iterations = 0;
  /// Whether the fit's change in the last sweep fell below CpOptions::tolerance before max_iterations.
  bool converged = false;
  /// Whether options.monitor asked to stop (the decomposition is then the last sweep's, fit computed for it).
  bool stopped_by_monitor = false;
};

/// CP-ALS of a tensor of rank ≥ 2. Each sweep solves, for every mode n, A_n·V = MTTKRP_n with V the
/// Hadamard product of the other factors' Gram matrices (minimum-norm solution when V is singular).
/// After each sweep options.monitor (when set) receives the sweep number and |fit_k − fit_{k−1}| as the
/// residual (the fit change; for the first sweep |fit_1 − 0|); a stop request returns the current factors with
/// stopped_by_monitor = true and converged = false.
/// Accuracy: a local optimum; on exactly low-rank synthetic data with R at least the true rank the fit
/// approaches 1 (tests recover rank-3 tensors to fit > 1 − 1e-8). Results do not depend on options.threads.
/// @throws trncore::InvalidArgument for rank < 1, max_iterations < 0, a negative or NaN tolerance, a tensor of
///         rank < 2 or with a zero extent, non-finite entries, (nonnegative) a negative entry, or invalid
///         options; trncore::NotSupported for options.backend = sim (the decompositions run on the host).
CpDecomposition cp_als(TensorView<const double> x, const CpOptions& options = {});

/// Σ_r λ_r a⁰_r ∘ a¹_r ∘ … as a dense tensor. @throws trncore::DimensionMismatch for inconsistent factors.
Tensor<double> cp_reconstruct(const CpDecomposition& cp);

/// X ≈ G ×₀ U₀ ×₁ U₁ …, U_n of shape I_n × R_n with orthonormal columns, core G of shape R₀ × R₁ × ….
struct TuckerDecomposition {
  /// G, of shape R₀ × R₁ × … (the requested ranks).
  Tensor<double> core;
  /// U_n, one per mode, shape I_n × R_n with orthonormal columns.
  std::vector<Tensor<double>> factors;
  /// ‖X − X̂‖_F / ‖X‖_F at return (0 for X = 0).
  double relative_error = 0;
  /// HOOI sweeps performed (0 for tucker_hosvd).
  int iterations = 0;
  /// Whether options.monitor asked tucker_hooi to stop (the result is then the last sweep's).
  bool stopped_by_monitor = false;
};

/// Truncated higher-order SVD: U_n = the leading R_n left singular vectors of the mode-n unfolding, G = X ×_n
/// U_nᵀ. Accuracy: ‖X − X̂‖_F ≤ √(Σ_n Σ_{i>R_n} σ_i(X_(n))²) (De Lathauwer, De Moor, Vandewalle 2000).
/// options: threads of the mode products (results do not depend on them); backend host.
/// @throws trncore::InvalidArgument for ranks.size() ≠ rank of x, a rank outside [1, I_n], non-finite x or
///         invalid options; trncore::NotSupported for options.backend = sim.
TuckerDecomposition tucker_hosvd(TensorView<const double> x, const std::vector<std::int64_t>& ranks,
                                 const trncore::Options& options = {});

/// Higher-order orthogonal iteration from the HOSVD: U_n = leading left singular vectors of (X ×_{m≠n} U_mᵀ)_(n)
/// until ‖G‖_F changes by at most tolerance·‖X‖_F. Its error is never above HOSVD's for the same ranks.
/// After each sweep options.monitor (when set) receives the sweep number and |‖G_k‖_F − ‖G_{k−1}‖_F| / ‖X‖_F as
/// the residual; a stop request returns the current factors and core with stopped_by_monitor = true.
/// @throws as tucker_hosvd, and InvalidArgument for max_iterations < 0 or a negative or NaN tolerance.
TuckerDecomposition tucker_hooi(TensorView<const double> x, const std::vector<std::int64_t>& ranks,
                                const HooiOptions& options = {});

/// G ×₀ U₀ ×₁ U₁ … as a dense tensor.
Tensor<double> tucker_reconstruct(const TuckerDecomposition& t);

/// A tensor train: core k of shape r_{k−1} × I_k × r_k with r_{−1} = r_{d−1} = 1.
struct TensorTrain {
  /// The d cores, core k of shape r_{k−1} × I_k × r_k.
  std::vector<Tensor<double>> cores;
  /// √(Σ discarded σ²) / ‖X‖_F: the certified relative error of the truncation (Oseledets 2011, Thm 2.2).
  double error_bound = 0;
};

/// TT-SVD: sequential truncated SVDs of the unfoldings, each dropping the smallest singular values whose
/// squares sum to at most (ε‖X‖_F)²/(d − 1), and never keeping more than max_rank. Accuracy: ‖X − TT‖_F ≤
/// ε‖X‖_F whenever max_rank does not bind; error_bound reports the certified value in every case.
/// options: backend host (the SVDs are Eigen's); no contraction runs, so threads has no effect.
/// @throws trncore::InvalidArgument for ε < 0 or NaN, max_rank < 1, a rank-0 tensor, a zero extent, non-finite
///         x or invalid options; trncore::NotSupported for options.backend = sim.
TensorTrain tt_svd(TensorView<const double> x, double epsilon,
                   std::int64_t max_rank = std::numeric_limits<std::int64_t>::max(),
                   const trncore::Options& options = {});

/// The dense tensor of a train. @throws trncore::DimensionMismatch when consecutive ranks disagree.
Tensor<double> tt_reconstruct(const TensorTrain& tt);

}  // namespace trntensor
