#pragma once
// The one way the routed routines run a GEMM: trnblas::gemm with the TRNBLAS_MODE options and an
// AccuracyReport, into a work matrix the caller owns. The caller stores the work matrix into its output only
// when the report is met, i.e. the mode's documented bound is certified for this very call (every hypothesis
// of the bound held: finite inputs, no operand outside the format's range, no slice cap that stopped ozaki
// short of its 2^-52 target); otherwise it forwards the whole call to OpenBLAS, so an uncertifiable call never
// returns a wrong product (docs/trncore.md, "Certificates").

#include "dropin_mode.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/accuracy_report.hpp>

#include <cstdint>
#include <exception>
#include <string>

namespace trnblas::dropin {

/// c := alpha·op(A)·op(B) + beta·c with the routed options; true when certified to the mode's bound. False
/// (after one line on stderr, the first time in the process) when trnblas refused the call or could not
/// certify it: c then holds no usable result and the caller must forward the original call to OpenBLAS.
template <class T>
bool certified_gemm(const trncore::Options& options, trncore::Layout layout, Op ta, Op tb, std::int64_t m,
                    std::int64_t n, std::int64_t k, T alpha, const T* a, std::int64_t lda, const T* b, std::int64_t ldb,
                    T beta, T* c, std::int64_t ldc) noexcept {
  try {
    trncore::AccuracyReport report;
    trnblas::gemm(layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, report);
    if (report.met) return true;
    note_fallback(("trnblas cannot certify a routed product (" + report.uncertified_reason + ")").c_str());
    return false;
  } catch (const std::exception& e) {
    note_fallback(e.what());
    return false;
  }
}

}  // namespace trnblas::dropin
