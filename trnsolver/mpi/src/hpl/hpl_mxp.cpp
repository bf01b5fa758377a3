// trnsolver::mpi::hpl_mxp: the benchmark's system generated block-cyclically (bitwise the serial one), the
// distributed solve under HPL-MxP's rules, HPL's scaled residual check and report (docs/distributed.md).
#include <trnsolver/mpi/hpl_mxp.hpp>

#include "hpl/dist_lu.hpp"
#include "hpl/hpl_report.hpp"

#include <trncore/error.hpp>
#include <trnrand/stream.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace trnsolver::mpi {

namespace {

namespace tm = trncore::mpi;
using tm::ErrorKind;

// Fills the local rows of global column gj (data: the local column) from `stream` at words 2·(i + gj·n): one
// fill per run of nb consecutive global rows, each the serial fill's slice (trnrand's partitioning rule).
void fill_column(const detail::Cyclic& cy, trnrand::Stream stream, std::int64_t gj, double* data) {
  for (std::int64_t il0 = 0; il0 < cy.mloc; il0 += cy.nb) {
    const std::int64_t len = std::min(cy.nb, cy.mloc - il0), gi0 = cy.global(il0, cy.row, cy.p);
    trnrand::fill_uniform(trnrand::skip_ahead(stream, static_cast<std::uint64_t>(2 * (gi0 + gj * cy.n))),
                          std::span<double>(data + il0, static_cast<std::size_t>(len)), trnrand::Interval::open_closed,
                          trncore::Options{}.with_threads(1));
    for (std::int64_t i = 0; i < len; ++i) data[il0 + i] -= 0.5;  // exact, as the serial fill
  }
}

}  // namespace

void hpl_mxp_system(const ProcessGrid& grid, DistMatrix<double> a, DistMatrix<double> b, std::uint64_t seed) {
  constexpr char kFunction[] = "trnsolver::mpi::hpl_mxp_system";
  {
    tm::CollectiveCheck check(grid.comm(), kFunction);
    tm::check_descriptor(check, grid, a.desc, "a");
    tm::check_descriptor(check, grid, b.desc, "b");
    const tm::Descriptor &da = a.desc, &db = b.desc;
    check.require(da.m >= 1, ErrorKind::invalid_argument, "n = " + std::to_string(da.m), "pass an order n >= 1");
    check.require(da.m == da.n && da.mb == da.nb && da.rsrc == 0 && da.csrc == 0, ErrorKind::dimension_mismatch,
                  "A must be n x n in square blocks from process (0, 0)",
                  "use trncore::mpi::make_descriptor(grid, n, n, nb, nb)");
    check.require(db.m == da.m && db.n == 1 && db.mb == da.mb && db.rsrc == 0, ErrorKind::dimension_mismatch,
                  "b must be n x 1 with A's row blocking", "use trncore::mpi::make_descriptor(grid, n, 1, nb, 1)");
    if (da.mb >= 1 && da.nb >= 1 && da.m >= 0 && da.n >= 0) {
      const std::int64_t la =
          tm::numroc(da.m, da.mb, grid.row(), 0, grid.rows()) * tm::numroc(da.n, da.nb, grid.col(), 0, grid.cols());
      check.require(la == 0 || a.data != nullptr, ErrorKind::invalid_argument, "a.data is null",
                    "pass this rank's local array");
    }
    check.require(b.data != nullptr || db.nb < 1 || db.csrc < 0 || db.csrc >= grid.cols() ||
                      tm::numroc(db.n, db.nb, grid.col(), db.csrc, grid.cols()) == 0 ||
                      tm::numroc(db.m, std::max<std::int64_t>(db.mb, 1), grid.row(), 0, grid.rows()) == 0,
                  ErrorKind::invalid_argument, "b.data is null", "pass this rank's local array");
    check.finish();
  }
  const detail::Cyclic cy(grid, a.desc.m, a.desc.nb);
  const std::int64_t n = cy.n, nb = cy.nb, lda = a.desc.lld;
  const trnrand::Stream sa = trnrand::make_stream(seed, 0), sb = trnrand::make_stream(seed, 1);
  for (std::int64_t jl = 0; jl < cy.nloc; ++jl) fill_column(cy, sa, cy.global(jl, cy.col, cy.q), a.data + jl * lda);
  if (grid.col() == static_cast<int>(b.desc.csrc % grid.cols())) fill_column(cy, sb, 0, b.data);
  // Row sums of |a_ij|, j ≠ i, in the serial order j = 0, 1, …: the running sums of my process row's rows are
  // handed from each block column's owner to the next.
  std::vector<double> run(static_cast<std::size_t>(cy.mloc), 0.0);
  const std::int64_t nblocks = cy.blocks();
  const tm::Communicator& rc = grid.row_comm();
  for (std::int64_t jb = 0; jb < nblocks; ++jb) {
    const int owner = static_cast<int>(jb % cy.q);
    if (cy.col != owner) continue;
    if (jb > 0 && cy.q > 1 && cy.mloc > 0)
      rc.recv(std::span<double>(run), static_cast<int>((jb - 1) % cy.q), static_cast<int>(jb % 32768));
    const std::int64_t jl0 = jb / cy.q * nb, w = std::min(nb, n - jb * nb);
    for (std::int64_t j = 0; j < w; ++j) {
      const std::int64_t gj = jb * nb + j;
      const double* col = a.data + (jl0 + j) * lda;
      for (std::int64_t il = 0; il < cy.mloc; ++il)
        if (cy.global(il, cy.row, cy.p) != gj) run[static_cast<std::size_t>(il)] += std::abs(col[il]);
    }
    if (jb + 1 < nblocks && cy.q > 1 && cy.mloc > 0)
      rc.send(std::span<const double>(run), static_cast<int>((jb + 1) % cy.q), static_cast<int>((jb + 1) % 32768));
  }
  if (cy.q > 1 && cy.mloc > 0) rc.broadcast(std::span<double>(run), static_cast<int>((nblocks - 1) % cy.q));
  for (std::int64_t jl = 0; jl < cy.nloc; ++jl) {
    const std::int64_t gj = cy.global(jl, cy.col, cy.q);
    if ((gj / nb) % cy.p != cy.row) continue;
    const std::int64_t il = cy.below(gj, cy.row, cy.p);
    a.data[il + jl * lda] = run[static_cast<std::size_t>(il)];
  }
}

HplMxpResult hpl_mxp(const ProcessGrid& grid, const HplMxpOptions& options) {
  constexpr char kFunction[] = "trnsolver::mpi::hpl_mxp";
  {
    tm::CollectiveCheck check(grid.comm(), kFunction);
    check.same("n", options.n).same("nb", options.nb);
    check.require(options.n >= 1, ErrorKind::invalid_argument, "n = " + std::to_string(options.n),
                  "pass an order n >= 1");
    check.require(options.nb >= 1, ErrorKind::invalid_argument, "nb = " + std::to_string(options.nb),
                  "pass a block size nb >= 1");
    check.require(
        !options.target_forward_error, ErrorKind::not_supported,
        "a target_forward_error was given, but HPL-MxP's rules fix the strategy and check the scaled residual",
        "leave it unset (or call trnsolver::mpi::solve for a certified solve to a target)");
    check.require(!(options.factor == FactorPrecision::bf16 && options.backend != trncore::Backend::sim),
                  ErrorKind::invalid_argument, "a bf16 factorization needs the sim backend (options.backend = host)",
                  "set options.backend = trncore::Backend::sim, or use FactorPrecision::fp32");
    check.require(options.factor != FactorPrecision::fp64, ErrorKind::invalid_argument, "factor fp64 with GMRES-IR",
                  "use FactorPrecision::fp32 or bf16");
    check.capture([&] { trncore::validate(options, kFunction); });
    check.finish();
  }
  const std::int64_t n = options.n, nb = options.nb;
  const tm::Descriptor da = tm::make_descriptor(grid, n, n, nb, nb), db = tm::make_descriptor(grid, n, 1, nb, 1);
  std::vector<double> a(static_cast<std::size_t>(std::max<std::int64_t>(1, tm::local_size(da, grid)))),
      b(static_cast<std::size_t>(std::max<std::int64_t>(1, tm::local_size(db, grid)))), x(b.size(), 0.0);
  hpl_mxp_system(grid, {da, a.data()}, {db, b.data()}, options.seed);
  SolveOptions so;
  static_cast<trncore::Options&>(so) = options;
  so.factor = options.factor;
  so.refinement = Refinement::gmres_ir;
  so.residual = ResidualPrecision::fp64;
  so.pivoting = false;
  so.fallback = false;
  so.error_bounds = false;
  HplMxpResult r;
  r.n = n;
  r.nb = nb;
  r.p = grid.rows();
  r.q = grid.cols();
  grid.comm().barrier();
  const auto start = std::chrono::steady_clock::now();
  solve(grid, DistMatrix<const double>{da, a.data()}, DistMatrix<const double>{db, b.data()},
        DistMatrix<double>{db, x.data()}, so, r.report);
  r.seconds =
      grid.comm().allreduce_max(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  const double nd = static_cast<double>(n);
  r.gflops = (2.0 / 3.0 * nd * nd * nd + 2.0 * nd * nd) / r.seconds * 1e-9;
  // HPL's check with distributed fp64 products (rows summed in global block order).
  const detail::Cyclic cy(grid, n, nb);
  const std::vector<double> xs = detail::replicate_column(cy, {db, x.data()}, 0);
  const std::vector<double> bs = detail::replicate_column(cy, {db, b.data()}, 0);
  const std::vector<double> ones(static_cast<std::size_t>(n), 1.0);
  std::vector<double> ax, rowabs;
  detail::row_products(cy, a.data(), da.lld, xs.data(), ax, nullptr);
  detail::row_products(cy, a.data(), da.lld, ones.data(), rowabs, nullptr, true);
  double rnorm = 0, anorm = 0, xnorm = 0, bnorm = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double ri = bs[i] - ax[i];
    rnorm =
        std::isnan(ri) || std::isnan(rnorm) ? std::numeric_limits<double>::quiet_NaN() : std::max(rnorm, std::abs(ri));
    anorm = std::max(anorm, rowabs[i]);
    xnorm = std::isnan(xs[i]) || std::isnan(xnorm) ? std::numeric_limits<double>::quiet_NaN()
                                                   : std::max(xnorm, std::abs(xs[i]));
    bnorm = std::max(bnorm, std::abs(bs[i]));
  }
  r.scaled_residual = rnorm / ((anorm * xnorm + bnorm) * nd * 0x1p-53);
  r.passed = r.report.info == 0 && r.report.converged && std::isfinite(r.scaled_residual) && r.scaled_residual <= 16.0;
  return r;
}

std::string HplMxpResult::to_string() const { return trnsolver::detail::hpl_report(*this, nb, p, q); }

}  // namespace trnsolver::mpi
