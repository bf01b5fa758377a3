// The distributed LU without pivoting, its triangular solves and the fp64 row products (dist_lu.hpp).
// Every BLAS call covers one global block (a diagonal block, a row block of L21, a column block of U12, an
// nb×nb tile of the trailing matrix): OpenBLAS's kernels round differently for different call shapes, so
// calls shaped by the grid (one GEMM over all local rows and columns) would make the factors depend on P×Q;
// calls shaped by the global blocks make them the same bits on every grid (docs/distributed.md). The diagonal
// block is factored with the single-process blocked LU's panel code (trnsolver/src/sim/blocked_lu.cpp). This
// file is compiled with -ffp-contract=off (every trnsci target is).
#include "hpl/dist_lu.hpp"

#include <trnblas/gemm.hpp>
#include <trnblas/level3.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/math_mode.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <span>

// The Fortran BLAS entry of the OpenBLAS that trnblas::gemm calls through CBLAS (the same driver and kernels):
// the uncertified host trailing updates call it directly, without trnblas's scans of every operand for the
// certificate (which cost several times the product on nb×nb blocks).
extern "C" void sgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                       const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                       const float* beta, float* c, const int* ldc);

namespace trnsolver::mpi::detail {

namespace tm = trncore::mpi;

Cyclic::Cyclic(const ProcessGrid& g, std::int64_t n_, std::int64_t nb_)
    : grid(&g), n(n_), nb(nb_), p(g.rows()), q(g.cols()), row(g.row()), col(g.col()) {
  mloc = tm::numroc(n, nb, row, 0, p);
  nloc = tm::numroc(n, nb, col, 0, q);
}

std::int64_t Cyclic::below(std::int64_t g, int ip, int np) const { return tm::numroc(g, nb, ip, 0, np); }

std::vector<double> replicate_rows(const Cyclic& c, const std::vector<double>& local, std::int64_t k) {
  std::vector<double> out(static_cast<std::size_t>(k * c.n));
  const std::vector<double> all = c.grid->col_comm().allgatherv(std::span<const double>(local));
  std::size_t at = 0;
  for (int r = 0; r < c.p; ++r) {
    const std::int64_t m = c.below(c.n, r, c.p);
    for (std::int64_t v = 0; v < k; ++v)
      for (std::int64_t il = 0; il < m; ++il) out[static_cast<std::size_t>(v * c.n + c.global(il, r, c.p))] = all[at++];
  }
  return out;
}

// Column `col` of the distributed B (rows blocked as A), replicated on every rank.
std::vector<double> replicate_column(const Cyclic& cy, DistMatrix<const double> b, std::int64_t col) {
  const ProcessGrid& g = *cy.grid;
  const tm::Descriptor& d = b.desc;
  const int owner = static_cast<int>((col / d.nb + d.csrc) % g.cols());
  std::vector<double> mine;
  if (g.col() == owner) {
    const std::int64_t jl = (col / d.nb) / g.cols() * d.nb + col % d.nb;
    mine.assign(b.data + jl * d.lld, b.data + jl * d.lld + cy.mloc);
  }
  const std::vector<double> all = g.comm().allgatherv(std::span<const double>(mine));
  std::vector<double> out(static_cast<std::size_t>(cy.n));
  std::size_t at = 0;
  for (int r = 0; r < g.comm().size(); ++r) {
    if (r % g.cols() != owner) continue;
    const int prow = r / g.cols();
    const std::int64_t m = cy.below(cy.n, prow, cy.p);
    for (std::int64_t il = 0; il < m; ++il) out[static_cast<std::size_t>(cy.global(il, prow, cy.p))] = all[at++];
  }
  return out;
}

void write_column(const Cyclic& cy, DistMatrix<double> x, std::int64_t col, const std::vector<double>& v) {
  const ProcessGrid& g = *cy.grid;
  const tm::Descriptor& d = x.desc;
  if (g.col() != static_cast<int>((col / d.nb + d.csrc) % g.cols())) return;
  const std::int64_t jl = (col / d.nb) / g.cols() * d.nb + col % d.nb;
  for (std::int64_t il = 0; il < cy.mloc; ++il)
    x.data[il + jl * d.lld] = v[static_cast<std::size_t>(cy.global(il, cy.row, cy.p))];
}

namespace {

// blocked_lu.cpp's unblocked panel: columns [j0, j1) of rows [j0, n) (no pivoting here).
std::int64_t unblocked(std::int64_t n, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1) {
  const auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[i + j * lda]; };
  std::int64_t info = 0;
  for (std::int64_t j = j0; j < j1; ++j) {
    const float pivot = at(j, j);
    if (pivot == 0.0f) {
      if (info == 0) info = j + 1;
      continue;
    }
    for (std::int64_t i = j + 1; i < n; ++i) at(i, j) /= pivot;
    for (std::int64_t c = j + 1; c < j1; ++c) {
      const float u = at(j, c);
      for (std::int64_t i = j + 1; i < n; ++i) at(i, c) -= at(i, j) * u;
    }
  }
  return info;
}

// A column-major block's smallest nonzero magnitude (+inf when it is all zero) and whether it holds inf or NaN.
struct BlockScan {
  double smallest = std::numeric_limits<double>::infinity();
  bool nonfinite = false;
};

BlockScan scan_block(const float* x, std::int64_t ld, std::int64_t rows, std::int64_t cols) {
  std::uint32_t smallest = 0x7f800000u, top = 0;  // magnitudes as bit patterns (monotone for non-negative floats)
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::uint32_t u = std::bit_cast<std::uint32_t>(x[i + j * ld]) & 0x7fffffffu;
      top = std::max(top, u);
      if (u != 0) smallest = std::min(smallest, u);
    }
  return {static_cast<double>(std::bit_cast<float>(smallest)), top >= 0x7f800000u};
}

// Whether a block holds inf, NaN (`nonfinite`) or a nonzero below fp32's normal range (`subnormal`).
void check_block(const float* x, std::int64_t ld, std::int64_t rows, std::int64_t cols, bool& nonfinite,
                 bool& subnormal) {
  std::uint32_t top = 0, low = 0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) {
      const std::uint32_t u = std::bit_cast<std::uint32_t>(x[i + j * ld]) & 0x7fffffffu;
      top = std::max(top, u);
      low |= static_cast<std::uint32_t>(u - 1u < 0x007fffffu);  // 0 < u < 2^-126's bits
    }
  nonfinite = nonfinite || top >= 0x7f800000u;
  subnormal = subnormal || low != 0;
}

void gemm_update(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
                 std::int64_t ldb, float* c, std::int64_t ldc, const trncore::Options& options, bool& certified,
                 bool certify = true) {
  if (!certify && options.backend == trncore::Backend::host) {
    const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k), la = static_cast<int>(lda),
              lb = static_cast<int>(ldb), lc = static_cast<int>(ldc);
    const float alpha = -1.0f, beta = 1.0f;
    sgemm_("N", "N", &mi, &ni, &ki, &alpha, a, &la, b, &lb, &beta, c, &lc);
    return;
  }
  trncore::AccuracyReport report;
  trnblas::gemm<float>(trncore::Layout::col_major, trnblas::Op::no_trans, trnblas::Op::no_trans, m, n, k, -1.0f, a, lda,
                       b, ldb, 1.0f, c, ldc, options, report);
  if (!report.certified) certified = false;
}

// blocked_lu.cpp's recursive panel (one thread: its rounding never depends on the thread count).
std::int64_t panel(std::int64_t n, float* a, std::int64_t lda, std::int64_t j0, std::int64_t j1,
                   const trncore::Options& host, bool& certified) {
  constexpr std::int64_t kUnblocked = 16;
  if (j1 - j0 <= kUnblocked) return unblocked(n, a, lda, j0, j1);
  const std::int64_t mid = j0 + (j1 - j0) / 2, w = mid - j0, right = j1 - mid;
  const std::int64_t info = panel(n, a, lda, j0, mid, host, certified);
  trnblas::trsm<float>(trncore::Layout::col_major, trnblas::Side::left, trnblas::Uplo::lower, trnblas::Op::no_trans,
                       trnblas::Diag::unit, w, right, 1.0f, a + j0 + j0 * lda, lda, a + j0 + mid * lda, lda, host);
  if (n - mid > 0)
    gemm_update(n - mid, right, w, a + mid + j0 * lda, lda, a + j0 + mid * lda, lda, a + mid + mid * lda, lda, host,
                certified);
  const std::int64_t right_info = panel(n, a, lda, mid, j1, host, certified);
  return info != 0 ? info : right_info;
}

}  // namespace

DistLu factorize(const Cyclic& c, const double* a, std::int64_t lda, FactorPrecision precision,
                 const trncore::Options& options, bool certify) {
  DistLu lu(c);
  lu.precision = precision;
  lu.sim = options.backend == trncore::Backend::sim;
  lu.ld = std::max<std::int64_t>(1, c.mloc);
  lu.f.resize(static_cast<std::size_t>(lu.ld * c.nloc));
  for (std::int64_t j = 0; j < c.nloc; ++j)
    for (std::int64_t i = 0; i < c.mloc; ++i)
      lu.f[static_cast<std::size_t>(i + j * lu.ld)] = static_cast<float>(a[i + j * lda]);
  // The host trailing updates' certificate, checked here rather than by trnblas::gemm's scans of every operand
  // (the same conditions, trnblas's host bound: no inf/NaN read or produced, no nonzero C entry and no product of
  // an L21 and a U12 entry below fp32's normal range), each block scanned once per step: C after its update
  // (what the next step reads), L21 and U12 once. The A read by the first step is checked here.
  const bool fast_certificate = certify && options.backend == trncore::Backend::host;
  bool tile_nonfinite = false, tile_subnormal = false;
  if (fast_certificate && c.mloc > 0) check_block(lu.f.data(), lu.ld, c.mloc, c.nloc, tile_nonfinite, tile_subnormal);
  trncore::Options gemm = options;
  gemm.target_forward_error.reset();
  gemm.monitor = {};
  gemm.math_mode = precision == FactorPrecision::bf16
                       ? trncore::MathMode::bf16
                       : (lu.sim ? trncore::MathMode::fp32 : trncore::MathMode::automatic);
  trncore::Options host;
  host.threads = 1;
  trncore::Options solve_options = host;
  solve_options.threads = gemm.threads;
  const tm::ProcessGrid& g = *c.grid;
  const std::int64_t n = c.n, nb = c.nb, ld = lu.ld;
  float* f = lu.f.data();
  bool certified = true;
  std::vector<float> top, l21, u12;
  using trnblas::Diag;
  using trnblas::Op;
  using trnblas::Side;
  using trnblas::Uplo;
  constexpr auto kCol = trncore::Layout::col_major;
  for (std::int64_t k0 = 0, kblock = 0; k0 < n; k0 += nb, ++kblock) {
    const std::int64_t kb = std::min(nb, n - k0), rest = n - k0 - kb;
    const int pr = static_cast<int>(kblock % c.p), pc = static_cast<int>(kblock % c.q);
    const std::int64_t lr0 = c.below(k0, c.row, c.p), lr1 = c.below(k0 + kb, c.row, c.p);
    const std::int64_t lc0 = c.below(k0, c.col, c.q), lc1 = c.below(k0 + kb, c.col, c.q);
    const std::int64_t mrest = c.mloc - lr1, ncrest = c.nloc - lc1;
    top.assign(static_cast<std::size_t>(kb * kb), 0.0f);
    l21.assign(static_cast<std::size_t>(mrest * kb), 0.0f);
    const std::int64_t ldl = std::max<std::int64_t>(1, mrest);
    if (c.col == pc) {
      // The diagonal block, factored by its owner with the single-process panel code, then down the column.
      if (c.row == pr) {
        for (std::int64_t j = 0; j < kb; ++j)
          for (std::int64_t i = 0; i < kb; ++i)
            top[static_cast<std::size_t>(i + j * kb)] = f[(lr0 + i) + (lc0 + j) * ld];
        panel(kb, top.data(), kb, 0, kb, host, certified);
        for (std::int64_t j = 0; j < kb; ++j)
          for (std::int64_t i = 0; i < kb; ++i)
            f[(lr0 + i) + (lc0 + j) * ld] = top[static_cast<std::size_t>(i + j * kb)];
      }
      if (c.p > 1) g.col_comm().broadcast(std::span<float>(top), pr);
      // L21 = A21 U11⁻¹, one global row block at a time (the call's shape never depends on the grid).
      for (std::int64_t i0 = 0; i0 < mrest; i0 += nb) {
        const std::int64_t h = std::min(nb, mrest - i0);
        float* tile = f + (lr1 + i0) + lc0 * ld;
        trnblas::trsm<float>(kCol, Side::right, Uplo::upper, Op::no_trans, Diag::non_unit, h, kb, 1.0f, top.data(), kb,
                             tile, ld, solve_options);
        for (std::int64_t j = 0; j < kb; ++j)
          std::copy(tile + j * ld, tile + j * ld + h, l21.begin() + static_cast<std::ptrdiff_t>(i0 + j * ldl));
      }
    }
    if (rest == 0) break;
    // L21 (and L11 in the diagonal block's process row) along the process rows.
    if (c.q > 1) {
      std::vector<float> buf(l21.size() + (c.row == pr ? top.size() : 0));
      if (c.col == pc) {
        std::copy(l21.begin(), l21.end(), buf.begin());
        if (c.row == pr) std::copy(top.begin(), top.end(), buf.begin() + static_cast<std::ptrdiff_t>(l21.size()));
      }
      g.row_comm().broadcast(std::span<float>(buf), pc);
      if (c.col != pc) {
        std::copy(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(l21.size()), l21.begin());
        if (c.row == pr) std::copy(buf.begin() + static_cast<std::ptrdiff_t>(l21.size()), buf.end(), top.begin());
      }
    }
    // U12 = L11⁻¹ A12 in the diagonal block's process row, one global column block at a time, then down the
    // process columns.
    u12.assign(static_cast<std::size_t>(kb * ncrest), 0.0f);
    if (c.row == pr)
      for (std::int64_t j0 = 0; j0 < ncrest; j0 += nb) {
        const std::int64_t w = std::min(nb, ncrest - j0);
        float* tile = f + lr0 + (lc1 + j0) * ld;
        trnblas::trsm<float>(kCol, Side::left, Uplo::lower, Op::no_trans, Diag::unit, kb, w, 1.0f, top.data(), kb, tile,
                             ld, solve_options);
        for (std::int64_t j = 0; j < w; ++j)
          std::copy(tile + j * ld, tile + j * ld + kb, u12.begin() + static_cast<std::ptrdiff_t>((j0 + j) * kb));
      }
    if (c.p > 1) g.col_comm().broadcast(std::span<float>(u12), pr);
    // A22 −= L21 U12, one global nb×nb block at a time.
    std::vector<BlockScan> row_scan, col_scan;
    if (fast_certificate) {
      for (std::int64_t i0 = 0; i0 < mrest; i0 += nb)
        row_scan.push_back(scan_block(l21.data() + i0, ldl, std::min(nb, mrest - i0), kb));
      for (std::int64_t j0 = 0; j0 < ncrest; j0 += nb)
        col_scan.push_back(scan_block(u12.data() + j0 * kb, kb, kb, std::min(nb, ncrest - j0)));
    }
    const double normal_min = static_cast<double>(std::numeric_limits<float>::min());
    for (std::int64_t j0 = 0; j0 < ncrest; j0 += nb) {
      const std::int64_t w = std::min(nb, ncrest - j0);
      for (std::int64_t i0 = 0; i0 < mrest; i0 += nb) {
        const std::int64_t h = std::min(nb, mrest - i0);
        float* tile = f + (lr1 + i0) + (lc1 + j0) * ld;
        gemm_update(h, w, kb, l21.data() + i0, ldl, u12.data() + j0 * kb, kb, tile, ld, gemm, certified,
                    certify && !fast_certificate);
        if (fast_certificate) {
          const BlockScan& ra = row_scan[static_cast<std::size_t>(i0 / nb)];
          const BlockScan& cb = col_scan[static_cast<std::size_t>(j0 / nb)];
          if (ra.nonfinite || cb.nonfinite ||
              (std::isfinite(ra.smallest) && std::isfinite(cb.smallest) &&
               std::min(1.0, ra.smallest) * std::min(1.0, cb.smallest) < normal_min))
            certified = false;
          // The result: inf/NaN never; a subnormal only where a later step reads the tile as C (block row and
          // column beyond the next panel).
          bool nonfinite = false, subnormal = false;
          check_block(tile, ld, h, w, nonfinite, subnormal);
          const std::int64_t gi = c.global(lr1 + i0, c.row, c.p) / nb, gj = c.global(lc1 + j0, c.col, c.q) / nb;
          tile_nonfinite = tile_nonfinite || nonfinite;
          if (subnormal && gi > kblock + 1 && gj > kblock + 1) tile_subnormal = true;
        }
      }
    }
  }
  // The first exactly zero pivot, and whether every GEMM was certified, agreed over the grid.
  std::int64_t first_zero = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t jl = 0; jl < c.nloc; ++jl) {
    const std::int64_t gj = c.global(jl, c.col, c.q);
    if (tm::owner_row(gj, tm::Descriptor{n, n, nb, nb, 0, 0, ld}, g) != c.row) continue;
    const std::int64_t il = c.below(gj, c.row, c.p);
    if (f[il + jl * ld] == 0.0f) {
      first_zero = std::min(first_zero, gj + 1);
    }
  }
  first_zero = g.comm().allreduce_min(first_zero);
  lu.info = first_zero == std::numeric_limits<std::int64_t>::max() ? 0 : first_zero;
  if (tile_nonfinite || tile_subnormal) certified = false;
  lu.gemms_certified = certify && g.comm().all_of(certified);
  // Every diagonal block on every rank (n·nb values), for the triangular solves' block steps.
  {
    const std::int64_t nblocks = c.blocks(), bsz = nb * nb;
    std::vector<float> mine;
    for (std::int64_t k = 0; k < nblocks; ++k) {
      if (k % c.p != c.row || k % c.q != c.col) continue;
      const std::int64_t k0 = k * nb, kb = std::min(nb, n - k0);
      const std::int64_t lr0 = c.below(k0, c.row, c.p), lc0 = c.below(k0, c.col, c.q);
      const std::size_t base = mine.size();
      mine.resize(base + static_cast<std::size_t>(bsz), 0.0f);
      for (std::int64_t j = 0; j < kb; ++j)
        for (std::int64_t i = 0; i < kb; ++i)
          mine[base + static_cast<std::size_t>(i + j * nb)] = f[(lr0 + i) + (lc0 + j) * ld];
    }
    const std::vector<float> all = g.comm().allgatherv(std::span<const float>(mine));
    lu.diag.assign(static_cast<std::size_t>(nblocks * bsz), 0.0f);
    std::size_t at = 0;
    for (int r = 0; r < g.comm().size(); ++r)
      for (std::int64_t k = 0; k < nblocks; ++k) {
        if (k % c.p != r / c.q || k % c.q != r % c.q) continue;
        std::copy(all.begin() + static_cast<std::ptrdiff_t>(at), all.begin() + static_cast<std::ptrdiff_t>(at + bsz),
                  lu.diag.begin() + static_cast<std::ptrdiff_t>(k * bsz));
        at += static_cast<std::size_t>(bsz);
      }
  }
  lu.method = std::string("LU ") + std::string(to_string(precision)) +
              " (distributed block-cyclic, nb = " + std::to_string(nb) + ", " + std::to_string(c.p) + "x" +
              std::to_string(c.q) + " grid, no pivoting, trailing updates " +
              (lu.sim ? std::string("sim TensorEngine ") + (precision == FactorPrecision::bf16 ? "bf16" : "fp32") +
                            " GEMMs with fp32 PSUM"
                      : std::string("fp32 GEMMs")) +
              ")";
  return lu;
}

// ---- triangular solves ------------------------------------------------------------------------------------

// s = Σ_J p_J over the blocks J in [first, last) ascending (s = 0; s += p_J; …), on every rank, from the
// partials of the line that holds row block K (no transpose: process row K mod P, its member c holding the
// column blocks J ≡ c mod Q) or column block K (transpose: process column K mod Q, member r holding the row
// blocks J ≡ r mod P), each member's blocks ascending, `len` values each. One MPI_Allgatherv: every rank knows
// every count, so none is exchanged. The same bits for every grid.
std::vector<double> allgather_sum(const Cyclic& c, bool transpose, std::int64_t kblock, std::int64_t first,
                                  std::int64_t last, const std::vector<double>& mine, std::int64_t len) {
  const tm::ProcessGrid& g = *c.grid;
  const int members = transpose ? c.p : c.q;
  std::vector<double> s(static_cast<std::size_t>(len), 0.0);
  if (last <= first || len == 0) return s;
  const auto count = [&](int m) {  // blocks J in [first, last) with J mod members == m
    const std::int64_t start = first + ((m - first % members) % members + members) % members;
    return start >= last ? std::int64_t{0} : (last - 1 - start) / members + 1;
  };
  const auto rank_of = [&](int m) {
    return transpose ? g.rank_of(m, static_cast<int>(kblock % c.q)) : g.rank_of(static_cast<int>(kblock % c.p), m);
  };
  std::vector<double> all;
  std::vector<std::size_t> offset(static_cast<std::size_t>(members), 0);
  if (g.comm().size() == 1) {
    all = mine;
  } else {
    std::vector<int> counts(static_cast<std::size_t>(g.comm().size()), 0), displs(counts.size(), 0);
    for (int m = 0; m < members; ++m) counts[static_cast<std::size_t>(rank_of(m))] = static_cast<int>(count(m) * len);
    int total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      displs[r] = total;
      total += counts[r];
    }
    all.resize(static_cast<std::size_t>(total));
    tm::detail::check(MPI_Allgatherv(mine.data(), counts[static_cast<std::size_t>(g.comm().rank())], MPI_DOUBLE,
                                     all.data(), counts.data(), displs.data(), MPI_DOUBLE, g.comm().native()),
                      "MPI_Allgatherv");
    for (int m = 0; m < members; ++m)
      offset[static_cast<std::size_t>(m)] = static_cast<std::size_t>(displs[static_cast<std::size_t>(rank_of(m))]);
  }
  for (std::int64_t j = first; j < last; ++j) {  // member m's k-th block is the k-th J ≡ m: walk J ascending
    const auto m = static_cast<std::size_t>(j % members);
    const double* pj = all.data() + offset[m];
    offset[m] += static_cast<std::size_t>(len);
    for (std::int64_t i = 0; i < len; ++i) s[static_cast<std::size_t>(i)] += pj[i];
  }
  return s;
}

void DistLu::solve(double* v, bool transpose) const {
  const Cyclic& c = cy;
  const std::int64_t n = c.n, nb = c.nb, nblocks = c.blocks();
  const float* fa = f.data();
  const auto local = [&](std::int64_t il, std::int64_t jl) { return static_cast<double>(fa[il + jl * ld]); };
  std::vector<double> partials, t;
  // One block step of a substitution: s = Σ_J (block K·J product) over the eliminated blocks J ascending (the
  // partials of the process row, or column, that holds them, shared with every rank by one allgather), then
  // every rank solves with the replicated diagonal block: the same bits everywhere, no broadcast.
  const auto step = [&](std::int64_t kblock, bool lower_factor, bool forward) {
    const std::int64_t k0 = kblock * nb, kb = std::min(nb, n - k0);
    const int pr = static_cast<int>(kblock % c.p), pc = static_cast<int>(kblock % c.q);
    partials.clear();
    if (!transpose && c.row == pr) {
      // Row block K of the factor times v_J for my column blocks J on the eliminated side.
      const std::int64_t lr0 = c.below(k0, c.row, c.p);
      for (std::int64_t jl0 = 0; jl0 < c.nloc; jl0 += nb) {
        const std::int64_t jb = jl0 / nb * c.q + c.col;  // global column block
        if (forward ? jb >= kblock : jb <= kblock) continue;
        const std::int64_t j0 = jb * nb, w = std::min(nb, n - j0);
        const std::size_t base = partials.size();
        partials.resize(base + static_cast<std::size_t>(kb), 0.0);
        double* pp = partials.data() + base;
        for (std::int64_t j = 0; j < w; ++j) {
          const double xj = v[j0 + j];
          const float* col = fa + lr0 + (jl0 + j) * ld;
          for (std::int64_t i = 0; i < kb; ++i) pp[i] += static_cast<double>(col[i]) * xj;
        }
      }
    } else if (transpose && c.col == pc) {
      // Column block K of the factor, transposed, times v_J for my row blocks J on the eliminated side.
      const std::int64_t lc0 = c.below(k0, c.col, c.q);
      for (std::int64_t il0 = 0; il0 < c.mloc; il0 += nb) {
        const std::int64_t ib = il0 / nb * c.p + c.row;
        if (forward ? ib >= kblock : ib <= kblock) continue;
        const std::int64_t i0 = ib * nb, h = std::min(nb, n - i0);
        const std::size_t base = partials.size();
        partials.resize(base + static_cast<std::size_t>(kb), 0.0);
        double* pp = partials.data() + base;
        for (std::int64_t j = 0; j < kb; ++j) {
          double acc = 0.0;
          for (std::int64_t i = 0; i < h; ++i) acc += local(il0 + i, lc0 + j) * v[i0 + i];
          pp[j] = acc;
        }
      }
    }
    const std::vector<double> s =
        allgather_sum(c, transpose, kblock, forward ? 0 : kblock + 1, forward ? kblock : nblocks, partials, kb);
    t.assign(v + k0, v + k0 + kb);
    const float* db = diag.data() + kblock * nb * nb;
    const auto d = [&](std::int64_t i, std::int64_t j) { return static_cast<double>(db[i + j * nb]); };
    for (std::int64_t i = 0; i < kb; ++i) t[static_cast<std::size_t>(i)] -= s[static_cast<std::size_t>(i)];
    if (!transpose && lower_factor) {  // unit lower, forward, by columns
      for (std::int64_t j = 0; j < kb; ++j)
        for (std::int64_t i = j + 1; i < kb; ++i)
          t[static_cast<std::size_t>(i)] -= d(i, j) * t[static_cast<std::size_t>(j)];
    } else if (!transpose) {  // upper, backward, by columns
      for (std::int64_t j = kb - 1; j >= 0; --j) {
        t[static_cast<std::size_t>(j)] /= d(j, j);
        for (std::int64_t i = 0; i < j; ++i) t[static_cast<std::size_t>(i)] -= d(i, j) * t[static_cast<std::size_t>(j)];
      }
    } else if (!lower_factor) {  // Uᵀ: lower, forward, by rows
      for (std::int64_t i = 0; i < kb; ++i) {
        for (std::int64_t j = 0; j < i; ++j) t[static_cast<std::size_t>(i)] -= d(j, i) * t[static_cast<std::size_t>(j)];
        t[static_cast<std::size_t>(i)] /= d(i, i);
      }
    } else {  // Lᵀ: unit upper, backward, by rows
      for (std::int64_t i = kb - 1; i >= 0; --i)
        for (std::int64_t j = i + 1; j < kb; ++j)
          t[static_cast<std::size_t>(i)] -= d(j, i) * t[static_cast<std::size_t>(j)];
    }
    std::copy(t.begin(), t.end(), v + k0);
  };
  if (!transpose) {
    for (std::int64_t k = 0; k < nblocks; ++k) step(k, true, true);         // L y = v
    for (std::int64_t k = nblocks - 1; k >= 0; --k) step(k, false, false);  // U x = y
  } else {
    for (std::int64_t k = 0; k < nblocks; ++k) step(k, false, true);       // Uᵀ z = v
    for (std::int64_t k = nblocks - 1; k >= 0; --k) step(k, true, false);  // Lᵀ x = z
  }
}

// ---- |L||U|·1 and the backward error constant -----------------------------------------------------------

std::vector<double> DistLu::lu_magnitude() const {
  const Cyclic& c = cy;
  const tm::ProcessGrid& g = *c.grid;
  const std::int64_t n = c.n, nb = c.nb;
  bool bad = false;
  for (std::int64_t jl = 0; jl < c.nloc && !bad; ++jl) {
    const std::int64_t gj = c.global(jl, c.col, c.q);
    for (std::int64_t il = 0; il < c.mloc; ++il) {
      const double v = f[static_cast<std::size_t>(il + jl * ld)];
      if (!std::isfinite(v) || (v != 0.0 && std::abs(v) < static_cast<double>(std::numeric_limits<float>::min())) ||
          (v == 0.0 && c.global(il, c.row, c.p) == gj)) {
        bad = true;
        break;
      }
    }
  }
  if (g.comm().any_of(bad)) return {};
  // Masked row products of |factor| with a replicated x, summed per column block in ascending order.
  const auto masked = [&](bool upper, const std::vector<double>& x) {
    std::vector<std::int64_t> ids;
    std::vector<double> partials;
    for (std::int64_t jl0 = 0; jl0 < c.nloc; jl0 += nb) {
      const std::int64_t jb = jl0 / nb * c.q + c.col, j0 = jb * nb, w = std::min(nb, n - j0);
      ids.push_back(jb);
      const std::size_t base = partials.size();
      partials.resize(base + static_cast<std::size_t>(c.mloc), 0.0);
      double* pp = partials.data() + base;
      for (std::int64_t j = 0; j < w; ++j)
        for (std::int64_t il = 0; il < c.mloc; ++il) {
          const std::int64_t gi = c.global(il, c.row, c.p);
          if (upper ? gi > j0 + j : gi <= j0 + j) continue;
          pp[il] += std::abs(static_cast<double>(f[static_cast<std::size_t>(il + (jl0 + j) * ld)])) *
                    x[static_cast<std::size_t>(j0 + j)];
        }
    }
    std::vector<double> local(static_cast<std::size_t>(c.mloc), 0.0);
    if (c.mloc > 0)
      local =
          tm::ordered_sum(g.row_comm(), std::span<const std::int64_t>(ids), std::span<const double>(partials), c.mloc);
    return replicate_rows(c, local, 1);
  };
  const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
  const std::vector<double> t = masked(true, ones);  // |Û|·1
  std::vector<double> w = masked(false, t);          // strictly lower |L̂|·t
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = t[i] + w[i];
  const double k = 2.0 * static_cast<double>(n) + 2.0;
  const double up = 1.0 + k * 0x1p-53 / (1.0 - k * 0x1p-53);
  for (double& v : w) v *= up;
  return w;
}

double DistLu::backward_error_constant() const {
  // Factorization::backward_error_constant(): the same LU arithmetic, distributed.
  const auto gamma = [](double k, double u) { return k * u / (1.0 - k * u); };
  const double dn = static_cast<double>(cy.n);
  const double host = gamma(dn + 2.0, 0x1p-24);
  if (!sim) return host;
  const double u8 = 0x1p-8, u32 = 0x1p-24;
  const double gemm = (1 + u8) * (1 + u8) * (1 + u8) * (1 + gamma(dn, u32)) * (1 + u32) * (1 + u32) * (1 + u32) - 1;
  return gemm + host;
}

// ---- products with the fp64 A ---------------------------------------------------------------------------

void row_products(const Cyclic& c, const double* a, std::int64_t lda, const double* x, std::vector<double>& y,
                  std::vector<double>* scale, bool absolute) {
  const std::int64_t n = c.n, nb = c.nb, m = c.mloc;
  const std::int64_t k = scale != nullptr ? 2 : 1;
  std::vector<std::int64_t> ids;
  std::vector<double> partials;
  for (std::int64_t jl0 = 0; jl0 < c.nloc; jl0 += nb) {
    const std::int64_t jb = jl0 / nb * c.q + c.col, j0 = jb * nb, w = std::min(nb, n - j0);
    ids.push_back(jb);
    const std::size_t base = partials.size();
    partials.resize(base + static_cast<std::size_t>(k * m), 0.0);
    double* py = partials.data() + base;
    double* ps = py + m;
    for (std::int64_t j = 0; j < w; ++j) {
      const double* col = a + (jl0 + j) * lda;
      const double xj = x[j0 + j], axj = std::abs(xj);
      if (absolute) {
        for (std::int64_t i = 0; i < m; ++i) py[i] += std::abs(col[i]) * xj;
      } else {
        for (std::int64_t i = 0; i < m; ++i) py[i] += col[i] * xj;
      }
      if (k == 2)
        for (std::int64_t i = 0; i < m; ++i) ps[i] += std::abs(col[i]) * axj;
    }
  }
  std::vector<double> local(static_cast<std::size_t>(k * m), 0.0);
  if (m > 0)
    local = tm::ordered_sum(c.grid->row_comm(), std::span<const std::int64_t>(ids), std::span<const double>(partials),
                            k * m);
  std::vector<double> all = replicate_rows(c, local, k);
  y.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
  if (scale != nullptr) scale->assign(all.begin() + static_cast<std::ptrdiff_t>(n), all.end());
}

}  // namespace trnsolver::mpi::detail
