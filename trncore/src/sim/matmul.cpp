// The fast implementation of the TensorEngine rules. Every output element still sees exactly the
// reference's operation sequence (acc = fl32(acc + round_product(fl32(a·b))) in ascending k): the
// blocking only changes which elements are in flight together, and C carries the accumulator between K
// blocks exactly. So the result is bit-identical to matmul_psum_reference whatever the blocking, the
// SIMD width or the thread count. The kernel is plain C++ that GCC vectorises inside each
// target-specific wrapper; the file is compiled with -ffp-contract=off so no a·b + acc becomes an FMA.
#include <trncore/detail/parallel.hpp>
#include "sim/matmul_arguments.hpp"

#include <trncore/error.hpp>
#include <trncore/sim/matmul.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

namespace trncore::sim {

namespace {

using detail::MatmulTarget;

// bf16 round-to-nearest-even of an fp32 value: add half an ulp minus one plus the kept lsb, truncate.
// Deliberately not convert_kernels::bf16_nearest: that kernel narrows to 16 bits and builds a quiet NaN,
// which costs a third of this inner loop's throughput; here NaN only has to stay NaN until the final
// canonicalisation.
// NaN is passed through (the bias could turn a NaN with a small payload into infinity); carries into the
// exponent give the right overflow to infinity and the right subnormal-to-normal step.
template <ProductModel P>
[[gnu::always_inline]] inline float round_product(float product) {
  if constexpr (P == ProductModel::exact) {
    return product;
  } else {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(product);
    const std::uint32_t rounded = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    const bool nan = (u & 0x7FFFFFFFu) > 0x7F800000u;
    return std::bit_cast<float>(nan ? u : rounded);
  }
}

constexpr int kTileRows = 8;            // rows of C in flight per micro-tile
constexpr int kTileCols = 32;           // columns of C in flight per micro-tile: 2 zmm or 4 ymm per row
constexpr std::int64_t kBlockK = 256;   // K slice whose B panel stays in cache
constexpr std::int64_t kTaskRows = 64;  // rows per thread task: micro-tiles that reuse one B panel

struct Problem {
  std::int64_t m, n, k;
  const float* a;
  std::int64_t lda;
  const float* b;
  std::int64_t ldb;
  float* c;
  std::int64_t ldc;
  bool accumulate;
};

// One full kTileRows × kTileCols tile over kc values of k, accumulator in registers.
template <ProductModel P>
[[gnu::always_inline]] inline void full_tile(std::int64_t kc, const float* a, std::int64_t lda, const float* b,
                                             std::int64_t ldb, float* c, std::int64_t ldc, bool load_c) {
  float acc[kTileRows][kTileCols];
  for (int i = 0; i < kTileRows; ++i)
    for (int j = 0; j < kTileCols; ++j) acc[i][j] = load_c ? c[i * ldc + j] : 0.0f;
  for (std::int64_t kk = 0; kk < kc; ++kk) {
    const float* brow = b + kk * ldb;
    for (int i = 0; i < kTileRows; ++i) {
      const float av = a[i * lda + kk];
      for (int j = 0; j < kTileCols; ++j) acc[i][j] = acc[i][j] + round_product<P>(av * brow[j]);
    }
  }
  for (int i = 0; i < kTileRows; ++i)
    for (int j = 0; j < kTileCols; ++j) c[i * ldc + j] = acc[i][j];
}

// A partial tile at the bottom or right edge: the same per-element sequence, accumulated in C.
template <ProductModel P>
[[gnu::always_inline]] inline void edge_tile(std::int64_t rows, std::int64_t cols, std::int64_t kc, const float* a,
                                             std::int64_t lda, const float* b, std::int64_t ldb, float* c,
                                             std::int64_t ldc, bool load_c) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j)
      if (!load_c) c[i * ldc + j] = 0.0f;
  for (std::int64_t kk = 0; kk < kc; ++kk) {
    const float* brow = b + kk * ldb;
    for (std::int64_t i = 0; i < rows; ++i) {
      const float av = a[i * lda + kk];
      float* crow = c + i * ldc;
      for (std::int64_t j = 0; j < cols; ++j) crow[j] = crow[j] + round_product<P>(av * brow[j]);
    }
  }
}

template <ProductModel P>
[[gnu::always_inline]] inline void row_block(const Problem& p, std::int64_t task) {
  const std::int64_t i_begin = task * kTaskRows;
  const std::int64_t i_end = std::min(p.m, i_begin + kTaskRows);
  if (p.k == 0 && !p.accumulate)  // no matmul ran: a cleared PSUM tile holds +0
    for (std::int64_t i = i_begin; i < i_end; ++i) std::fill(p.c + i * p.ldc, p.c + i * p.ldc + p.n, 0.0f);
  for (std::int64_t k0 = 0; k0 < p.k; k0 += kBlockK) {
    const std::int64_t kc = std::min(kBlockK, p.k - k0);
    const bool load_c = p.accumulate || k0 > 0;
    for (std::int64_t j0 = 0; j0 < p.n; j0 += kTileCols) {
      const std::int64_t cols = std::min<std::int64_t>(kTileCols, p.n - j0);
      for (std::int64_t i0 = i_begin; i0 < i_end; i0 += kTileRows) {
        const std::int64_t rows = std::min<std::int64_t>(kTileRows, i_end - i0);
        const float* a = p.a + i0 * p.lda + k0;
        const float* b = p.b + k0 * p.ldb + j0;
        float* c = p.c + i0 * p.ldc + j0;
        if (rows == kTileRows && cols == kTileCols)
          full_tile<P>(kc, a, p.lda, b, p.ldb, c, p.ldc, load_c);
        else
          edge_tile<P>(rows, cols, kc, a, p.lda, b, p.ldb, c, p.ldc, load_c);
      }
    }
  }
  for (std::int64_t i = i_begin; i < i_end; ++i)
    for (std::int64_t j = 0; j < p.n; ++j) p.c[i * p.ldc + j] = detail::canonicalize_nan(p.c[i * p.ldc + j]);
}

// One wrapper per code path; the always-inline kernel is vectorised with each wrapper's ISA.
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void run_avx512(const Problem& p, ProductModel model,
                                                                              std::int64_t task) {
  if (model == ProductModel::exact)
    row_block<ProductModel::exact>(p, task);
  else
    row_block<ProductModel::bf16>(p, task);
}
__attribute__((target("avx2"))) void run_avx2(const Problem& p, ProductModel model, std::int64_t task) {
  if (model == ProductModel::exact)
    row_block<ProductModel::exact>(p, task);
  else
    row_block<ProductModel::bf16>(p, task);
}
void run_generic(const Problem& p, ProductModel model, std::int64_t task) {
  if (model == ProductModel::exact)
    row_block<ProductModel::exact>(p, task);
  else
    row_block<ProductModel::bf16>(p, task);
}

MatmulTarget best_target() noexcept {
  if (detail::cpu_supports(MatmulTarget::avx512)) return MatmulTarget::avx512;
  if (detail::cpu_supports(MatmulTarget::avx2)) return MatmulTarget::avx2;
  return MatmulTarget::generic;
}

const char* target_name(MatmulTarget t) noexcept {
  switch (t) {
    case MatmulTarget::generic: return "generic";
    case MatmulTarget::avx2: return "avx2";
    case MatmulTarget::avx512: return "avx512";
  }
  return "invalid";
}

void run(MatmulTarget target, const char* function, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
         std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc, const MatmulOptions& options) {
  detail::check_matmul_arguments(function, m, n, k, a, lda, b, ldb, c, ldc, options);
  if (!detail::cpu_supports(target))
    throw NotSupported(function, std::string("this CPU cannot run the ") + target_name(target) + " code path",
                       "use MatmulTarget::generic or let matmul_psum choose");
  if (m == 0 || n == 0) return;
  const Problem p{m, n, k, a, lda, b, ldb, c, ldc, options.accumulate};
  const std::int64_t tasks = (m + kTaskRows - 1) / kTaskRows;
  trncore::detail::parallel_for(tasks, options.threads, [&](std::int64_t task) {
    switch (target) {
      case MatmulTarget::avx512: run_avx512(p, options.product, task); break;
      case MatmulTarget::avx2: run_avx2(p, options.product, task); break;
      case MatmulTarget::generic: run_generic(p, options.product, task); break;
    }
  });
}

}  // namespace

namespace detail {

bool cpu_supports(MatmulTarget target) noexcept {
  switch (target) {
    case MatmulTarget::generic: return true;
    case MatmulTarget::avx2: return __builtin_cpu_supports("avx2");
    case MatmulTarget::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  }
  return false;
}

void matmul_psum_on(MatmulTarget target, std::int64_t m, std::int64_t n, std::int64_t k, const float* a,
                    std::int64_t lda, const float* b, std::int64_t ldb, float* c, std::int64_t ldc,
                    const MatmulOptions& options) {
  run(target, "trncore::sim::detail::matmul_psum_on", m, n, k, a, lda, b, ldb, c, ldc, options);
}

}  // namespace detail

void matmul_psum(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
                 std::int64_t ldb, float* c, std::int64_t ldc, const MatmulOptions& options) {
  run(best_target(), "trncore::sim::matmul_psum", m, n, k, a, lda, b, ldb, c, ldc, options);
}

}  // namespace trncore::sim
