#pragma once
// The sim backend's transforms (docs/trnfft.md, "Sim backend"): c2c of one length on contiguous batch rows,
// as DFT-as-GEMM (n ≤ 256), mixed-radix Stockham (7-smooth n) or Bluestein (the rest), every small DFT a
// trnblas sim GEMM in one TensorEngine math mode; bf16_refined and the r2c/c2r packings on top.
//
// Bounds are normwise and relative: ‖ŷ − y‖₂ ≤ δ·‖y‖₂ for each transform of a batch (so also for the
// whole batch). How they compose is derived next to each function in engine.cpp and in docs/trnfft.md.

#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/math_mode.hpp>
#include <trncore/options.hpp>
#include <trncore/sim/engine_stats.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trnfft::detail::sim {

/// What a run did: the engine counters, whether every hypothesis of its bound held (every GEMM certified,
/// finite input and output), the first failed hypothesis (the report's uncertified_reason), and notes for
/// the trajectory.
struct RunLog {
  trncore::sim::EngineStats stats;
  bool certified = true;
  std::string reason;
  std::vector<std::string> caveats;

  /// Records a failed hypothesis; the first one becomes the reason.
  void uncertify(std::string why) {
    if (certified) reason = why;
    certified = false;
    caveats.push_back(std::move(why));
  }
};

enum class Algorithm : std::uint8_t { dft_gemm, stockham, bluestein };

/// A c2c transform of length n with exponent sign `sign` (−1 forward, +1 backward) in one TensorEngine
/// math mode (fp32, bf16, compensated or ozaki): batch rows of n complex values, contiguous.
template <Real T>
class Core {
 public:
  Core(std::int64_t n, int sign, trncore::MathMode mode, const trncore::Options& options);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  /// out = transform(in), batch rows; in and out must not overlap. Returns the normwise relative bound
  /// certified for this run (the a-priori composition with the ε each GEMM reported).
  double run(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log) const;
  /// The a-priori bound (per-GEMM ε from the mode's data-independent bound).
  double a_priori() const { return compose(stage_eps_); }
  std::string description() const;
  Algorithm algorithm() const { return algorithm_; }
  std::int64_t size() const { return n_; }

 private:
  struct Stage;
  double compose(const std::vector<double>& eps) const;
  double gemm(const T* a, T* c, std::int64_t rows, const Stage& st, RunLog& log) const;

  std::int64_t n_;
  int sign_;
  trncore::MathMode mode_;
  trncore::Options options_;
  Algorithm algorithm_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<double> stage_eps_;  // a-priori ε' per stage (Bluestein: of its two inner cores, see compose)
  // Bluestein
  std::int64_t m_ = 0;
  std::unique_ptr<Core> fwd_, bwd_;
  std::vector<std::complex<T>> chirp_, post_, bhat_;
  double beta_max_ = 0;  // max_k |B̂_k| (the chirp's spectrum) / √n: the amplification of the convolution
};

/// The transform a sim plan runs: kind, length, direction and the resolved mode (bf16_refined included).
template <Real T>
class Executor {
 public:
  Executor(Kind kind, std::int64_t n, Direction direction, SimMode mode, const trncore::Options& options);
  ~Executor();

  /// Contiguous batch rows: c2c complex n → complex n; r2c real n → complex n/2+1; c2r complex n/2+1 → real n.
  void run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log, double& bound) const;
  void run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log, double& bound) const;
  void run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log, double& bound) const;

  double a_priori() const { return a_priori_; }
  SimMode mode() const { return mode_; }
  std::string description() const;
  /// The report of a run (bound, met against the target, trajectory, references, cost).
  trncore::AccuracyReport report(double bound, const RunLog& log) const;
  /// The a-priori report (no cost).
  trncore::AccuracyReport a_priori_report() const;

 private:
  double wrap(double core_bound) const;
  double refine_bound(double db, double d32) const;
  void core_apply(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log,
                  double& bound) const;

  Kind kind_;
  std::int64_t n_;
  std::int64_t len_;  // length of the complex core transform
  int sign_;
  SimMode mode_;
  trncore::Options options_;
  std::unique_ptr<Core<T>> main_;
  std::unique_ptr<Core<T>> fp32_inverse_;  // bf16_refined's residual transform
  std::vector<std::complex<T>> pack_twiddle_;
  double a_priori_ = 0;
};

/// The mode a plan asks for: `flags_mode` unless from_options, else options.math_mode mapped to its SimMode;
/// from_options when the math mode is automatic (the caller picks: the default mode, or the cheapest one
/// meeting a target). @throws NotSupported (a math mode without a sim FFT), InvalidArgument (a bad enumerator).
SimMode requested_mode(const char* function, SimMode flags_mode, const trncore::Options& options);

}  // namespace trnfft::detail::sim
