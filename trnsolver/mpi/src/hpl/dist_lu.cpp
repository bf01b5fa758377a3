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
#include <cmath>
#include <limits>
#include <span>

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

void gemm_update(std::int64_t m, std::int64_t n, std::int64_t k, const float* a, std::int64_t lda, const float* b,
                 std::int64_t ldb, float* c, std::int64_t ldc, const trncore::Options& options, bool& certified) {
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
                 const trncore::Options& options) {
  DistLu lu(c);
  lu.precision = precision;
  lu.sim = options.backend == trncore::Backend::sim;
  lu.ld = std::max<std::int64_t>(1, c.mloc);
  lu.f.resize(static_cast<std::size_t>(lu.ld * c.nloc));
  for (std::int64_t j = 0; j < c.nloc; ++j)
    for (std::int64_t i = 0; i < c.mloc; ++i)
      lu.f[static_cast<std::size_t>(i + j * lu.ld)] = static_cast<float>(a[i + j * lda]);
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
    for (std::int64_t j0 = 0; j0 < ncrest; j0 += nb) {
      const std::int64_t w = std::min(nb, ncrest - j0);
      for (std::int64_t i0 = 0; i0 < mrest; i0 += nb) {
        const std::int64_t h = std::min(nb, mrest - i0);
        gemm_update(h, w, kb, l21.data() + i0, ldl, u12.data() + j0 * kb, kb, f + (lr1 + i0) + (lc1 + j0) * ld, ld,
                    gemm, certified);
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
  lu.gemms_certified = g.comm().all_of(certified);
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

void DistLu::solve(double* v, bool transpose) const {
  const Cyclic& c = cy;
  const tm::ProcessGrid& g = *c.grid;
  const std::int64_t n = c.n, nb = c.nb, nblocks = c.blocks();
  const float* fa = f.data();
  const auto local = [&](std::int64_t il, std::int64_t jl) { return static_cast<double>(fa[il + jl * ld]); };
  std::vector<std::int64_t> ids;
  std::vector<double> partials, t;
  // One block step of a substitution: s = Σ_J (block K·J product) over the blocks J in `range` ascending,
  // summed in global block order over the process row (no transpose) or column (transpose), then the diagonal
  // block's owner solves and broadcasts v_K.
  const auto step = [&](std::int64_t kblock, bool lower_factor, bool forward) {
    const std::int64_t k0 = kblock * nb, kb = std::min(nb, n - k0);
    const int pr = static_cast<int>(kblock % c.p), pc = static_cast<int>(kblock % c.q);
    const bool in_line = transpose ? c.col == pc : c.row == pr;
    std::vector<double> s(static_cast<std::size_t>(kb), 0.0);
    if (in_line) {
      ids.clear();
      partials.clear();
      if (!transpose) {
        // Row block K of the factor times v_J for my column blocks J on the eliminated side.
        const std::int64_t lr0 = c.below(k0, c.row, c.p);
        for (std::int64_t jl0 = 0; jl0 < c.nloc; jl0 += nb) {
          const std::int64_t jb = jl0 / nb * c.q + c.col;  // global column block
          if (forward ? jb >= kblock : jb <= kblock) continue;
          const std::int64_t j0 = jb * nb, w = std::min(nb, n - j0);
          ids.push_back(jb);
          const std::size_t base = partials.size();
          partials.resize(base + static_cast<std::size_t>(kb), 0.0);
          double* pp = partials.data() + base;
          for (std::int64_t j = 0; j < w; ++j) {
            const double xj = v[j0 + j];
            for (std::int64_t i = 0; i < kb; ++i) pp[i] += local(lr0 + i, jl0 + j) * xj;
          }
        }
        if (kb > 0)
          s = tm::ordered_sum(g.row_comm(), std::span<const std::int64_t>(ids), std::span<const double>(partials), kb);
      } else {
        // Column block K of the factor, transposed, times v_J for my row blocks J on the eliminated side.
        const std::int64_t lc0 = c.below(k0, c.col, c.q);
        for (std::int64_t il0 = 0; il0 < c.mloc; il0 += nb) {
          const std::int64_t ib = il0 / nb * c.p + c.row;
          if (forward ? ib >= kblock : ib <= kblock) continue;
          const std::int64_t i0 = ib * nb, h = std::min(nb, n - i0);
          ids.push_back(ib);
          const std::size_t base = partials.size();
          partials.resize(base + static_cast<std::size_t>(kb), 0.0);
          double* pp = partials.data() + base;
          for (std::int64_t j = 0; j < kb; ++j) {
            double acc = 0.0;
            for (std::int64_t i = 0; i < h; ++i) acc += local(il0 + i, lc0 + j) * v[i0 + i];
            pp[j] = acc;
          }
        }
        if (kb > 0)
          s = tm::ordered_sum(g.col_comm(), std::span<const std::int64_t>(ids), std::span<const double>(partials), kb);
      }
    }
    t.assign(v + k0, v + k0 + kb);
    if (c.row == pr && c.col == pc) {
      const std::int64_t lr0 = c.below(k0, c.row, c.p), lc0 = c.below(k0, c.col, c.q);
      const auto d = [&](std::int64_t i, std::int64_t j) { return local(lr0 + i, lc0 + j); };
      for (std::int64_t i = 0; i < kb; ++i) t[static_cast<std::size_t>(i)] -= s[static_cast<std::size_t>(i)];
      if (!transpose && lower_factor) {  // unit lower, forward, by columns
        for (std::int64_t j = 0; j < kb; ++j)
          for (std::int64_t i = j + 1; i < kb; ++i)
            t[static_cast<std::size_t>(i)] -= d(i, j) * t[static_cast<std::size_t>(j)];
      } else if (!transpose) {  // upper, backward, by columns
        for (std::int64_t j = kb - 1; j >= 0; --j) {
          t[static_cast<std::size_t>(j)] /= d(j, j);
          for (std::int64_t i = 0; i < j; ++i)
            t[static_cast<std::size_t>(i)] -= d(i, j) * t[static_cast<std::size_t>(j)];
        }
      } else if (!lower_factor) {  // Uᵀ: lower, forward, by rows
        for (std::int64_t i = 0; i < kb; ++i) {
          for (std::int64_t j = 0; j < i; ++j)
            t[static_cast<std::size_t>(i)] -= d(j, i) * t[static_cast<std::size_t>(j)];
          t[static_cast<std::size_t>(i)] /= d(i, i);
        }
      } else {  // Lᵀ: unit upper, backward, by rows
        for (std::int64_t i = kb - 1; i >= 0; --i)
          for (std::int64_t j = i + 1; j < kb; ++j)
            t[static_cast<std::size_t>(i)] -= d(j, i) * t[static_cast<std::size_t>(j)];
      }
    }
    g.comm().broadcast(std::span<double>(t), g.rank_of(pr, pc));
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
