// trnsolver::mpi::rsvd / nystrom / GaussianKernel on 1-4 ranks.
//
// The key property is reproducibility: for a given matrix, seed and options every output (U, s, Vᵀ, w and
// the report) must be BITWISE identical for every rank count and every input layout. Each test therefore
// runs the routine on the world communicator (P ranks, a P×1 grid, row block mb, rsrc = 1 when P > 1) and
// again on a 1-rank communicator of its own (comm.split) on the whole matrix with a different mb, gathers
// the distributed U and compares the bits. The 3-rank run has uneven block-cyclic edges (m not a multiple
// of mb·P, nor of block_rows·P); sizes below block_rows and ranks owning no work block are covered too.
// Accuracy is checked against an fp64 LAPACK oracle (gesdd/syevd of the gathered matrix) with the
// tolerances derived at each test; the single-process trnsolver::rsvd is a second oracle (not bitwise: it
// orthonormalises with one Householder QR, not a TSQR over work blocks).
#include <trnsolver/mpi/randomized.hpp>
#include <trnsolver/randomized.hpp>

#include <trncore/mpi.hpp>
#include <trnrand/stream.hpp>
#include <trnsci_testing/errors.hpp>

#include <cblas.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace {

namespace tm = trncore::mpi;
namespace ts = trnsolver;
namespace tsm = trnsolver::mpi;
using trnsci_testing::expect_error;

// A global column-major m×n matrix Uo·diag(sigma)·Voᵀ (double) with Uo, Vo orthonormal (QR of Gaussian
// sketches), or Uo·diag(sigma)·Uoᵀ when symmetric (then m = n).
std::vector<double> test_matrix(std::int64_t m, std::int64_t n, const std::vector<double>& sigma, bool symmetric,
                                std::uint64_t seed) {
  const auto r = static_cast<std::int64_t>(sigma.size());
  auto orth = [&](std::int64_t rows, std::uint64_t stream) {
    ts::DenseMatrix<double> q = ts::sketch_matrix<double>(ts::Sketch{ts::SketchKind::gaussian, seed, stream}, rows, r);
    std::vector<double> tau(static_cast<std::size_t>(r));
    ts::geqrf<double>(ts::Layout::col_major, rows, r, q.data.data(), rows, tau.data());
    ts::orgqr<double>(ts::Layout::col_major, rows, r, r, q.data.data(), rows, tau.data());
    return q.data;
  };
  const std::vector<double> uo = orth(m, 100);
  const std::vector<double> vo = symmetric ? uo : orth(n, 200);
  std::vector<double> a(static_cast<std::size_t>(m * n), 0.0);
  for (std::int64_t t = 0; t < r; ++t)
    for (std::int64_t j = 0; j < n; ++j) {
      const double f = sigma[static_cast<std::size_t>(t)] * vo[static_cast<std::size_t>(j + t * n)];
      for (std::int64_t i = 0; i < m; ++i)
        a[static_cast<std::size_t>(i + j * m)] += uo[static_cast<std::size_t>(i + t * m)] * f;
    }
  return a;
}

std::vector<double> geometric(std::int64_t count, double ratio) {
  std::vector<double> s(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) s[static_cast<std::size_t>(i)] = std::pow(ratio, static_cast<double>(i));
  return s;
}

// This rank's local array of the global m×n (ld m) in layout d.
template <class T>
std::vector<T> local_part(const std::vector<double>& global, std::int64_t m, const tm::Descriptor& d,
                          const tm::ProcessGrid& g) {
  const std::int64_t lr = tm::local_rows(d, g);
  std::vector<T> out(static_cast<std::size_t>(d.lld * d.n), T(0));
  for (std::int64_t il = 0; il < lr; ++il) {
    const std::int64_t i = tm::local_to_global_row(il, d, g);
    for (std::int64_t j = 0; j < d.n; ++j)
      out[static_cast<std::size_t>(il + j * d.lld)] = static_cast<T>(global[static_cast<std::size_t>(i + j * m)]);
  }
  return out;
}

// The global m×c matrix (ld m) of a P×1-distributed local array, on every rank.
template <class T>
std::vector<T> gather_all(const tm::ProcessGrid& g, const tm::Descriptor& d, const std::vector<T>& local) {
  const std::int64_t lr = tm::local_rows(d, g);
  std::vector<std::int64_t> rows;
  std::vector<T> values;
  for (std::int64_t il = 0; il < lr; ++il) {
    rows.push_back(tm::local_to_global_row(il, d, g));
    for (std::int64_t j = 0; j < d.n; ++j) values.push_back(local[static_cast<std::size_t>(il + j * d.lld)]);
  }
  const auto all_rows = g.comm().allgatherv<std::int64_t>(rows);
  const auto all_values = g.comm().allgatherv<T>(values);
  std::vector<T> out(static_cast<std::size_t>(d.m * d.n));
  for (std::size_t t = 0; t < all_rows.size(); ++t)
    for (std::int64_t j = 0; j < d.n; ++j)
      out[static_cast<std::size_t>(all_rows[t] + j * d.m)] = all_values[t * static_cast<std::size_t>(d.n) + j];
  return out;
}

template <class T>
void expect_bitwise(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
      ADD_FAILURE() << what << ": first difference at " << i << ": " << a[i] << " vs " << b[i];
      return;
    }
}

void expect_same_report(const tsm::RandomizedReport& a, const tsm::RandomizedReport& b) {
  EXPECT_EQ(std::memcmp(&a.residual, &b.residual, sizeof(double)), 0) << a.residual << " vs " << b.residual;
  EXPECT_EQ(std::memcmp(&a.error_estimate, &b.error_estimate, sizeof(double)), 0)
      << a.error_estimate << " vs " << b.error_estimate;
  EXPECT_EQ(std::memcmp(&a.refinement_change, &b.refinement_change, sizeof(double)), 0)
      << a.refinement_change << " vs " << b.refinement_change;
  EXPECT_EQ(a.matvecs, b.matvecs);
  EXPECT_EQ(a.basis_columns, b.basis_columns);
  EXPECT_EQ(a.work_blocks, b.work_blocks);
}

// The distributed layout of the tests: P×1, row block mb, first block on process row 1 when P > 1.
tm::Descriptor dist_desc(const tm::ProcessGrid& g, std::int64_t m, std::int64_t n, std::int64_t mb) {
  return tm::make_descriptor(g, m, n, mb, 4, g.rows() > 1 ? 1 : 0, 0);
}

struct RsvdCase {
  std::int64_t m, n, k, mb, block_rows;
  bool symmetric;
  tsm::RangePrecision precision;
};

// rsvd of the same matrix on P ranks (layout mb) and on 1 rank (layout mb + 6): every output bitwise equal.
template <class T>
void check_rsvd_bitwise(const RsvdCase& c) {
  SCOPED_TRACE("m=" + std::to_string(c.m) + " n=" + std::to_string(c.n) + " k=" + std::to_string(c.k) +
               " mb=" + std::to_string(c.mb) + " block_rows=" + std::to_string(c.block_rows));
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::vector<double> a = test_matrix(c.m, c.n, geometric(std::min(c.m, c.n), 0.8), c.symmetric, 7);
  tsm::RandomizedOptions o;
  o.block_rows = c.block_rows;
  o.symmetric = c.symmetric;
  o.range_precision = c.precision;
  o.sketch.seed = 42;
  const tm::Descriptor d = dist_desc(grid, c.m, c.n, c.mb);
  const std::vector<T> local = local_part<T>(a, c.m, d, grid);
  const tsm::RsvdResult<T> r = tsm::rsvd<T>(grid, tm::DistMatrix<const T>{d, local.data()}, c.k, o);
  ASSERT_EQ(r.rank, c.k);
  const std::vector<T> u = gather_all<T>(grid, r.u_desc, r.u);

  const tm::Communicator self = world.split(world.rank(), 0);
  const tm::ProcessGrid one(self, 1, 1);
  const tm::Descriptor d1 = tm::make_descriptor(one, c.m, c.n, c.mb + 6, 3);
  const std::vector<T> whole = local_part<T>(a, c.m, d1, one);
  const tsm::RsvdResult<T> r1 = tsm::rsvd<T>(one, tm::DistMatrix<const T>{d1, whole.data()}, c.k, o);
  ASSERT_EQ(r1.rank, c.k);
  const std::vector<T> u1 = gather_all<T>(one, r1.u_desc, r1.u);
  expect_bitwise(r.s, r1.s, "s");
  expect_bitwise(u, u1, "U");
  expect_bitwise(r.vt.data, r1.vt.data, "Vt");
  expect_same_report(r.report, r1.report);
  EXPECT_EQ(r.report.ranks, world.size());
  // The distributed U's layout is A's: row block mb, same source row.
  EXPECT_EQ(r.u_desc.mb, c.mb);
  EXPECT_EQ(r.u_desc.rsrc, d.rsrc);
  EXPECT_EQ(r.u_desc.n, c.k);
}

TEST(MpiRsvd, BitwiseAcrossRankCountsAndLayouts) {
  // General (Aᵀ·Q through the reduce-scatter) and symmetric paths; bf16 and working range finders; uneven
  // edges: m = 157 with mb = 5 and block_rows = 16 (10 work blocks, the last of 13 rows); a single work block
  // (m = 13 < block_rows: ranks 1-3 own none); block_rows = 1; a wide matrix (m < n); 1×5 and 6×1.
  check_rsvd_bitwise<float>({157, 93, 8, 5, 16, false, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<float>({101, 101, 6, 7, 9, true, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<float>({13, 40, 3, 2, 16, false, tsm::RangePrecision::working});
  check_rsvd_bitwise<float>({37, 20, 4, 3, 1, false, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<float>({29, 64, 5, 4, 8, false, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<double>({157, 93, 8, 5, 16, false, tsm::RangePrecision::working});
  // The smallest shapes: one row, one column (l = 1; most ranks own nothing).
  check_rsvd_bitwise<float>({1, 5, 1, 1, 4, false, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<float>({6, 1, 1, 2, 2, false, tsm::RangePrecision::bf16});
  check_rsvd_bitwise<double>({64, 64, 10, 8, 16, true, tsm::RangePrecision::bf16});
}

// Singular values and subspaces against fp64 LAPACK on A = Uo·diag(0.7^i)·Voᵀ (m = 211, n = 127, k = 10,
// p = 10, q = 2 bf16 power iterations, 1 fp32 refinement).
// Tolerances: (1) |σ̂_i − σ_i| ≤ 2e-5·σ₁. In exact arithmetic the Ritz values of a basis from (AAᵀ)^{q'}AΩ
// with q' = 3 products-pairs miss σ_i (i ≤ k) by ≲ σ_i·(σ_{l+1}/σ_i)^{2(2q'+1)} ≤ (0.7^{11})^{14} ≈ 1e-24:
// nothing. What remains is rounding: the final Bᵀ = Aᵀ·Q and the SVD in fp32 perturb the values by
// ≲ c·√n·u₃₂·σ₁ ≈ 11·6e-8·σ₁·c ≈ 1e-6·σ₁ (gemm γ_n bound with √n growth for random-sign errors, gesdd's
// p(n)·u); 2e-5 leaves a factor ~20. (2) Without refinement the bf16 basis error shows: the same values are
// off by more than 1e-4·σ₁ for some i (bf16 u = 2^-9 ≈ 2e-3 per operand), but within 2^-5·σ₁ — the check
// that the bf16 range finder really ran in bf16 and that refinement is what brings fp32 accuracy.
// (3) sin∠(û_i, u_i) ≤ 1e-3 for i ≤ k: Davis–Kahan/Wedin gives ‖E‖/gap with ‖E‖ ≈ 1e-6·σ₁ and the gap
// σ_i − σ_{i+1} = 0.3·σ_i ≥ 0.3·0.7⁹·σ₁ ≈ 0.012·σ₁, i.e. ≈ 1e-4; 1e-3 leaves 10×.
// (4) the report: residual ≤ 2e-5 (‖A·v_i − σ_i·u_i‖ = ‖(I − QQᵀ)A·v_i‖ + rounding, both ≲ 1e-6·σ₁);
// error_estimate ≥ ‖A − Â‖₂/σ₁ = σ_{k+1}/σ₁ (HMT Lemma 4.1, failure probability 10^-10) and ≤ 100·‖A − Â‖_F/σ₁
// (the estimate is 10·√(2/π) ≈ 8 times a max of 10 Gaussian-weighted norms, each ≈ ‖A − Â‖_F).
TEST(MpiRsvd, AccuracyAgainstFp64Lapack) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t m = 211, n = 127, k = 10;
  const std::vector<double> sigma = geometric(n, 0.7);
  const std::vector<double> a = test_matrix(m, n, sigma, false, 11);
  const tm::Descriptor d = dist_desc(grid, m, n, 6);
  const std::vector<float> local = local_part<float>(a, m, d, grid);
  tsm::RandomizedOptions o;
  o.block_rows = 32;
  const tsm::RsvdResult<float> r = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, o);
  ASSERT_EQ(r.rank, k);
  const std::vector<float> u = gather_all<float>(grid, r.u_desc, r.u);
  // Oracle: fp64 gesdd of A (as stored in fp32).
  std::vector<double> af(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) af[i] = static_cast<double>(static_cast<float>(a[i]));
  std::vector<double> s(static_cast<std::size_t>(n)), uo(static_cast<std::size_t>(m * n)),
      vt(static_cast<std::size_t>(n * n));
  ASSERT_EQ(
      ts::gesdd<double>(ts::Layout::col_major, ts::Job::thin, m, n, af.data(), m, s.data(), uo.data(), m, vt.data(), n),
      0);
  for (std::int64_t i = 0; i < k; ++i)
    EXPECT_LE(std::abs(r.s[static_cast<std::size_t>(i)] - s[static_cast<std::size_t>(i)]), 2e-5 * s[0]) << i;
  for (std::int64_t i = 0; i < k; ++i) {
    double cu = 0.0, cv = 0.0;
    for (std::int64_t t = 0; t < m; ++t)
      cu += uo[static_cast<std::size_t>(t + i * m)] * u[static_cast<std::size_t>(t + i * m)];
    for (std::int64_t t = 0; t < n; ++t) cv += vt[static_cast<std::size_t>(i + t * n)] * r.vt(i, t);
    EXPECT_LE(std::sqrt(std::max(0.0, 1.0 - cu * cu)), 1e-3) << "u_" << i;
    EXPECT_LE(std::sqrt(std::max(0.0, 1.0 - cv * cv)), 1e-3) << "v_" << i;
  }
  EXPECT_LE(r.report.residual, 2e-5);
  double tail = 0.0;
  for (std::int64_t i = k; i < n; ++i) tail += s[static_cast<std::size_t>(i)] * s[static_cast<std::size_t>(i)];
  EXPECT_GE(r.report.error_estimate, s[static_cast<std::size_t>(k)] / s[0]);
  EXPECT_LE(r.report.error_estimate, 100.0 * std::sqrt(tail) / s[0]);
  EXPECT_GT(r.report.refinement_change, 0.0);
  EXPECT_EQ(r.report.basis_columns, 20);
  EXPECT_EQ(r.report.work_blocks, 7);

  // bf16 without refinement: the singular values stay accurate (they are computed from the fp32 projection
  // Bᵀ = Aᵀ·Q and err only by O(sin²θ) in the basis angle θ), but the singular vectors carry the bf16 basis
  // error, which the residual shows: > 3e-5 (measured ≈ 3e-4: the bf16 products perturb A·Q by ~2^-9·‖A‖,
  // i.e. θ ~ 2^-9·σ₁/gap_k ≈ 0.2 before the power iterations damp it), while the same run with an fp32 range
  // finder and no refinement stays at the fp32 level (≤ 2e-5) — the degradation is bf16's, the refinement
  // removes it (the refined residual above is ≤ 2e-5).
  tsm::RandomizedOptions raw = o;
  raw.refinement_iterations = 0;
  const tsm::RsvdResult<float> rb = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, raw);
  double worst = 0.0;
  for (std::int64_t i = 0; i < k; ++i)
    worst = std::max(worst, std::abs(rb.s[static_cast<std::size_t>(i)] - s[static_cast<std::size_t>(i)]) / s[0]);
  EXPECT_LE(worst, 2e-5);
  EXPECT_GT(rb.report.residual, 3e-5);
  EXPECT_LE(rb.report.residual, 1.0 / 32);
  EXPECT_EQ(rb.report.refinement_change, 0.0);
  raw.range_precision = tsm::RangePrecision::working;
  const tsm::RsvdResult<float> rw = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, raw);
  EXPECT_LE(rw.report.residual, 2e-5);

  // The single-process trnsolver::rsvd (fp32 host) on the same matrix: the same values to the bound above.
  std::vector<float> whole(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) whole[i] = static_cast<float>(a[i]);
  ts::RsvdOptions so;
  const ts::RsvdResult<float> serial =
      ts::rsvd<float>(trncore::MatrixView<const float>(whole.data(), m, n, m, ts::Layout::col_major), k, so);
  for (std::int64_t i = 0; i < k; ++i)
    EXPECT_LE(std::abs(r.s[static_cast<std::size_t>(i)] - serial.s[static_cast<std::size_t>(i)]), 2e-5 * s[0]) << i;
}

// An exactly rank-3 matrix with k = 5 > rank: the basis Y = A·Ω has rank 3 < l = 15, which Cholesky-based
// orthonormalisation cannot handle and the Householder TSQR must: the three singular values are recovered
// to fp32 rounding (HMT: exact for rank ≤ l with probability 1; rounding c·√n·u₃₂ ≈ 1e-6), the other two are
// at rounding level, U has orthonormal columns (Householder: ‖UᵀU − I‖ = O(u)), and the bits match 1 rank.
TEST(MpiRsvd, ExactlyLowRankWithKAboveRank) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t m = 70, n = 45, k = 5;
  const std::vector<double> sigma = {1.0, 0.5, 0.25};
  const std::vector<double> a = test_matrix(m, n, sigma, false, 29);
  const tm::Descriptor d = dist_desc(grid, m, n, 6);
  const std::vector<float> local = local_part<float>(a, m, d, grid);
  tsm::RandomizedOptions o;
  o.block_rows = 8;
  const tsm::RsvdResult<float> r = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, o);
  ASSERT_EQ(r.rank, k);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_LE(std::abs(r.s[i] - sigma[i]), 1e-5) << i;
  EXPECT_LE(r.s[3], 1e-5);
  EXPECT_LE(r.s[4], 1e-5);
  const std::vector<float> u = gather_all<float>(grid, r.u_desc, r.u);
  for (std::int64_t i = 0; i < k; ++i)
    for (std::int64_t j = 0; j < k; ++j) {
      double dot = 0.0;
      for (std::int64_t t = 0; t < m; ++t)
        dot += static_cast<double>(u[static_cast<std::size_t>(t + i * m)]) * u[static_cast<std::size_t>(t + j * m)];
      EXPECT_LE(std::abs(dot - (i == j ? 1.0 : 0.0)), 1e-5) << i << "," << j;
    }
  const tm::Communicator self = world.split(world.rank(), 0);
  const tm::ProcessGrid one(self, 1, 1);
  const tm::Descriptor d1 = tm::make_descriptor(one, m, n, 70, 3);
  const std::vector<float> whole = local_part<float>(a, m, d1, one);
  const tsm::RsvdResult<float> r1 = tsm::rsvd<float>(one, tm::DistMatrix<const float>{d1, whole.data()}, k, o);
  expect_bitwise(r.s, r1.s, "s");
  expect_bitwise(u, gather_all<float>(one, r1.u_desc, r1.u), "U");
  expect_bitwise(r.vt.data, r1.vt.data, "Vt");
}

// Points in the unit cube, n×d global (column-major, ld n), from a trnrand stream.
std::vector<double> cube_points(std::int64_t n, std::int64_t d, std::uint64_t seed) {
  std::vector<float> p(static_cast<std::size_t>(n * d));
  trnrand::fill_uniform(trnrand::make_stream(seed), std::span<float>(p));
  return {p.begin(), p.end()};
}

// The kernel operator against the explicitly formed kernel matrix, distributed as a dense matrix with the
// symmetric path: both form every product tile by the same calls on the same entries, so rsvd and nystrom
// must agree BITWISE; and entries match exp(−‖x_i − x_j‖²/(2h²)) evaluated in double to 4 fp32 ulps.
template <class T>
void check_kernel_equals_explicit() {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t n = 173, dim = 3, k = 12;
  const double h = 0.4;
  const std::vector<double> pts = cube_points(n, dim, 5);
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const tm::Descriptor pd = dist_desc(grid, n, dim, 9);
  const std::vector<T> lp = local_part<T>(pts, n, pd, grid);
  const tsm::GaussianKernel<T> kernel(grid, tm::DistMatrix<const T>{pd, lp.data()}, h);
  EXPECT_EQ(kernel.size(), n);
  EXPECT_EQ(kernel.dimension(), dim);
  // The explicit matrix, in the points' row layout.
  const tm::Descriptor kd = dist_desc(grid, n, n, 9);
  std::vector<T> kl(static_cast<std::size_t>(kd.lld * n));
  for (std::int64_t il = 0; il < tm::local_rows(kd, grid); ++il)
    kernel.entries(tm::local_to_global_row(il, kd, grid), 1, 0, n, kl.data() + il, kd.lld);
  // Entry accuracy against a double evaluation of the same float coordinates.
  std::vector<T> full(static_cast<std::size_t>(n * n));
  kernel.entries(0, n, 0, n, full.data(), n);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double dist = 0.0;
      for (std::int64_t t = 0; t < dim; ++t) {
        const double diff = static_cast<double>(static_cast<T>(pts[static_cast<std::size_t>(i + t * n)])) -
                            static_cast<double>(static_cast<T>(pts[static_cast<std::size_t>(j + t * n)]));
        dist += diff * diff;
      }
      const double ref = std::exp(-dist / (2 * h * h));
      const double got = full[static_cast<std::size_t>(i + j * n)];
      // 4 ulps of T (1 from rounding the distance, 2 from exp_fixed, 1 from the argument's product) plus
      // the distance's own relative error 3u times the argument (|x|·e^{−|x|} ≤ 1/e).
      ASSERT_LE(std::abs(got - ref), 4 * u * ref + 3 * u / std::exp(1.0)) << i << "," << j;
      if (i == j) {
        ASSERT_EQ(got, T(1));
      }
    }
  tsm::RandomizedOptions o;
  o.block_rows = 20;
  o.symmetric = true;
  const tsm::RsvdResult<T> rk = tsm::rsvd<T>(grid, kernel, k, o);
  const tsm::RsvdResult<T> rd = tsm::rsvd<T>(grid, tm::DistMatrix<const T>{kd, kl.data()}, k, o);
  ASSERT_EQ(rk.rank, k);
  expect_bitwise(rk.s, rd.s, "s");
  expect_bitwise(rk.u, rd.u, "U");
  expect_bitwise(rk.vt.data, rd.vt.data, "Vt");
  expect_same_report(rk.report, rd.report);
  const tsm::NystromResult<T> nk = tsm::nystrom<T>(grid, kernel, k, o);
  const tsm::NystromResult<T> nd = tsm::nystrom<T>(grid, tm::DistMatrix<const T>{kd, kl.data()}, k, o);
  ASSERT_EQ(nk.rank, k);
  expect_bitwise(nk.w, nd.w, "w");
  expect_bitwise(nk.u, nd.u, "U");
  expect_same_report(nk.report, nd.report);
}

TEST(MpiKernel, OperatorEqualsExplicitMatrixBitwise) {
  check_kernel_equals_explicit<float>();
  check_kernel_equals_explicit<double>();
}

// Kernel rsvd and Nyström: bitwise equal to a 1-rank run with another points layout, and accurate against
// fp64 syevd of the kernel matrix. K is PSD with eigenvalues λ_i = σ_i. Tolerances: for this K (n = 240
// points in the unit cube, h = 0.7) λ_20/λ₁ ≈ 4e-4 and λ_31/λ₁ ≈ 4e-5 (l = k + 10 = 30). Exact arithmetic:
// the residual of pair i ≤ k after q' products beyond the first decays like λ_i·(λ_{l+1}/λ_i)^{q'}; Nyström
// has q' = 3 (2 bf16 + 1 fp32 products): ≤ 4e-4·(0.1)³ = 4e-7·λ₁; rsvd has q' = 6: smaller still; the
// eigenvalue errors are of the same order or smaller. Rounding leaves ≲ c·√n·u₃₂·λ₁ ≈ 1e-6·λ₁ plus the
// entries' own error (≤ 4 ulps each: ‖ΔK‖₂ ≤ ‖ΔK‖_F ≤ 2.4e-7·‖K‖_F ≤ 2.4e-7·√rank_eff·λ₁). Bound 2e-5·λ₁.
TEST(MpiKernel, BitwiseAcrossRanksAndAccurate) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t n = 240, dim = 3, k = 20;
  const double h = 0.7;
  const std::vector<double> pts = cube_points(n, dim, 9);
  const tm::Descriptor pd = dist_desc(grid, n, dim, 7);
  const std::vector<float> lp = local_part<float>(pts, n, pd, grid);
  const tsm::GaussianKernel<float> kernel(grid, tm::DistMatrix<const float>{pd, lp.data()}, h);
  tsm::RandomizedOptions o;
  o.block_rows = 24;
  const tsm::RsvdResult<float> r = tsm::rsvd<float>(grid, kernel, k, o);
  const tsm::NystromResult<float> ny = tsm::nystrom<float>(grid, kernel, k, o);
  ASSERT_EQ(r.rank, k);
  ASSERT_EQ(ny.rank, k);
  const std::vector<float> u = gather_all<float>(grid, r.u_desc, r.u);
  const std::vector<float> un = gather_all<float>(grid, ny.u_desc, ny.u);

  const tm::Communicator self = world.split(world.rank(), 0);
  const tm::ProcessGrid one(self, 1, 1);
  const tm::Descriptor pd1 = tm::make_descriptor(one, n, dim, 50, 3);
  const std::vector<float> lp1 = local_part<float>(pts, n, pd1, one);
  const tsm::GaussianKernel<float> kernel1(one, tm::DistMatrix<const float>{pd1, lp1.data()}, h);
  const tsm::RsvdResult<float> r1 = tsm::rsvd<float>(one, kernel1, k, o);
  const tsm::NystromResult<float> ny1 = tsm::nystrom<float>(one, kernel1, k, o);
  expect_bitwise(r.s, r1.s, "rsvd s");
  expect_bitwise(u, gather_all<float>(one, r1.u_desc, r1.u), "rsvd U");
  expect_bitwise(r.vt.data, r1.vt.data, "rsvd Vt");
  expect_same_report(r.report, r1.report);
  expect_bitwise(ny.w, ny1.w, "nystrom w");
  expect_bitwise(un, gather_all<float>(one, ny1.u_desc, ny1.u), "nystrom U");
  expect_same_report(ny.report, ny1.report);

  // fp64 oracle: syevd of K formed in double from the same float coordinates.
  std::vector<double> kk(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      double dist = 0.0;
      for (std::int64_t t = 0; t < dim; ++t) {
        const double diff = static_cast<double>(static_cast<float>(pts[static_cast<std::size_t>(i + t * n)])) -
                            static_cast<double>(static_cast<float>(pts[static_cast<std::size_t>(j + t * n)]));
        dist += diff * diff;
      }
      kk[static_cast<std::size_t>(i + j * n)] = std::exp(-dist / (2 * h * h));
    }
  std::vector<double> lam(static_cast<std::size_t>(n));
  ASSERT_EQ(ts::syevd<double>(ts::Layout::col_major, ts::EigJob::vectors, ts::Uplo::lower, n, kk.data(), n, lam.data()),
            0);
  std::reverse(lam.begin(), lam.end());  // descending
  for (std::int64_t i = 0; i < k; ++i) {
    EXPECT_LE(std::abs(r.s[static_cast<std::size_t>(i)] - lam[static_cast<std::size_t>(i)]), 2e-5 * lam[0]) << i;
    EXPECT_LE(std::abs(ny.w[static_cast<std::size_t>(i)] - lam[static_cast<std::size_t>(i)]), 2e-5 * lam[0]) << i;
  }
  EXPECT_LE(r.report.residual, 2e-5);
  EXPECT_LE(ny.report.residual, 2e-5);
  EXPECT_GE(r.report.error_estimate, lam[static_cast<std::size_t>(k)] / lam[0] * 0.999);
}

// Nyström of a dense SPD matrix (λ_i = 0.75^i, n = 150, k = 12): bitwise across ranks (vs 1 rank, another
// layout) and |ŵ_i − λ_i| ≤ 2e-5·λ₁ (the rsvd argument: exact-arithmetic error ≤ λ_i·(λ_23/λ_i)^{2·3}, nothing;
// rounding ≲ c·√n·u₃₂·λ₁). A matrix with a dominant negative eigenvalue gives rank 0 on every rank.
TEST(MpiNystrom, DenseSpdBitwiseAndAccurateNotPsdIsRankZero) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t n = 150, k = 12;
  const std::vector<double> lam = geometric(n, 0.75);
  const std::vector<double> a = test_matrix(n, n, lam, true, 21);
  const tm::Descriptor d = dist_desc(grid, n, n, 11);
  const std::vector<float> local = local_part<float>(a, n, d, grid);
  tsm::RandomizedOptions o;
  o.block_rows = 16;
  const tsm::NystromResult<float> r = tsm::nystrom<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, o);
  ASSERT_EQ(r.rank, k);
  for (std::int64_t i = 0; i < k; ++i)
    EXPECT_LE(std::abs(r.w[static_cast<std::size_t>(i)] - lam[static_cast<std::size_t>(i)]), 2e-5) << i;
  EXPECT_LE(r.report.residual, 2e-5);
  const tm::Communicator self = world.split(world.rank(), 0);
  const tm::ProcessGrid one(self, 1, 1);
  const tm::Descriptor d1 = tm::make_descriptor(one, n, n, 4, 4);
  const std::vector<float> whole = local_part<float>(a, n, d1, one);
  const tsm::NystromResult<float> r1 = tsm::nystrom<float>(one, tm::DistMatrix<const float>{d1, whole.data()}, k, o);
  expect_bitwise(r.w, r1.w, "w");
  expect_bitwise(gather_all<float>(grid, r.u_desc, r.u), gather_all<float>(one, r1.u_desc, r1.u), "U");
  expect_same_report(r.report, r1.report);

  std::vector<double> neg = lam;
  neg[0] = -1.0;
  const std::vector<double> an = test_matrix(n, n, neg, true, 21);
  const std::vector<float> ln = local_part<float>(an, n, d, grid);
  const tsm::NystromResult<float> rn = tsm::nystrom<float>(grid, tm::DistMatrix<const float>{d, ln.data()}, k, o);
  EXPECT_EQ(rn.rank, 0);
  EXPECT_TRUE(rn.w.empty());
}

// The bits do not depend on the caller's OpenBLAS thread count: OpenBLAS's own results do (sgemm/LAPACK
// bits differ between 1 and 2 threads), so the routines run it single-threaded and restore the count.
TEST(MpiRsvd, OpenBlasThreadCountDoesNotChangeBits) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const std::int64_t m = 300, n = 260, k = 12;
  const std::vector<double> a = test_matrix(m, n, geometric(n, 0.9), false, 17);
  const tm::Descriptor d = dist_desc(grid, m, n, 13);
  const std::vector<float> local = local_part<float>(a, m, d, grid);
  tsm::RandomizedOptions o;
  o.block_rows = 64;
  const int before = openblas_get_num_threads();
  openblas_set_num_threads(1);
  const tsm::RsvdResult<float> r1 = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, o);
  openblas_set_num_threads(2);
  const tsm::RsvdResult<float> r2 = tsm::rsvd<float>(grid, tm::DistMatrix<const float>{d, local.data()}, k, o);
  EXPECT_EQ(openblas_get_num_threads(), 2);
  openblas_set_num_threads(before);
  expect_bitwise(r1.s, r2.s, "s");
  expect_bitwise(r1.u, r2.u, "U");
  expect_bitwise(r1.vt.data, r2.vt.data, "Vt");
  expect_same_report(r1.report, r2.report);
}

// Bad input on one rank, or different arguments on different ranks: the same error on every rank, no hang.
TEST(MpiRsvd, BadInputFailsOnEveryRank) {
  const tm::Communicator world = tm::Communicator::world();
  const tm::ProcessGrid grid(world, world.size(), 1);
  const int rank = world.rank(), p = world.size();
  const std::int64_t m = 40, n = 30;
  const std::vector<double> a = test_matrix(m, n, geometric(n, 0.8), false, 3);
  const tm::Descriptor d = dist_desc(grid, m, n, 4);
  std::vector<float> local = local_part<float>(a, m, d, grid);
  const tm::DistMatrix<const float> dm{d, local.data()};
  const char* f = "trnsolver::mpi::rsvd";
  expect_error<trncore::InvalidArgument>([&] { tsm::rsvd<float>(grid, dm, 0); }, f, {"k = 0"});
  expect_error<trncore::InvalidArgument>([&] { tsm::rsvd<float>(grid, dm, 31); }, f, {"k = 31"});
  tsm::RandomizedOptions bad;
  bad.block_rows = 0;
  expect_error<trncore::InvalidArgument>([&] { tsm::rsvd<float>(grid, dm, 5, bad); }, f, {"block_rows = 0"});
  bad = {};
  bad.symmetric = true;
  expect_error<trncore::DimensionMismatch>([&] { tsm::rsvd<float>(grid, dm, 5, bad); }, f, {"symmetric"});
  expect_error<trncore::DimensionMismatch>([&] { tsm::nystrom<float>(grid, dm, 5); }, "trnsolver::mpi::nystrom",
                                           {"40x30"});
  // A descriptor with a zero row block on every rank (no division by it before the check fails).
  tm::Descriptor zero = d;
  zero.mb = 0;
  expect_error<trncore::InvalidArgument>(
      [&] {
        tsm::rsvd<float>(grid, tm::DistMatrix<const float>{zero, local.data()}, 5);
      },
      f, {});
  expect_error<trncore::InvalidArgument>(
      [&] {
        tsm::GaussianKernel<float>(grid, tm::DistMatrix<const float>{zero, local.data()}, 1.0);
      },
      "trnsolver::mpi::GaussianKernel", {});
  // A NaN on the last rank only (global row 0 sits on process row 1 when P > 1, else 0).
  if (rank == p - 1 && tm::local_rows(d, grid) > 0) local[0] = std::numeric_limits<float>::quiet_NaN();
  expect_error<trncore::InvalidArgument>([&] { tsm::rsvd<float>(grid, dm, 5); }, f, {"nan"});
  const std::vector<float> fresh = local_part<float>(a, m, d, grid);
  std::copy(fresh.begin(), fresh.end(), local.begin());  // dm keeps pointing at local's buffer
  if (p > 1) {
    // A rank passing a different k, seed or layout.
    expect_error<trncore::DimensionMismatch>([&] { tsm::rsvd<float>(grid, dm, rank == 1 ? 6 : 5); }, f, {"k"});
    tsm::RandomizedOptions seeded;
    seeded.sketch.seed = rank == 0 ? 1 : 2;
    expect_error<trncore::DimensionMismatch>([&] { tsm::rsvd<float>(grid, dm, 5, seeded); }, f, {"seed"});
    tm::Descriptor other = d;
    if (rank == 0) other.mb = 5;
    expect_error<trncore::DimensionMismatch>(
        [&] {
          tsm::rsvd<float>(grid, tm::DistMatrix<const float>{other, local.data()}, 5);
        },
        f, {});
    // A 1×P grid is not row-distributed.
    const tm::ProcessGrid wide(world, 1, p);
    expect_error<trncore::InvalidArgument>([&] { tsm::rsvd<float>(wide, dm, 5); }, f, {"Px1"});
    // The kernel: a bandwidth that differs between ranks.
    const tm::Descriptor pd = dist_desc(grid, m, 2, 4);
    const std::vector<float> lp(static_cast<std::size_t>(pd.lld * 2), 0.5f);
    expect_error<trncore::DimensionMismatch>(
        [&] {
          tsm::GaussianKernel<float>(grid, tm::DistMatrix<const float>{pd, lp.data()}, rank == 0 ? 1.0 : 2.0);
        },
        "trnsolver::mpi::GaussianKernel", {"bandwidth"});
  }
  // The kernel: a bad bandwidth.
  const tm::Descriptor pd = dist_desc(grid, m, 2, 4);
  const std::vector<float> lp(static_cast<std::size_t>(pd.lld * 2), 0.5f);
  expect_error<trncore::InvalidArgument>(
      [&] {
        tsm::GaussianKernel<float>(grid, tm::DistMatrix<const float>{pd, lp.data()}, -1.0);
      },
      "trnsolver::mpi::GaussianKernel", {"bandwidth"});
  // The run after all of that still works (no rank left behind in a collective).
  EXPECT_EQ(tsm::rsvd<float>(grid, dm, 5).rank, 5);
}

}  // namespace
