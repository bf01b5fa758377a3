#pragma once
// trnblas::gemm for the products inside trnsolver's algorithms (blocked factorizations' trailing updates,
// randomized range finders, ...): always the overload with an AccuracyReport, so a product that trnblas cannot
// certify (an operand below the format's normal range, an overflow) never escapes as TargetNotMet from inside
// a routine whose own outcome is an info value or its own report. The caller that builds a certificate on the
// products' bounds passes `certified`, which is cleared when any product was not certified.
#include <trnblas/gemm.hpp>
#include <trncore/accuracy_report.hpp>

#include <cstdint>
#include <type_traits>

namespace trnsolver::detail {

template <class T>
void internal_gemm(trncore::Layout layout, trnblas::Op transa, trnblas::Op transb, std::int64_t m, std::int64_t n,
                   std::int64_t k, std::type_identity_t<T> alpha, const T* a, std::int64_t lda, const T* b,
                   std::int64_t ldb, std::type_identity_t<T> beta, T* c, std::int64_t ldc,
                   const trncore::Options& options, bool* certified = nullptr) {
  trncore::AccuracyReport report;
  trnblas::gemm<T>(layout, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, options, report);
  if (certified != nullptr && !report.certified) *certified = false;
}

}  // namespace trnsolver::detail
