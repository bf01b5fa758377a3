#pragma once
// One axis of a sim transform (docs/trnfft.md, "Sim backend"): a c2c, r2c or c2r of one length on
// contiguous batch rows, in one Precision. The complex work is a ComplexFft (DFT-as-GEMM, Stockham or
// Bluestein); this adds the real packings (r2c/c2r of even n as a half-length c2c, of odd n as a full c2c)
// and bf16_refined's refinement step, with the bounds each composes (derived in axis_transform.cpp).

#include "sim/complex_fft.hpp"

#include <trncore/accuracy_report.hpp>
#include <trncore/options.hpp>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace trnfft::detail::sim {

template <Real T>
class AxisTransform {
 public:
  /// `n` the (real, for r2c/c2r) length; `direction` is used by c2c only (r2c is forward, c2r backward).
  AxisTransform(Kind kind, std::int64_t n, Direction direction, Precision precision, const trncore::Options& options);
  ~AxisTransform();
  AxisTransform(const AxisTransform&) = delete;
  AxisTransform& operator=(const AxisTransform&) = delete;

  /// Contiguous batch rows: c2c complex n → complex n; r2c real n → complex n/2+1; c2r complex n/2+1 → real n.
  /// `bound` receives the normwise relative bound certified for this run.
  void run_c2c(const std::complex<T>* in, std::complex<T>* out, std::int64_t batch, RunLog& log, double& bound) const;
  void run_r2c(const T* in, std::complex<T>* out, std::int64_t batch, RunLog& log, double& bound) const;
  void run_c2r(const std::complex<T>* in, T* out, std::int64_t batch, RunLog& log, double& bound) const;

  double a_priori() const { return a_priori_; }
  Precision precision() const { return precision_; }
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
  std::int64_t len_;  // length of the complex transform
  int sign_;
  Precision precision_;
  trncore::Options options_;
  std::unique_ptr<ComplexFft<T>> main_;
  std::unique_ptr<ComplexFft<T>> fp32_inverse_;  // bf16_refined's residual transform
  std::vector<std::complex<T>> pack_twiddle_;
  double a_priori_ = 0;
};

}  // namespace trnfft::detail::sim
