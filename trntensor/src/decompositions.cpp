// CP-ALS, Tucker (HOSVD, HOOI) and TT-SVD. Mode products and MTTKRPs are einsums; SVDs and the R×R solves
// are Eigen's (BDCSVD, CompleteOrthogonalDecomposition).
#include <trntensor/decompositions.hpp>
#include <trntensor/einsum.hpp>

#include <trncore/detail/format_number.hpp>
#include <trncore/monitor.hpp>

#include <Eigen/Dense>

#include <cmath>
#include <random>
#include <span>
#include <string>

namespace trntensor {
namespace {

using Matrix = Eigen::MatrixXd;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr char kExtraLabel = 'Z';

// The decompositions' contractions. They claim no per-contraction certificate (CP-ALS and HOOI are iterative
// local optimisations, tested empirically; tt_svd's error_bound comes from the discarded singular values), so
// they call einsum's report overload and do not turn an uncertified contraction (e.g. products of entries
// near 1e-160 falling below fp64's normal range) into a TargetNotMet.
// `threads` is the caller's options.threads (results do not depend on it).
Tensor<double> contract(const std::string& subs, std::span<const TensorView<const double>> ops, int threads) {
  trncore::AccuracyReport unused;
  return einsum<double>(subs, ops, trncore::Options{}.with_threads(threads), unused);
}

// The decompositions run on the host: the checks every entry point makes of its options.
void check_options(std::string_view function, const trncore::Options& options) {
  trncore::validate(options, function);
  if (options.backend != trncore::Backend::host)
    throw trncore::NotSupported(function, "backend " + std::string(trncore::to_string(options.backend)),
                                "the decompositions run on the host in fp64: use Backend::host (their contractions "
                                "are einsums; call einsum with Backend::sim for a contraction on the sim backend)");
}
constexpr int kMaxRank = 25;  // letters a..y for the axes, Z for the new one

void check_tensor(std::string_view function, TensorView<const double> x, int min_rank) {
  if (x.rank() < min_rank || x.rank() > kMaxRank)
    throw trncore::InvalidArgument(
        function, "a tensor of rank " + std::to_string(x.rank()) + " (shape " + detail::shape_string(x.shape()) + ")",
        "pass a tensor of rank " + std::to_string(min_rank) + " to " + std::to_string(kMaxRank));
  const Tensor<double> dense = Tensor<double>::copy_of(x);
  for (double v : dense.values())
    if (!std::isfinite(v))
      throw trncore::InvalidArgument(function, "the tensor has a non-finite entry", "pass finite values");
}

double frobenius(TensorView<const double> x) {
  const Tensor<double> d = Tensor<double>::copy_of(x);
  long double s = 0;
  for (double v : d.values()) s += static_cast<long double>(v) * v;
  return static_cast<double>(std::sqrt(s));
}

std::string axis_letters(int rank) {
  std::string s;
  for (int d = 0; d < rank; ++d) s += static_cast<char>('a' + d);
  return s;
}

// The mode-n unfolding: rows indexed by axis n, columns by the other axes in order.
Matrix unfold(TensorView<const double> x, int mode) {
  std::vector<int> axes{mode};
  for (int d = 0; d < x.rank(); ++d)
    if (d != mode) axes.push_back(d);
  const Tensor<double> p = Tensor<double>::copy_of(x.permuted(axes));
  const std::int64_t rows = x.extent(mode), cols = rows == 0 ? 0 : p.size() / rows;
  return Eigen::Map<const RowMatrix>(p.data(), rows, cols);
}

Tensor<double> to_tensor(const Matrix& m) {
  Tensor<double> t({m.rows(), m.cols()});
  Eigen::Map<RowMatrix>(t.data(), m.rows(), m.cols()) = m;
  return t;
}

// A zero extent leaves nothing to decompose: CP-ALS would normalise zero columns and the SVDs of TT-SVD
// would run on empty matrices, so both refuse it.
void check_no_zero_extent(std::string_view function, TensorView<const double> x) {
  for (int d = 0; d < x.rank(); ++d)
    if (x.extent(d) == 0)
      throw trncore::InvalidArgument(function, "the shape " + detail::shape_string(x.shape()) + " has a zero extent",
                                     "decompose a tensor with elements");
}

Matrix to_matrix(const Tensor<double>& t) { return Eigen::Map<const RowMatrix>(t.data(), t.extent(0), t.extent(1)); }

// Y = X ×_mode M with M of shape J × I_mode: Y[..j..] = Σ_i M[j, i] X[..i..].
Tensor<double> mode_product(TensorView<const double> x, const Tensor<double>& m, int mode, int threads) {
  const std::string xl = axis_letters(x.rank());
  std::string out = xl;
  out[static_cast<std::size_t>(mode)] = kExtraLabel;
  const std::string subs = xl + "," + kExtraLabel + xl[static_cast<std::size_t>(mode)] + "->" + out;
  const TensorView<const double> ops[] = {x, m.view()};
  return contract(subs, ops, threads);
}

Matrix leading_left_singular_vectors(const Matrix& a, std::int64_t r) {
  Eigen::BDCSVD<Matrix> svd(a, Eigen::ComputeThinU);
  return svd.matrixU().leftCols(r);
}

void check_ranks(std::string_view function, TensorView<const double> x, const std::vector<std::int64_t>& ranks) {
  if (static_cast<int>(ranks.size()) != x.rank())
    throw trncore::InvalidArgument(
        function, std::to_string(ranks.size()) + " ranks for a tensor of rank " + std::to_string(x.rank()),
        "give one rank per axis");
  for (int d = 0; d < x.rank(); ++d)
    if (ranks[static_cast<std::size_t>(d)] < 1 || ranks[static_cast<std::size_t>(d)] > x.extent(d))
      throw trncore::InvalidArgument(function,
                                     "rank " + std::to_string(ranks[static_cast<std::size_t>(d)]) + " for axis " +
                                         std::to_string(d) + " of extent " + std::to_string(x.extent(d)),
                                     "use 1 <= rank <= extent");
}

double relative_error(TensorView<const double> x, const Tensor<double>& approx, double norm) {
  const Tensor<double> d = Tensor<double>::copy_of(x);
  long double s = 0;
  for (std::size_t i = 0; i < d.values().size(); ++i) {
    const long double e = static_cast<long double>(d.values()[i]) - approx.values()[i];
    s += e * e;
  }
  return norm == 0 ? 0.0 : static_cast<double>(std::sqrt(s)) / norm;
}

Tensor<double> tucker_core(TensorView<const double> x, const std::vector<Tensor<double>>& factors, int threads,
                           int skip = -1) {
  Tensor<double> g = Tensor<double>::copy_of(x);
  for (int n = 0; n < x.rank(); ++n)
    if (n != skip)
      g = mode_product(g.view(), to_tensor(to_matrix(factors[static_cast<std::size_t>(n)]).transpose()), n, threads);
  return g;
}

// MTTKRP for mode n: M[i, r] = Σ X[.., i, ..] Π_{m≠n} A_m[i_m, r], as one einsum.
Matrix mttkrp(TensorView<const double> x, const std::vector<Tensor<double>>& factors, int mode, int threads) {
  const std::string xl = axis_letters(x.rank());
  std::string subs = xl;
  std::vector<TensorView<const double>> ops{x};
  for (int m = 0; m < x.rank(); ++m) {
    if (m == mode) continue;
    subs += std::string(",") + xl[static_cast<std::size_t>(m)] + kExtraLabel;
    ops.push_back(factors[static_cast<std::size_t>(m)].view());
  }
  subs += std::string("->") + xl[static_cast<std::size_t>(mode)] + kExtraLabel;
  return to_matrix(contract(subs, ops, threads));
}

// 1 − ‖X − X̂‖/‖X‖ from the explicit residual (the usual ‖X‖² − 2⟨X, X̂⟩ + ‖X̂‖² cancels to ~√u near a
// perfect fit, which would stop ALS at a relative error of 1e-8).
double cp_fit(TensorView<const double> x, double norm_x, const std::vector<Tensor<double>>& factors, int threads);
Tensor<double> cp_dense(const CpDecomposition& cp, int threads);
Tensor<double> tucker_dense(const TuckerDecomposition& t, int threads);

}  // namespace

CpDecomposition cp_als(TensorView<const double> x, const CpOptions& o) {
  constexpr std::string_view kFunction = "trntensor::cp_als";
  check_options(kFunction, o);
  const int threads = o.threads;
  check_tensor(kFunction, x, 2);
  if (o.rank < 1 || o.max_iterations < 0 || !(o.tolerance >= 0))
    throw trncore::InvalidArgument(kFunction,
                                   "rank " + std::to_string(o.rank) + ", max_iterations " +
                                       std::to_string(o.max_iterations) + ", tolerance " +
                                       trncore::detail::sci(o.tolerance),
                                   "use rank >= 1, max_iterations >= 0 and tolerance >= 0");
  check_no_zero_extent(kFunction, x);
  const Tensor<double> dense = Tensor<double>::copy_of(x);
  if (o.nonnegative)
    for (double v : dense.values())
      if (v < 0)
        throw trncore::InvalidArgument(kFunction, "a negative entry with nonnegative = true",
                                       "pass a non-negative tensor, or unset nonnegative");
  const int n = x.rank();
  const std::int64_t r = o.rank;
  const double norm_x = frobenius(x);
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<Tensor<double>> factors;
  std::vector<Matrix> grams;
  for (int d = 0; d < n; ++d) {
    Matrix a(x.extent(d), r);
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      for (Eigen::Index j = 0; j < a.cols(); ++j) a(i, j) = u(rng);
    grams.push_back(a.transpose() * a);
    factors.push_back(to_tensor(a));
  }
  CpDecomposition cp;
  double fit = 0;
  const trncore::detail::ProgressMonitor monitor(o.monitor, kFunction);
  const auto sweep = [&] {
    for (int d = 0; d < n; ++d) {
      Matrix v = Matrix::Ones(r, r);
      for (int e = 0; e < n; ++e)
        if (e != d) v = v.cwiseProduct(grams[static_cast<std::size_t>(e)]);
      const Matrix m = mttkrp(x, factors, d, threads);
      Matrix a = to_matrix(factors[static_cast<std::size_t>(d)]);
      if (o.nonnegative) {
        // HALS: each column is the projected exact minimiser with the others fixed.
        for (Eigen::Index c = 0; c < r; ++c) {
          if (v(c, c) <= 0) continue;
          a.col(c) = (a.col(c) + (m.col(c) - a * v.col(c)) / v(c, c)).cwiseMax(0.0);
        }
      } else {
        a = Eigen::CompleteOrthogonalDecomposition<Matrix>(v).solve(m.transpose()).transpose();
      }
      grams[static_cast<std::size_t>(d)] = a.transpose() * a;
      factors[static_cast<std::size_t>(d)] = to_tensor(a);
    }
    return cp_fit(x, norm_x, factors, threads);
  };
  for (int it = 1; it <= o.max_iterations; ++it) {
    const auto before = factors;
    double f = sweep();
    if (o.line_search && it > 2) {
      // Extrapolate along the sweep's change; the trial is judged by its own exact fit.
      const double s = std::cbrt(static_cast<double>(it));
      std::vector<Tensor<double>> trial = factors;
      std::vector<Matrix> trial_grams(static_cast<std::size_t>(n));
      for (int d = 0; d < n; ++d) {
        Matrix a = to_matrix(factors[static_cast<std::size_t>(d)]);
        a += s * (a - to_matrix(before[static_cast<std::size_t>(d)]));
        if (o.nonnegative) a = a.cwiseMax(0.0);
        trial_grams[static_cast<std::size_t>(d)] = a.transpose() * a;
        trial[static_cast<std::size_t>(d)] = to_tensor(a);
      }
      const double tf = cp_fit(x, norm_x, trial, threads);
      if (tf > f) {
        factors = std::move(trial);
        grams = std::move(trial_grams);
        f = tf;
      }
    }
    cp.iterations = it;
    const double change = std::fabs(f - fit);
    fit = f;
    const bool stop = monitor.stop_requested(it, change);
    if (it > 1 && change < o.tolerance) {
      cp.converged = true;
      break;
    }
    if (stop) {
      cp.stopped_by_monitor = true;
      break;
    }
  }
  // Unit-norm columns, the norms moved into the weights.
  cp.weights.assign(static_cast<std::size_t>(r), 1.0);
  for (auto& f : factors) {
    Matrix a = to_matrix(f);
    for (Eigen::Index c = 0; c < r; ++c) {
      const double norm = a.col(c).norm();
      if (norm > 0) a.col(c) /= norm;
      cp.weights[static_cast<std::size_t>(c)] *= norm;
    }
    f = to_tensor(a);
  }
  cp.factors = std::move(factors);
  const Tensor<double> approx = cp_dense(cp, threads);
  cp.fit = 1 - relative_error(x, approx, norm_x);
  return cp;
}

namespace {
double cp_fit(TensorView<const double> x, double norm_x, const std::vector<Tensor<double>>& factors, int threads) {
  CpDecomposition unit;
  unit.weights.assign(static_cast<std::size_t>(factors.front().extent(1)), 1.0);
  unit.factors = factors;
  return 1 - relative_error(x, cp_dense(unit, threads), norm_x);
}

Tensor<double> cp_dense(const CpDecomposition& cp, int threads) {
  constexpr std::string_view kFunction = "trntensor::cp_reconstruct";
  const auto r = static_cast<std::int64_t>(cp.weights.size());
  if (cp.factors.empty() || static_cast<int>(cp.factors.size()) > kMaxRank)
    throw trncore::DimensionMismatch(kFunction, std::to_string(cp.factors.size()) + " factors", "pass 1 to 25 factors");
  for (const auto& f : cp.factors)
    if (f.rank() != 2 || f.extent(1) != r)
      throw trncore::DimensionMismatch(
          kFunction, "a factor of shape " + detail::shape_string(f.shape()) + " with " + std::to_string(r) + " weights",
          "every factor must be I_n x R with R = weights.size()");
  const std::string xl = axis_letters(static_cast<int>(cp.factors.size()));
  const Tensor<double> w({r}, cp.weights);
  std::string subs(1, kExtraLabel);
  std::vector<TensorView<const double>> ops{w.view()};
  for (std::size_t d = 0; d < cp.factors.size(); ++d) {
    subs += std::string(",") + xl[d] + kExtraLabel;
    ops.push_back(cp.factors[d].view());
  }
  return contract(subs + "->" + xl, ops, threads);
}
}  // namespace

Tensor<double> cp_reconstruct(const CpDecomposition& cp) { return cp_dense(cp, 0); }

TuckerDecomposition tucker_hosvd(TensorView<const double> x, const std::vector<std::int64_t>& ranks,
                                 const trncore::Options& options) {
  constexpr std::string_view kFunction = "trntensor::tucker_hosvd";
  check_options(kFunction, options);
  const int threads = options.threads;
  check_tensor(kFunction, x, 1);
  check_ranks(kFunction, x, ranks);
  TuckerDecomposition t;
  for (int d = 0; d < x.rank(); ++d)
    t.factors.push_back(to_tensor(leading_left_singular_vectors(unfold(x, d), ranks[static_cast<std::size_t>(d)])));
  t.core = tucker_core(x, t.factors, threads);
  t.relative_error = relative_error(x, tucker_dense(t, threads), frobenius(x));
  return t;
}

TuckerDecomposition tucker_hooi(TensorView<const double> x, const std::vector<std::int64_t>& ranks,
                                const HooiOptions& options) {
  constexpr std::string_view kFunction = "trntensor::tucker_hooi";
  check_options(kFunction, options);
  const int threads = options.threads;
  const int max_iterations = options.max_iterations;
  const double tolerance = options.tolerance;
  if (max_iterations < 0 || !(tolerance >= 0))
    throw trncore::InvalidArgument(
        kFunction,
        "max_iterations " + std::to_string(max_iterations) + ", tolerance " + trncore::detail::sci(tolerance),
        "use max_iterations >= 0 and tolerance >= 0");
  TuckerDecomposition t = tucker_hosvd(x, ranks, options);
  const double norm_x = frobenius(x);
  double core_norm = frobenius(t.core.view());
  const trncore::detail::ProgressMonitor monitor(options.monitor, kFunction);
  for (int it = 1; it <= max_iterations; ++it) {
    for (int d = 0; d < x.rank(); ++d) {
      const Tensor<double> y = tucker_core(x, t.factors, threads, d);
      t.factors[static_cast<std::size_t>(d)] =
          to_tensor(leading_left_singular_vectors(unfold(y.view(), d), ranks[static_cast<std::size_t>(d)]));
    }
    t.core = tucker_core(x, t.factors, threads);
    t.iterations = it;
    const double now = frobenius(t.core.view());
    const double change = std::fabs(now - core_norm);
    const bool done = change <= tolerance * norm_x;
    core_norm = now;
    const bool stop = monitor.stop_requested(it, norm_x > 0 ? change / norm_x : 0.0);
    if (done) break;
    if (stop) {
      t.stopped_by_monitor = true;
      break;
    }
  }
  t.relative_error = relative_error(x, tucker_dense(t, threads), norm_x);
  return t;
}

Tensor<double> tucker_reconstruct(const TuckerDecomposition& t) { return tucker_dense(t, 0); }

namespace {
Tensor<double> tucker_dense(const TuckerDecomposition& t, int threads) {
  if (static_cast<int>(t.factors.size()) != t.core.rank())
    throw trncore::DimensionMismatch(
        "trntensor::tucker_reconstruct",
        std::to_string(t.factors.size()) + " factors for a core of rank " + std::to_string(t.core.rank()),
        "pass one factor per core axis");
  Tensor<double> y = t.core;
  for (int d = 0; d < t.core.rank(); ++d) {
    const auto& f = t.factors[static_cast<std::size_t>(d)];
    if (f.rank() != 2 || f.extent(1) != t.core.extent(d))
      throw trncore::DimensionMismatch("trntensor::tucker_reconstruct",
                                       "factor " + std::to_string(d) + " has shape " + detail::shape_string(f.shape()) +
                                           " but the core's axis has extent " + std::to_string(t.core.extent(d)),
                                       "factor n must be I_n x R_n");
    y = mode_product(y.view(), f, d, threads);
  }
  return y;
}
}  // namespace

TensorTrain tt_svd(TensorView<const double> x, double epsilon, std::int64_t max_rank, const trncore::Options& options) {
  constexpr std::string_view kFunction = "trntensor::tt_svd";
  check_options(kFunction, options);
  check_tensor(kFunction, x, 1);
  check_no_zero_extent(kFunction, x);
  if (!(epsilon >= 0) || max_rank < 1)
    throw trncore::InvalidArgument(
        kFunction, "epsilon " + trncore::detail::sci(epsilon) + ", max_rank " + std::to_string(max_rank),
        "use epsilon >= 0 and max_rank >= 1");
  const int d = x.rank();
  const double norm_x = frobenius(x);
  const double delta2 = d > 1 ? epsilon * epsilon * norm_x * norm_x / (d - 1) : 0.0;
  const Tensor<double> dense = Tensor<double>::copy_of(x);
  TensorTrain tt;
  double discarded = 0;
  std::int64_t r_prev = 1;
  RowMatrix c = Eigen::Map<const RowMatrix>(dense.data(), 1, dense.size());
  for (int k = 0; k < d - 1; ++k) {
    const std::int64_t nk = x.extent(k);
    const std::int64_t cols = r_prev * nk == 0 ? 0 : c.size() / (r_prev * nk);
    const RowMatrix a = Eigen::Map<const RowMatrix>(c.data(), r_prev * nk, cols);
    Eigen::BDCSVD<Matrix> svd(Matrix(a), Eigen::ComputeThinU | Eigen::ComputeThinV);
    const auto& s = svd.singularValues();
    // Smallest rank whose discarded tail stays within δ², capped by max_rank, at least 1.
    std::int64_t r = s.size();
    double tail = 0;
    while (r > 1 && tail + s(r - 1) * s(r - 1) <= delta2) {
      tail += s(r - 1) * s(r - 1);
      --r;
    }
    r = std::max<std::int64_t>(1, std::min(r, max_rank));
    for (Eigen::Index i = r; i < s.size(); ++i) discarded += s(i) * s(i);
    Tensor<double> core({r_prev, nk, r});
    Eigen::Map<RowMatrix>(core.data(), r_prev * nk, r) =
        s.size() > 0 ? Matrix(svd.matrixU().leftCols(r)) : Matrix::Zero(r_prev * nk, r);
    tt.cores.push_back(std::move(core));
    RowMatrix next(r, cols);
    if (s.size() > 0)
      next = (s.head(r).asDiagonal() * svd.matrixV().leftCols(r).transpose());
    else
      next.setZero();
    c = next;
    r_prev = r;
  }
  Tensor<double> last({r_prev, x.extent(d - 1), 1});
  std::copy(c.data(), c.data() + last.size(), last.data());
  tt.cores.push_back(std::move(last));
  tt.error_bound = norm_x == 0 ? 0.0 : std::sqrt(discarded) / norm_x;
  return tt;
}

Tensor<double> tt_reconstruct(const TensorTrain& tt) {
  constexpr std::string_view kFunction = "trntensor::tt_reconstruct";
  if (tt.cores.empty()) throw trncore::DimensionMismatch(kFunction, "no cores", "pass a train with at least one core");
  Shape shape;
  for (std::size_t k = 0; k < tt.cores.size(); ++k) {
    const auto& g = tt.cores[k];
    const std::int64_t left = k == 0 ? 1 : tt.cores[k - 1].extent(2);
    if (g.rank() != 3 || g.extent(0) != left || (k + 1 == tt.cores.size() && g.extent(2) != 1))
      throw trncore::DimensionMismatch(kFunction,
                                       "core " + std::to_string(k) + " has shape " + detail::shape_string(g.shape()),
                                       "core k must be r_{k-1} x I_k x r_k with r_{-1} = r_{d-1} = 1");
    shape.push_back(g.extent(1));
  }
  // Left to right: W (prod I so far × r_k) · G_{k+1} (r_k × I_{k+1} r_{k+1}).
  RowMatrix w = Eigen::Map<const RowMatrix>(tt.cores[0].data(), tt.cores[0].extent(1), tt.cores[0].extent(2));
  for (std::size_t k = 1; k < tt.cores.size(); ++k) {
    const auto& g = tt.cores[k];
    const RowMatrix gm = Eigen::Map<const RowMatrix>(g.data(), g.extent(0), g.extent(1) * g.extent(2));
    const RowMatrix p = w * gm;
    w = Eigen::Map<const RowMatrix>(p.data(), p.rows() * g.extent(1), g.extent(2));
  }
  return Tensor<double>(shape, std::vector<double>(w.data(), w.data() + w.size()));
}

}  // namespace trntensor
