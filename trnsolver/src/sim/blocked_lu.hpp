#pragma once
// A blocked right-looking LU in fp32 whose trailing updates are trnblas GEMMs with the caller's options:
// host fp32 (OpenBLAS), or the sim backend's TensorEngine modes (bf16 inputs, fp32 PSUM). It is the
// factorization LAPACK does not offer: without pivoting (the HPL-MxP rules) and with trailing updates on the
// modelled NeuronCore. Panels are unblocked fp32 eliminations, each operation rounded on its own (the
// VectorEngine's arithmetic: this file is compiled without FMA contraction).

#include <trncore/options.hpp>

#include <cstdint>
#include <vector>

namespace trnsolver::detail {

/// The trailing-update block size: one TensorEngine tile of 128 partitions.
inline constexpr std::int64_t kLuBlock = 128;

/// Factors the column-major n×n matrix `a` (leading dimension lda) in place as P·A = L·U (unit lower L)
/// with partial pivoting when `pivoting`, else A = L·U. ipiv receives LAPACK's 1-based row interchanges
/// (the identity without pivoting). Returns 0, or the 1-based index of the first exactly zero pivot (the
/// factorization continues past it, as LAPACK's getrf, leaving that column unscaled).
/// `gemms_certified` (optional) is cleared when a trailing-update GEMM was not certified by trnblas (an operand
/// below the format's normal range, ...): the LU's backward error bound then does not hold. Such a GEMM never
/// throws here.
std::int64_t blocked_lu(std::int64_t n, float* a, std::int64_t lda, bool pivoting, std::vector<std::int64_t>& ipiv,
                        const trncore::Options& gemm_options, bool* gemms_certified = nullptr);

}  // namespace trnsolver::detail
