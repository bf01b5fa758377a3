// Forming a sketch's test matrix Ω and applying it to a dense matrix (sketch.hpp).
#include "common.hpp"
#include "internal_gemm.hpp"
#include "sketch_draws.hpp"

#include <trnblas/gemm.hpp>
#include <trncore/detail/enum_names.hpp>
#include <trncore/detail/parallel.hpp>
#include <trnrand/distributions.hpp>
#include <trnrand/stream.hpp>

#include <algorithm>
#include <bit>
#include <span>
#include <string>

namespace trnsolver {

namespace {

constexpr trncore::detail::EnumNames<SketchKind, 4> kSketchKinds{{{{"gaussian", SketchKind::gaussian},
                                                                   {"rademacher", SketchKind::rademacher},
                                                                   {"sparse_sign", SketchKind::sparse_sign},
                                                                   {"srht", SketchKind::srht}}}};

void check_sizes(std::int64_t n, std::int64_t l, int threads, const char* function) {
  if (n < 0 || l < 0)
    throw trncore::InvalidArgument(function, "n = " + std::to_string(n) + ", l = " + std::to_string(l),
                                   "sizes must be >= 0");
  if (threads < 0)
    throw trncore::InvalidArgument(function, "threads = " + std::to_string(threads) + " < 0",
                                   "use 0 (hardware concurrency) or a positive count");
}

// Ω's rows of the row-keyed kinds are drawn once per call; the column-keyed kinds fill column j from the
// stream position j·(words per column), so a column never depends on which thread fills it.
template <class T>
void form(const Sketch& sketch, std::int64_t n, std::int64_t l, T* omega, std::int64_t ldo, int threads,
          const char* function) {
  using namespace randomized_detail;
  const trnrand::Stream base = trnrand::make_stream(sketch.seed, sketch.stream);
  const auto column = [&](std::int64_t j) { return std::span<T>(omega + j * ldo, static_cast<std::size_t>(n)); };
  switch (sketch.kind) {
    case SketchKind::gaussian: {
      // trnrand::normal's word budget: each value owns 2 words (float) or 4 (double), so column j starts
      // where column j − 1's n values end and no two entries of Ω share a word.
      const auto per_column = static_cast<std::uint64_t>(n) * (sizeof(T) == 4 ? 2u : 4u);
      trncore::detail::parallel_for(l, threads, [&](std::int64_t j) {
        trnrand::normal(trnrand::skip_ahead(base, static_cast<std::uint64_t>(j) * per_column), column(j));
      });
      return;
    }
    case SketchKind::rademacher:
      trncore::detail::parallel_for(l, threads, [&](std::int64_t j) {
        std::vector<std::uint32_t> words(static_cast<std::size_t>(n));
        trnrand::fill_uint32(trnrand::skip_ahead(base, static_cast<std::uint64_t>(j * n)), words,
                             trncore::Options{}.with_threads(1));
        for (std::int64_t i = 0; i < n; ++i)
          omega[i + j * ldo] = (words[static_cast<std::size_t>(i)] >> 31) ? T(-1) : T(1);
      });
      return;
    case SketchKind::sparse_sign: {
      for (std::int64_t j = 0; j < l; ++j) std::fill_n(omega + j * ldo, n, T(0));
      const SparseSignRows<T> rows = sparse_sign_rows<T>(sketch, n, l, threads);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t t = 0; t < rows.zeta; ++t) {
          const auto e = static_cast<std::size_t>(i * rows.zeta + t);
          omega[i + rows.cols[e] * ldo] = rows.vals[e];
        }
      return;
    }
    case SketchKind::srht: {
      const SrhtDraws<T> d = srht_draws<T>(sketch, n, l, function);
      trncore::detail::parallel_for(l, threads, [&](std::int64_t j) {
        const auto p = static_cast<std::uint64_t>(d.picks[static_cast<std::size_t>(j)]);
        for (std::int64_t i = 0; i < n; ++i) {
          const bool odd = (std::popcount(static_cast<std::uint64_t>(i) & p) & 1) != 0;
          omega[i + j * ldo] = odd ? -d.signs[static_cast<std::size_t>(i)] : d.signs[static_cast<std::size_t>(i)];
        }
      });
      return;
    }
  }
}

// Y(r, :) = Σ_i A(r, i)·Ω(i, :) over Ω's ζ nonzeros per row, ascending i for every output element; rows of
// Y are independent, so threads split them.
template <class T>
void apply_sparse_sign(trncore::MatrixView<const T> a, const Sketch& sketch, DenseMatrix<T>& y, int threads) {
  const auto rows = randomized_detail::sparse_sign_rows<T>(sketch, a.cols(), y.cols, threads);
  constexpr std::int64_t kBlock = 64;
  const bool row_major = a.layout() == Layout::row_major;
  const std::int64_t blocks = (a.rows() + kBlock - 1) / kBlock;
  trncore::detail::parallel_for(blocks, threads, [&](std::int64_t b) {
    const std::int64_t r0 = b * kBlock, r1 = std::min(a.rows(), r0 + kBlock);
    for (std::int64_t i = 0; i < a.cols(); ++i)
      for (std::int64_t t = 0; t < rows.zeta; ++t) {
        const auto e = static_cast<std::size_t>(i * rows.zeta + t);
        T* out = y.data.data() + rows.cols[e] * y.ld();
        const T v = rows.vals[e];
        for (std::int64_t r = r0; r < r1; ++r)
          out[r] += v * (row_major ? a.data()[r * a.ld() + i] : a.data()[r + i * a.ld()]);
      }
  });
}

// Y(r, j) = (FWHT of A(r, :)·D)(P_j) per row r: O(N log N) per row, no Ω. Rows go in blocks of kBlock,
// interleaved in the buffer, so a column-major A is read contiguously and the butterflies vectorise; each
// row's arithmetic is fwht's, so the block size and the thread split never change a bit.
template <class T>
void apply_srht(trncore::MatrixView<const T> a, const Sketch& sketch, DenseMatrix<T>& y, int threads,
                const char* function) {
  const auto d = randomized_detail::srht_draws<T>(sketch, a.cols(), y.cols, function);
  const bool row_major = a.layout() == Layout::row_major;
  constexpr std::int64_t kBlock = 16;
  const std::int64_t blocks = (a.rows() + kBlock - 1) / kBlock;
  trncore::detail::parallel_for(blocks, threads, [&](std::int64_t b) {
    const std::int64_t r0 = b * kBlock, width = std::min(a.rows(), r0 + kBlock) - r0;
    std::vector<T> buf(static_cast<std::size_t>(d.length * width), T(0));
    for (std::int64_t i = 0; i < a.cols(); ++i) {
      const T sign = d.signs[static_cast<std::size_t>(i)];
      for (std::int64_t c = 0; c < width; ++c)
        buf[static_cast<std::size_t>(i * width + c)] =
            sign * (row_major ? a.data()[(r0 + c) * a.ld() + i] : a.data()[r0 + c + i * a.ld()]);
    }
    randomized_detail::fwht_interleaved(buf.data(), d.length, width);
    for (std::int64_t j = 0; j < y.cols; ++j) {
      const T* src = buf.data() + d.picks[static_cast<std::size_t>(j)] * width;
      for (std::int64_t c = 0; c < width; ++c) y(r0 + c, j) = src[c];
    }
  });
}

}  // namespace

std::string_view to_string(SketchKind kind) noexcept { return kSketchKinds.name(kind); }
SketchKind parse_sketch_kind(std::string_view text) {
  return kSketchKinds.parse(text, "trnsolver::parse_sketch_kind", "sketch kind");
}

template <class T>
void sketch_matrix(const Sketch& sketch, std::int64_t n, std::int64_t l, T* omega, std::int64_t ldo,
                   const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::sketch_matrix";
  check_sizes(n, l, options.threads, kFunction);
  randomized_detail::check_common(sketch, options, kFunction);
  const int threads = options.threads;
  if (ldo < std::max<std::int64_t>(1, n))
    throw trncore::DimensionMismatch(kFunction,
                                     "ldo = " + std::to_string(ldo) + " < max(1, n = " + std::to_string(n) + ")",
                                     "pass ldo >= max(1, n) (column-major storage)");
  if (omega == nullptr && n > 0 && l > 0)
    throw trncore::InvalidArgument(kFunction,
                                   "omega is null for a " + std::to_string(n) + "x" + std::to_string(l) + " sketch",
                                   "pass storage for n*l elements");
  if (n == 0 || l == 0) {
    if (sketch.kind == SketchKind::srht) (void)randomized_detail::srht_draws<T>(sketch, n, l, kFunction);
    return;
  }
  form(sketch, n, l, omega, ldo, threads, kFunction);
}

template <class T>
DenseMatrix<T> sketch_matrix(const Sketch& sketch, std::int64_t n, std::int64_t l, const trncore::Options& options) {
  check_sizes(n, l, options.threads, "trnsolver::sketch_matrix");
  DenseMatrix<T> omega(n, l, Layout::col_major);
  sketch_matrix<T>(sketch, n, l, omega.data.data(), omega.ld(), options);
  return omega;
}

template <class T>
DenseMatrix<T> sketch_right(trncore::MatrixView<const T> a, std::int64_t l, const Sketch& sketch,
                            const trncore::Options& options) {
  constexpr const char* kFunction = "trnsolver::sketch_right";
  check_sizes(a.cols(), l, options.threads, kFunction);
  randomized_detail::check_common(sketch, options, kFunction);
  DenseMatrix<T> y(a.rows(), l, Layout::col_major);
  switch (sketch.kind) {
    case SketchKind::sparse_sign: apply_sparse_sign(a, sketch, y, options.threads); break;
    case SketchKind::srht: apply_srht(a, sketch, y, options.threads, kFunction); break;
    default: {
      const DenseMatrix<T> omega =
          sketch_matrix<T>(sketch, a.cols(), l, trncore::Options{}.with_threads(options.threads));
      const Op op_a = a.layout() == Layout::col_major ? Op::no_trans : Op::trans;
      trnsolver::detail::internal_gemm(Layout::col_major, op_a, Op::no_trans, a.rows(), l, a.cols(), T(1), a.data(),
                                       a.ld(), omega.data.data(), omega.ld(), T(0), y.data.data(), y.ld(), options);
    }
  }
  return y;
}

template <class T>
DenseMatrix<T> sketch_left(trncore::MatrixView<const T> a, std::int64_t l, const Sketch& sketch,
                           const trncore::Options& options) {
  const Layout flipped = a.layout() == Layout::row_major ? Layout::col_major : Layout::row_major;
  const trncore::MatrixView<const T> at(a.data(), a.cols(), a.rows(), a.ld(), flipped);
  const DenseMatrix<T> yt = sketch_right<T>(at, l, sketch, options);  // Aᵀ·Ω, n×l
  DenseMatrix<T> y(l, a.cols(), Layout::col_major);
  for (std::int64_t j = 0; j < a.cols(); ++j)
    for (std::int64_t i = 0; i < l; ++i) y(i, j) = yt(j, i);
  return y;
}

#define TRNSOLVER_SKETCH(T)                                                                                     \
  template void sketch_matrix<T>(const Sketch&, std::int64_t, std::int64_t, T*, std::int64_t,                   \
                                 const trncore::Options&);                                                      \
  template DenseMatrix<T> sketch_matrix<T>(const Sketch&, std::int64_t, std::int64_t, const trncore::Options&); \
  template DenseMatrix<T> sketch_right<T>(trncore::MatrixView<const T>, std::int64_t, const Sketch&,            \
                                          const trncore::Options&);                                             \
  template DenseMatrix<T> sketch_left<T>(trncore::MatrixView<const T>, std::int64_t, const Sketch&,             \
                                         const trncore::Options&);
TRNSOLVER_SKETCH(float)
TRNSOLVER_SKETCH(double)
#undef TRNSOLVER_SKETCH

}  // namespace trnsolver
