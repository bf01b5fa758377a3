// Batched GEMM on the host: the shared checks once for the batch, then one CBLAS ?gemm per entry.
#include "../checks.hpp"
#include "cblas_args.hpp"

#include <trnblas/batched.hpp>
#include <trncore/error.hpp>

#include <cblas.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace trnblas {

namespace {

using namespace detail;

// The checks that do not depend on where the entries are: sizes, options, leading dimensions (checked
// against a stand-in address; the entries' own addresses are checked by the callers).
template <class T>
void check_shape(const char* f, Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                 std::int64_t lda, std::int64_t ldb, std::int64_t ldc, std::int64_t batch,
                 const trncore::Options& options) {
  check_enums(f, {enum_arg("layout", layout), enum_arg("transa", transa), enum_arg("transb", transb)});
  check_host_call<T>(f, {{"m", m}, {"n", n}, {"k", k}, {"batch", batch}}, options);
  const T stand_in{};
  check_matrix(f, "a", layout, transa, m, k, &stand_in, lda, sizeof(T));
  check_matrix(f, "b", layout, transb, k, n, &stand_in, ldb, sizeof(T));
  check_matrix(f, "c", layout, Op::no_trans, m, n, &stand_in, ldc, sizeof(T), false);
  check_blasint(f, {{"m", m}, {"n", n}, {"k", k}, {"lda", lda}, {"ldb", ldb}, {"ldc", ldc}});
}

// Entry i's A, B, C: not null where they have elements, and no C sharing storage with anything else.
template <class T>
void check_entries(const char* f, Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                   std::int64_t lda, std::int64_t ldb, std::int64_t ldc, std::int64_t batch, auto&& a_of, auto&& b_of,
                   auto&& c_of) {
  std::vector<BatchOperand> operands;
  operands.reserve(static_cast<std::size_t>(batch) * (k > 0 ? 3 : 1));
  for (std::int64_t i = 0; i < batch; ++i) {
    const T* a = a_of(i);
    const T* b = b_of(i);
    const T* c = c_of(i);
    const char* null = k > 0 && a == nullptr ? "a" : k > 0 && b == nullptr ? "b" : c == nullptr ? "c" : nullptr;
    if (null != nullptr)
      throw trncore::InvalidArgument(f,
                                     std::string(null) + "[" + std::to_string(i) +
                                         "] is null (m = " + std::to_string(m) + ", n = " + std::to_string(n) +
                                         ", k = " + std::to_string(k) + ")",
                                     "pass storage for every entry of the batch");
    operands.push_back({matrix_region(c, layout, Op::no_trans, m, n, ldc, sizeof(T)), "C", i, true});
    if (k > 0) {
      operands.push_back({matrix_region(a, layout, transa, m, k, lda, sizeof(T)), "A", i, false});
      operands.push_back({matrix_region(b, layout, transb, k, n, ldb, sizeof(T)), "B", i, false});
    }
  }
  check_batch_overlaps(f, std::move(operands));
}

template <class T>
void run_entry(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k, const T& alpha,
               const T* a, std::int64_t lda, const T* b, std::int64_t ldb, const T& beta, T* c, std::int64_t ldc) {
  pick<T>(cblas_sgemm, cblas_dgemm, cblas_cgemm, cblas_zgemm)(cblas_order(layout), cblas_trans(transa),
                                                              cblas_trans(transb), bi(m), bi(n), bi(k), scalar(alpha),
                                                              a, bi(lda), b, bi(ldb), scalar(beta), c, bi(ldc));
}

// The last entry's offset, (batch − 1)·stride elements, plus the operand's extent must stay within int64.
void check_stride(const char* f, const char* name, std::int64_t stride, std::int64_t batch) {
  if (stride < 0)
    throw trncore::InvalidArgument(f, std::string("stride_") + name + " = " + std::to_string(stride) + " is negative",
                                   std::string("pass stride_") + name + " >= 0");
  if (batch > 1 && stride > std::numeric_limits<std::int64_t>::max() / 16 / (batch - 1))
    throw trncore::InvalidArgument(f,
                                   std::string("the offset of the last entry, (batch - 1) x stride_") + name + " = " +
                                       std::to_string(batch - 1) + " x " + std::to_string(stride) +
                                       ", overflows int64 bytes",
                                   "pass a smaller batch or stride");
}

// Entry i of a strided operand; a null base (allowed when the operand is empty) stays null rather than
// becoming an offset null pointer.
template <class P>
P* entry(P* base, std::int64_t i, std::int64_t stride) {
  return base == nullptr ? nullptr : base + i * stride;
}

}  // namespace

template <class T>
void gemm_batched(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                  std::type_identity_t<T> alpha, const T* const* a, std::int64_t lda, const T* const* b,
                  std::int64_t ldb, std::type_identity_t<T> beta, T* const* c, std::int64_t ldc, std::int64_t batch,
                  const trncore::Options& options) {
  constexpr const char* f = "trnblas::gemm_batched";
  check_shape<T>(f, layout, transa, transb, m, n, k, lda, ldb, ldc, batch, options);
  if (m == 0 || n == 0 || batch == 0) return;
  const char* null_array = a == nullptr ? "a" : b == nullptr ? "b" : c == nullptr ? "c" : nullptr;
  if (null_array != nullptr)
    throw trncore::InvalidArgument(
        f, std::string("the pointer array ") + null_array + " is null for batch = " + std::to_string(batch),
        "pass an array of batch pointers");
  check_entries<T>(
      f, layout, transa, transb, m, n, k, lda, ldb, ldc, batch, [&](std::int64_t i) { return a[i]; },
      [&](std::int64_t i) { return b[i]; }, [&](std::int64_t i) -> const T* { return c[i]; });
  for (std::int64_t i = 0; i < batch; ++i)
    run_entry<T>(layout, transa, transb, m, n, k, alpha, a[i], lda, b[i], ldb, beta, c[i], ldc);
}

template <class T>
void gemm_strided_batched(Layout layout, Op transa, Op transb, std::int64_t m, std::int64_t n, std::int64_t k,
                          std::type_identity_t<T> alpha, const T* a, std::int64_t lda, std::int64_t stride_a,
                          const T* b, std::int64_t ldb, std::int64_t stride_b, std::type_identity_t<T> beta, T* c,
                          std::int64_t ldc, std::int64_t stride_c, std::int64_t batch,
                          const trncore::Options& options) {
  constexpr const char* f = "trnblas::gemm_strided_batched";
  check_shape<T>(f, layout, transa, transb, m, n, k, lda, ldb, ldc, batch, options);
  check_stride(f, "a", stride_a, batch);
  check_stride(f, "b", stride_b, batch);
  check_stride(f, "c", stride_c, batch);
  if (m == 0 || n == 0 || batch == 0) return;
  check_entries<T>(
      f, layout, transa, transb, m, n, k, lda, ldb, ldc, batch, [&](std::int64_t i) { return entry(a, i, stride_a); },
      [&](std::int64_t i) { return entry(b, i, stride_b); },
      [&](std::int64_t i) -> const T* { return entry(c, i, stride_c); });
  for (std::int64_t i = 0; i < batch; ++i)
    run_entry<T>(layout, transa, transb, m, n, k, alpha, entry(a, i, stride_a), lda, entry(b, i, stride_b), ldb, beta,
                 entry(c, i, stride_c), ldc);
}

#define TRNBLAS_BATCHED(T)                                                                                             \
  template void gemm_batched<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T* const*,          \
                                std::int64_t, const T* const*, std::int64_t, T, T* const*, std::int64_t, std::int64_t, \
                                const trncore::Options&);                                                              \
  template void gemm_strided_batched<T>(Layout, Op, Op, std::int64_t, std::int64_t, std::int64_t, T, const T*,         \
                                        std::int64_t, std::int64_t, const T*, std::int64_t, std::int64_t, T, T*,       \
                                        std::int64_t, std::int64_t, std::int64_t, const trncore::Options&);
TRNBLAS_BATCHED(float)
TRNBLAS_BATCHED(double)
TRNBLAS_BATCHED(std::complex<float>)
TRNBLAS_BATCHED(std::complex<double>)
#undef TRNBLAS_BATCHED

}  // namespace trnblas
