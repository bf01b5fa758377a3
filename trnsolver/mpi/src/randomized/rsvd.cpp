// Distributed rsvd and Nyström on a row-distributed dense matrix or the Gaussian kernel operator.
#include "kernel_entries.hpp"
#include "work.hpp"

#include <trnblas/gemm.hpp>

#include <cblas.h>
#include <trnblas/level3.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/detail/format_number.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>

namespace trnsolver::mpi {

namespace {

namespace tm = trncore::mpi;
using namespace randomized_detail;
using trnblas::Op;

// OpenBLAS directly: trnblas::gemm's certification scans every operand (O(rows·width) per tile, as much as
// forming a kernel tile), which a product whose accuracy the routine reports itself does not need.
template <class T>
void gemm(trnblas::Op ta, trnblas::Op tb, std::int64_t m, std::int64_t n, std::int64_t k, T alpha, const T* a,
          std::int64_t lda, const T* b, std::int64_t ldb, T beta, T* c, std::int64_t ldc, const trncore::Options&) {
  if (m == 0 || n == 0) return;
  const auto op = [](trnblas::Op o) { return o == trnblas::Op::no_trans ? CblasNoTrans : CblasTrans; };
  const auto i = [](std::int64_t v) { return static_cast<blasint>(v); };
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasColMajor, op(ta), op(tb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
  else
    cblas_dgemm(CblasColMajor, op(ta), op(tb), i(m), i(n), i(k), alpha, a, i(lda), b, i(ldb), beta, c, i(ldc));
}

// A stored dense matrix in the work layout.
template <class T>
class DenseOperator final : public RowOperator<T> {
 public:
  DenseOperator(std::int64_t m, std::int64_t n, Blocks<T> a) : RowOperator<T>(m, n), a_(std::move(a)) {}
  void tile(const WorkLayout& w, std::int64_t t, std::int64_t c0, std::int64_t width, T* out) const override {
    const std::int64_t rows = w.rows(w.ids[static_cast<std::size_t>(t)]);
    const T* from = stored_tile(w, t, c0);
    std::copy(from, from + rows * width, out);
  }
  const T* stored_tile(const WorkLayout& w, std::int64_t t, std::int64_t c0) const override {
    return a_.data[static_cast<std::size_t>(t)].data() + c0 * w.rows(w.ids[static_cast<std::size_t>(t)]);
  }

 private:
  Blocks<T> a_;
};

// The kernel matrix, formed tile by tile.
template <class T>
class KernelOperator final : public RowOperator<T> {
 public:
  explicit KernelOperator(const GaussianKernel<T>& k) : RowOperator<T>(k.size(), k.size()), k_(k) {}
  void tile(const WorkLayout& w, std::int64_t t, std::int64_t c0, std::int64_t width, T* out) const override {
    const std::int64_t id = w.ids[static_cast<std::size_t>(t)];
    kernel_entries<T>(k_.points().data(), k_.dimension(), k_.bandwidth(), w.first(id), w.rows(id), c0, width, out,
                      w.rows(id));
  }

 private:
  const GaussianKernel<T>& k_;
};

void check_options(tm::CollectiveCheck& check, const RandomizedOptions& o) {
  check.require(o.oversampling >= 0 && o.power_iterations >= 0 && o.refinement_iterations >= 0 && o.error_probes >= 0,
                tm::ErrorKind::invalid_argument,
                "oversampling = " + std::to_string(o.oversampling) +
                    ", power_iterations = " + std::to_string(o.power_iterations) + ", refinement_iterations = " +
                    std::to_string(o.refinement_iterations) + ", error_probes = " + std::to_string(o.error_probes),
                "all four must be >= 0");
  check.require(o.block_rows >= 1, tm::ErrorKind::invalid_argument,
                "block_rows = " + std::to_string(o.block_rows) + " < 1",
                "use at least 1 row per work block (512 is a good default)");
  check.require(o.threads >= 0, tm::ErrorKind::invalid_argument, "threads = " + std::to_string(o.threads) + " < 0",
                "use 0 (the process default) or a positive count");
  check.require(
      o.sketch.nonzeros_per_row >= 1 && static_cast<unsigned>(o.sketch.kind) <= static_cast<unsigned>(SketchKind::srht),
      tm::ErrorKind::invalid_argument,
      "sketch.kind = " + std::to_string(static_cast<unsigned>(o.sketch.kind)) +
          ", sketch.nonzeros_per_row = " + std::to_string(o.sketch.nonzeros_per_row),
      "use a SketchKind enumerator and nonzeros_per_row >= 1");
  check.require(static_cast<unsigned>(o.range_precision) <= static_cast<unsigned>(RangePrecision::bf16),
                tm::ErrorKind::invalid_argument,
                "range_precision has the invalid value " + std::to_string(static_cast<unsigned>(o.range_precision)),
                "use RangePrecision::working or RangePrecision::bf16");
  check.same("oversampling", o.oversampling);
  check.same("power_iterations", o.power_iterations);
  check.same("refinement_iterations", o.refinement_iterations);
  check.same("error_probes", o.error_probes);
  check.same("block_rows", o.block_rows);
  check.same("range_precision", static_cast<std::int64_t>(o.range_precision));
  check.same("symmetric", o.symmetric ? 1 : 0);
  check.same("sketch.kind", static_cast<std::int64_t>(o.sketch.kind));
  check.same("sketch.seed", std::bit_cast<std::int64_t>(o.sketch.seed));
  check.same("sketch.stream", std::bit_cast<std::int64_t>(o.sketch.stream));
  check.same("sketch.nonzeros_per_row", o.sketch.nonzeros_per_row);
}

void check_grid(tm::CollectiveCheck& check, const tm::ProcessGrid& grid) {
  check.require(grid.cols() == 1, tm::ErrorKind::invalid_argument,
                "the grid is " + std::to_string(grid.rows()) + "x" + std::to_string(grid.cols()),
                "the randomized routines take a row-distributed matrix: use a Px1 ProcessGrid");
}

void check_rank(tm::CollectiveCheck& check, std::int64_t k, std::int64_t m, std::int64_t n) {
  const std::int64_t limit = std::min(m, n);
  check.same("k", k);
  check.require(k >= 1 && k <= limit, tm::ErrorKind::invalid_argument,
                "k = " + std::to_string(k) + " for a " + std::to_string(m) + "x" + std::to_string(n) +
                    " matrix (1 <= k <= min(m, n) = " + std::to_string(limit) + " required)",
                limit < 1 ? "the matrix is empty: there is nothing to approximate"
                          : "choose k in [1, " + std::to_string(limit) + "]");
}

bool descriptor_usable(const tm::Descriptor& d, const tm::ProcessGrid& g) {
  return d.mb >= 1 && d.nb >= 1 && d.m >= 0 && d.n >= 0 && d.rsrc >= 0 && d.rsrc < g.rows();
}

template <class T>
void check_dense(tm::CollectiveCheck& check, const tm::ProcessGrid& grid, tm::DistMatrix<const T> a) {
  tm::check_descriptor(check, grid, a.desc, "a");
  if (grid.cols() != 1 || !descriptor_usable(a.desc, grid)) return;
  const std::int64_t lr = tm::local_rows(a.desc, grid), n = a.desc.n;
  check.require(lr * n == 0 || a.data != nullptr, tm::ErrorKind::invalid_argument,
                "a.data is null for " + std::to_string(lr) + " local rows", "pass the local array");
  if (check.failed_locally() || lr * n == 0 || a.desc.lld < lr) return;
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < lr; ++i) {
      const T v = a.data[i + j * a.desc.lld];
      if (!std::isfinite(v)) {
        check.require(false, tm::ErrorKind::invalid_argument,
                      "A(" + std::to_string(tm::local_to_global_row(i, a.desc, grid)) + ", " + std::to_string(j) +
                          ") = " + trncore::detail::sci(static_cast<double>(v)),
                      "pass a matrix with finite entries");
        return;
      }
    }
}

std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }
std::vector<double> widen(const std::vector<double>& v) { return v; }

template <class T>
double spacing(double x) {
  const T v = static_cast<T>(x);
  return static_cast<double>(std::nextafter(v, std::numeric_limits<T>::infinity()) - v);
}

// Everything a run shares: the communicator, the work layout, the operator and the options.
template <class T>
struct Run {
  const tm::Communicator& comm;
  WorkLayout w;
  const RowOperator<T>& a;
  const RandomizedOptions& o;
  trncore::Options host;
  bool symmetric;
  std::int64_t matvecs = 0;

  Blocks<T> mul(const std::vector<T>& x, std::int64_t c, RangePrecision p) {
    matvecs += c;
    return apply<T>(w, a, x.data(), c, p, host);
  }
  std::vector<T> mul_t(const Blocks<T>& y, RangePrecision p) {
    matvecs += y.cols;
    return block_sum<T>(comm, w, transpose_partials<T>(w, a, y, p, host), a.cols() * y.cols);
  }
  // Q ← orth(A·orth(Aᵀ·Q)) (symmetric: both products with A).
  void power_step(Blocks<T>& q, RangePrecision p) {
    const std::int64_t c = q.cols;
    if (symmetric) {
      for (int half = 0; half < 2; ++half) {
        q = mul(allgather<T>(comm, w, q), c, p);
        tsqr<T>(comm, w, q, nullptr, host);
      }
    } else {
      std::vector<T> v = mul_t(q, p);
      orth_local<T>(v, a.cols(), c, host);
      q = mul(v, c, p);
      tsqr<T>(comm, w, q, nullptr, host);
    }
  }
  // The rows of a replicated rows×c matrix (ld rows) as work blocks.
  Blocks<T> rows_of(const std::vector<T>& x, std::int64_t c) const {
    Blocks<T> b = make_blocks<T>(w, c);
    for (std::size_t t = 0; t < w.ids.size(); ++t) {
      const std::int64_t id = w.ids[t], rows = w.rows(id);
      for (std::int64_t j = 0; j < c; ++j)
        for (std::int64_t i = 0; i < rows; ++i)
          b.data[t][static_cast<std::size_t>(i + j * rows)] = x[static_cast<std::size_t>(w.first(id) + i + j * w.m)];
    }
    return b;
  }
  // ‖(I − Q·Qᵀ)·P‖_F/√c for orthonormal Q, P (m×c), in double.
  double change(const Blocks<T>& p, const Blocks<T>& q) {
    const std::int64_t c = q.cols;
    std::vector<double> parts;
    for (std::size_t t = 0; t < w.ids.size(); ++t) {
      const std::int64_t rows = w.rows(w.ids[t]);
      const std::vector<double> qd = widen(q.data[t]), pd = widen(p.data[t]);
      std::vector<double> g(static_cast<std::size_t>(c * c));
      gemm<double>(Op::trans, Op::no_trans, c, c, rows, 1.0, qd.data(), rows, pd.data(), rows, 0.0, g.data(), c, host);
      parts.insert(parts.end(), g.begin(), g.end());
    }
    const std::vector<double> g = block_sum<double>(comm, w, parts, c * c);
    std::vector<double> sums;
    for (std::size_t t = 0; t < w.ids.size(); ++t) {
      const std::int64_t rows = w.rows(w.ids[t]);
      const std::vector<double> qd = widen(q.data[t]);
      std::vector<double> r = widen(p.data[t]);
      gemm<double>(Op::no_trans, Op::no_trans, rows, c, c, -1.0, qd.data(), rows, g.data(), c, 1.0, r.data(), rows,
                   host);
      double s = 0.0;
      for (const double v : r) s += v * v;
      sums.push_back(s);
    }
    const std::vector<double> total = block_sum<double>(comm, w, sums, 1);
    return c == 0 ? 0.0 : std::sqrt(total[0] / static_cast<double>(c));
  }
  // The report's product: Z = A·[V, Ω_p]; residuals of (s_i, u_i, v_i) and (A − U·diag(s)·Vᵀ)·ω_j.
  // v: n×k replicated (ld n); u: work blocks (m×k).
  void report(RandomizedReport& rep, const Blocks<T>& u, const std::vector<T>& s, const std::vector<T>& v) {
    const std::int64_t k = u.cols, r = o.error_probes, n = a.cols();
    if (r == 0 && k == 0) return;
    Sketch probe{SketchKind::gaussian, o.sketch.seed, o.sketch.stream + 7, 8};
    const std::vector<T> omega =
        r > 0 ? sketch_matrix<T>(probe, n, r, trncore::Options{}.with_threads(o.threads)).data : std::vector<T>{};
    std::vector<T> x(static_cast<std::size_t>(n * (k + r)));
    std::copy(v.begin(), v.begin() + n * k, x.begin());
    std::copy(omega.begin(), omega.end(), x.begin() + n * k);
    const Blocks<T> z = mul(x, k + r, RangePrecision::working);
    // G = diag(s)·Vᵀ·Ω_p (k×r) in double, the same on every rank.
    std::vector<double> g(static_cast<std::size_t>(k * r), 0.0);
    for (std::int64_t j = 0; j < r; ++j)
      for (std::int64_t i = 0; i < k; ++i) {
        double acc = 0.0;
        for (std::int64_t t = 0; t < n; ++t)
          acc += static_cast<double>(v[static_cast<std::size_t>(t + i * n)]) *
                 static_cast<double>(omega[static_cast<std::size_t>(t + j * n)]);
        g[static_cast<std::size_t>(i + j * k)] = static_cast<double>(s[static_cast<std::size_t>(i)]) * acc;
      }
    std::vector<double> parts;
    for (std::size_t t = 0; t < w.ids.size(); ++t) {
      const std::int64_t rows = w.rows(w.ids[t]);
      const std::vector<T>& zb = z.data[t];
      const std::vector<T>& ub = u.data[t];
      for (std::int64_t i = 0; i < k; ++i) {
        double acc = 0.0;
        for (std::int64_t e = 0; e < rows; ++e) {
          const double d = static_cast<double>(zb[static_cast<std::size_t>(e + i * rows)]) -
                           static_cast<double>(s[static_cast<std::size_t>(i)]) *
                               static_cast<double>(ub[static_cast<std::size_t>(e + i * rows)]);
          acc += d * d;
        }
        parts.push_back(acc);
      }
      for (std::int64_t j = 0; j < r; ++j) {
        double acc = 0.0;
        for (std::int64_t e = 0; e < rows; ++e) {
          double d = static_cast<double>(zb[static_cast<std::size_t>(e + (k + j) * rows)]);
          for (std::int64_t i = 0; i < k; ++i)
            d -= static_cast<double>(ub[static_cast<std::size_t>(e + i * rows)]) *
                 g[static_cast<std::size_t>(i + j * k)];
          acc += d * d;
        }
        parts.push_back(acc);
      }
    }
    const std::vector<double> sums = block_sum<double>(comm, w, parts, k + r);
    const double scale = k > 0 && s[0] != T(0) ? std::abs(static_cast<double>(s[0])) : 1.0;
    for (std::int64_t i = 0; i < k; ++i)
      rep.residual = std::max(rep.residual, std::sqrt(sums[static_cast<std::size_t>(i)]) / scale);
    double worst = 0.0;
    for (std::int64_t j = 0; j < r; ++j) worst = std::max(worst, std::sqrt(sums[static_cast<std::size_t>(k + j)]));
    rep.error_estimate = 10.0 * std::sqrt(2.0 / std::numbers::pi) * worst / scale;
  }
  RandomizedReport base_report(std::int64_t l) const {
    RandomizedReport r;
    r.basis_columns = l;
    r.work_blocks = w.nblocks;
    r.ranks = comm.size();
    return r;
  }
};

template <class T>
RsvdResult<T> rsvd_run(const tm::ProcessGrid& grid, const RowOperator<T>& a, std::int64_t k, const RandomizedOptions& o,
                       bool symmetric, const UserRows& user, std::int64_t nb) {
  const tm::Communicator& comm = grid.comm();
  const std::int64_t m = a.rows(), n = a.cols(), l = std::min(k + o.oversampling, std::min(m, n));
  Run<T> run{
      comm,     WorkLayout(m, o.block_rows, comm.size(), comm.rank()), a, o, trncore::Options{}.with_threads(o.threads),
      symmetric};
  RsvdResult<T> res;
  res.report = run.base_report(l);
  const std::vector<T> omega = sketch_matrix<T>(o.sketch, n, l, trncore::Options{}.with_threads(o.threads)).data;
  Blocks<T> q = run.mul(omega, l, o.range_precision);
  tsqr<T>(comm, run.w, q, nullptr, run.host);
  for (std::int64_t it = 0; it < o.power_iterations; ++it) run.power_step(q, o.range_precision);
  if (o.refinement_iterations > 0) {
    const Blocks<T> before = q;
    for (std::int64_t it = 0; it < o.refinement_iterations; ++it) run.power_step(q, RangePrecision::working);
    res.report.refinement_change = run.change(before, q);
  }
  std::vector<T> s(static_cast<std::size_t>(l));
  Blocks<T> u = make_blocks<T>(run.w, k);
  std::vector<T> v(static_cast<std::size_t>(n * k));  // V, n×k replicated
  std::int64_t info = 0;
  if (symmetric) {
    Blocks<T> c = run.mul(allgather<T>(comm, run.w, q), l, RangePrecision::working);
    std::vector<T> r;
    tsqr<T>(comm, run.w, c, &r, run.host);
    std::vector<T> ur(static_cast<std::size_t>(l * l)), vrt(static_cast<std::size_t>(l * l));
    info = trnsolver::gesdd<T>(Layout::col_major, Job::thin, l, l, r.data(), l, s.data(), ur.data(), l, vrt.data(), l,
                               run.host);
    if (info == 0) {
      Blocks<T> vb = make_blocks<T>(run.w, k);
      for (std::size_t t = 0; t < run.w.ids.size(); ++t) {
        const std::int64_t rows = run.w.rows(run.w.ids[t]);
        gemm<T>(Op::no_trans, Op::trans, rows, k, l, T(1), q.data[t].data(), rows, vrt.data(), l, T(0),
                u.data[t].data(), rows, run.host);
        gemm<T>(Op::no_trans, Op::no_trans, rows, k, l, T(1), c.data[t].data(), rows, ur.data(), l, T(0),
                vb.data[t].data(), rows, run.host);
      }
      v = allgather<T>(comm, run.w, vb);
    }
  } else {
    std::vector<T> bt = run.mul_t(q, RangePrecision::working);  // n×l = (Qᵀ·A)ᵀ
    std::vector<T> wv(static_cast<std::size_t>(n * l)), zt(static_cast<std::size_t>(l * l));
    info = trnsolver::gesdd<T>(Layout::col_major, Job::thin, n, l, bt.data(), n, s.data(), wv.data(), n, zt.data(), l,
                               run.host);
    if (info == 0) {
      for (std::size_t t = 0; t < run.w.ids.size(); ++t) {
        const std::int64_t rows = run.w.rows(run.w.ids[t]);
        gemm<T>(Op::no_trans, Op::trans, rows, k, l, T(1), q.data[t].data(), rows, zt.data(), l, T(0), u.data[t].data(),
                rows, run.host);
      }
      std::copy(wv.begin(), wv.begin() + n * k, v.begin());
    }
  }
  res.u_desc = tm::make_descriptor(grid, m, k, user.mb, nb, user.rsrc, 0);
  if (info != 0) {
    res.info = info;
    res.u_desc = tm::make_descriptor(grid, m, 0, user.mb, nb, user.rsrc, 0);
    res.vt = DenseMatrix<T>(0, n, Layout::col_major);
    res.report.matvecs = run.matvecs;
    return res;
  }
  s.resize(static_cast<std::size_t>(k));
  run.report(res.report, u, s, v);
  res.report.matvecs = run.matvecs;
  UserRows out = user;
  out.lld = res.u_desc.lld;
  res.u = to_user<T>(comm, run.w, u, out);
  res.vt = DenseMatrix<T>(k, n, Layout::col_major);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < k; ++i) res.vt(i, j) = v[static_cast<std::size_t>(j + i * n)];
  res.s = std::move(s);
  res.rank = k;
  return res;
}

template <class T>
NystromResult<T> nystrom_run(const tm::ProcessGrid& grid, const RowOperator<T>& a, std::int64_t k,
                             const RandomizedOptions& o, const UserRows& user, std::int64_t nb) {
  const tm::Communicator& comm = grid.comm();
  const std::int64_t n = a.rows(), l = std::min(k + o.oversampling, n);
  Run<T> run{
      comm, WorkLayout(n, o.block_rows, comm.size(), comm.rank()), a, o, trncore::Options{}.with_threads(o.threads),
      true};
  NystromResult<T> res;
  res.report = run.base_report(l);
  res.u_desc = tm::make_descriptor(grid, n, 0, user.mb, nb, user.rsrc, 0);
  std::vector<T> omega = sketch_matrix<T>(o.sketch, n, l, trncore::Options{}.with_threads(o.threads)).data;
  orth_local<T>(omega, n, l, run.host);  // orthonormal test matrix (Frangella, Tropp & Udell 2023, Alg. 2.1)
  const auto subspace_step = [&](RangePrecision p) {
    Blocks<T> y = run.mul(omega, l, p);
    tsqr<T>(comm, run.w, y, nullptr, run.host);
    omega = allgather<T>(comm, run.w, y);
    return y;
  };
  for (std::int64_t it = 0; it < o.power_iterations; ++it) subspace_step(o.range_precision);
  if (o.refinement_iterations > 0) {
    const Blocks<T> before = run.rows_of(omega, l);
    Blocks<T> after;
    for (std::int64_t it = 0; it < o.refinement_iterations; ++it) after = subspace_step(RangePrecision::working);
    res.report.refinement_change = run.change(before, after);
  }
  Blocks<T> y = run.mul(omega, l, RangePrecision::working);
  const Blocks<T> om = run.rows_of(omega, l);
  std::vector<double> sq;
  for (const auto& b : y.data) {
    double s = 0.0;
    for (const T v : b) s += static_cast<double>(v) * static_cast<double>(v);
    sq.push_back(s);
  }
  const double fro = std::sqrt(block_sum<double>(comm, run.w, sq, 1)[0]);
  const double nu = std::sqrt(static_cast<double>(n)) * spacing<T>(fro);
  std::vector<double> parts;
  std::vector<std::vector<double>> ynu(run.w.ids.size());
  for (std::size_t t = 0; t < run.w.ids.size(); ++t) {
    const std::int64_t rows = run.w.rows(run.w.ids[t]);
    for (std::size_t e = 0; e < y.data[t].size(); ++e) y.data[t][e] += static_cast<T>(nu) * om.data[t][e];
    ynu[t] = widen(y.data[t]);
    const std::vector<double> od = widen(om.data[t]);
    std::vector<double> g(static_cast<std::size_t>(l * l));
    gemm<double>(Op::trans, Op::no_trans, l, l, rows, 1.0, od.data(), rows, ynu[t].data(), rows, 0.0, g.data(), l,
                 run.host);
    parts.insert(parts.end(), g.begin(), g.end());
  }
  std::vector<double> c = block_sum<double>(comm, run.w, parts, l * l);
  for (std::int64_t j = 0; j < l; ++j)
    for (std::int64_t i = 0; i < j; ++i)
      c[static_cast<std::size_t>(i + j * l)] = c[static_cast<std::size_t>(j + i * l)] =
          (c[static_cast<std::size_t>(i + j * l)] + c[static_cast<std::size_t>(j + i * l)]) / 2.0;
  if (trnsolver::potrf<double>(Layout::col_major, Uplo::upper, l, c.data(), l, run.host) != 0) {
    res.report.matvecs = run.matvecs;
    return res;  // Ωᵀ·A·Ω is not numerically positive definite: A is not PSD (the same on every rank)
  }
  Blocks<T> e = make_blocks<T>(run.w, l);
  for (std::size_t t = 0; t < run.w.ids.size(); ++t) {
    const std::int64_t rows = run.w.rows(run.w.ids[t]);
    trnblas::trsm<double>(Layout::col_major, Side::right, Uplo::upper, Op::no_trans, Diag::non_unit, rows, l, 1.0,
                          c.data(), l, ynu[t].data(), rows, run.host);
    std::transform(ynu[t].begin(), ynu[t].end(), e.data[t].begin(), [](double v) { return static_cast<T>(v); });
  }
  std::vector<T> re;
  tsqr<T>(comm, run.w, e, &re, run.host);
  std::vector<T> sig(static_cast<std::size_t>(l)), ur(static_cast<std::size_t>(l * l)),
      vrt(static_cast<std::size_t>(l * l));
  const std::int64_t info = trnsolver::gesdd<T>(Layout::col_major, Job::thin, l, l, re.data(), l, sig.data(), ur.data(),
                                                l, vrt.data(), l, run.host);
  if (info != 0) {
    res.info = info;
    res.report.matvecs = run.matvecs;
    return res;
  }
  Blocks<T> u = make_blocks<T>(run.w, k);
  for (std::size_t t = 0; t < run.w.ids.size(); ++t) {
    const std::int64_t rows = run.w.rows(run.w.ids[t]);
    gemm<T>(Op::no_trans, Op::no_trans, rows, k, l, T(1), e.data[t].data(), rows, ur.data(), l, T(0), u.data[t].data(),
            rows, run.host);
  }
  res.w.resize(static_cast<std::size_t>(k));
  for (std::int64_t i = 0; i < k; ++i) {
    const double si = sig[static_cast<std::size_t>(i)];
    res.w[static_cast<std::size_t>(i)] = static_cast<T>(std::max(si * si - nu, 0.0));
  }
  run.report(res.report, u, res.w, allgather<T>(comm, run.w, u));
  res.report.matvecs = run.matvecs;
  res.u_desc = tm::make_descriptor(grid, n, k, user.mb, nb, user.rsrc, 0);
  UserRows out = user;
  out.lld = res.u_desc.lld;
  res.u = to_user<T>(comm, run.w, u, out);
  res.rank = k;
  return res;
}

template <class T>
DenseOperator<T> dense_operator(const tm::ProcessGrid& grid, tm::DistMatrix<const T> a, std::int64_t block_rows) {
  const WorkLayout w(a.desc.m, block_rows, grid.rows(), grid.row());
  const UserRows user{a.desc.mb, a.desc.rsrc, a.desc.lld, grid.rows()};
  return DenseOperator<T>(a.desc.m, a.desc.n, to_work<T>(grid.comm(), w, user, a.data, a.desc.n));
}

}  // namespace

template <class T>
RsvdResult<T> rsvd(const tm::ProcessGrid& grid, tm::DistMatrix<const T> a, std::int64_t k,
                   const RandomizedOptions& options) {
  tm::CollectiveCheck check(grid.comm(), "trnsolver::mpi::rsvd");
  check_grid(check, grid);
  check_options(check, options);
  check_rank(check, k, a.desc.m, a.desc.n);
  check.require(!options.symmetric || a.desc.m == a.desc.n, tm::ErrorKind::dimension_mismatch,
                "symmetric = true for a " + std::to_string(a.desc.m) + "x" + std::to_string(a.desc.n) + " matrix",
                "a symmetric matrix is square; leave symmetric = false");
  check_dense<T>(check, grid, a);
  check.finish();
  const SingleThreadedBlas blas;
  const DenseOperator<T> op = dense_operator<T>(grid, a, options.block_rows);
  return rsvd_run<T>(grid, op, k, options, options.symmetric, UserRows{a.desc.mb, a.desc.rsrc, 1, grid.rows()},
                     a.desc.nb);
}

template <class T>
RsvdResult<T> rsvd(const tm::ProcessGrid& grid, const GaussianKernel<T>& a, std::int64_t k,
                   const RandomizedOptions& options) {
  tm::CollectiveCheck check(grid.comm(), "trnsolver::mpi::rsvd");
  check_grid(check, grid);
  check_options(check, options);
  check_rank(check, k, a.size(), a.size());
  tm::check_descriptor(check, grid, a.points_descriptor(), "the kernel's points");
  check.finish();
  const SingleThreadedBlas blas;
  const KernelOperator<T> op(a);
  const tm::Descriptor& d = a.points_descriptor();
  return rsvd_run<T>(grid, op, k, options, true, UserRows{d.mb, d.rsrc, 1, grid.rows()}, d.nb);
}

template <class T>
NystromResult<T> nystrom(const tm::ProcessGrid& grid, tm::DistMatrix<const T> a, std::int64_t k,
                         const RandomizedOptions& options) {
  tm::CollectiveCheck check(grid.comm(), "trnsolver::mpi::nystrom");
  check_grid(check, grid);
  check_options(check, options);
  check.require(a.desc.m == a.desc.n, tm::ErrorKind::dimension_mismatch,
                "A is " + std::to_string(a.desc.m) + "x" + std::to_string(a.desc.n),
                "Nystrom approximates a square symmetric positive semidefinite matrix");
  check_rank(check, k, a.desc.m, a.desc.n);
  check_dense<T>(check, grid, a);
  check.finish();
  const SingleThreadedBlas blas;
  const DenseOperator<T> op = dense_operator<T>(grid, a, options.block_rows);
  return nystrom_run<T>(grid, op, k, options, UserRows{a.desc.mb, a.desc.rsrc, 1, grid.rows()}, a.desc.nb);
}

template <class T>
NystromResult<T> nystrom(const tm::ProcessGrid& grid, const GaussianKernel<T>& a, std::int64_t k,
                         const RandomizedOptions& options) {
  tm::CollectiveCheck check(grid.comm(), "trnsolver::mpi::nystrom");
  check_grid(check, grid);
  check_options(check, options);
  check_rank(check, k, a.size(), a.size());
  tm::check_descriptor(check, grid, a.points_descriptor(), "the kernel's points");
  check.finish();
  const SingleThreadedBlas blas;
  const KernelOperator<T> op(a);
  const tm::Descriptor& d = a.points_descriptor();
  return nystrom_run<T>(grid, op, k, options, UserRows{d.mb, d.rsrc, 1, grid.rows()}, d.nb);
}

#define TRNSOLVER_MPI_RANDOMIZED(T)                                                                    \
  template RsvdResult<T> rsvd<T>(const tm::ProcessGrid&, tm::DistMatrix<const T>, std::int64_t,        \
                                 const RandomizedOptions&);                                            \
  template RsvdResult<T> rsvd<T>(const tm::ProcessGrid&, const GaussianKernel<T>&, std::int64_t,       \
                                 const RandomizedOptions&);                                            \
  template NystromResult<T> nystrom<T>(const tm::ProcessGrid&, tm::DistMatrix<const T>, std::int64_t,  \
                                       const RandomizedOptions&);                                      \
  template NystromResult<T> nystrom<T>(const tm::ProcessGrid&, const GaussianKernel<T>&, std::int64_t, \
                                       const RandomizedOptions&);
TRNSOLVER_MPI_RANDOMIZED(float)
TRNSOLVER_MPI_RANDOMIZED(double)
#undef TRNSOLVER_MPI_RANDOMIZED

}  // namespace trnsolver::mpi
