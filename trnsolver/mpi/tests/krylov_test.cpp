// The Krylov stack over distributed vectors. Oracle: the single-process solver on the same operator — with
// the block-aligned split (aligned_rows) every reduction is the single-process one, so iterates, residual
// histories and iteration counts must be bitwise equal for any rank count; other splits must converge to
// the same tolerance and be reproducible.
#include <trnsolver/mpi/krylov.hpp>

#include <trncore/mpi.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using trncore::mpi::Communicator;
using trnsolver::KrylovOptions;
using trnsolver::LinearOperator;

namespace {

// Row i of A·x for a tridiagonal A: c_i·x_i − (1 + e)·x_{i−1} − (1 − e)·x_{i+1}, c_i = 2.6 + 0.1·sin i: strictly
// diagonally dominant, so every method converges in a few dozen iterations. e = 0: SPD with its spectrum in
// [0.5, 4.7] (Gershgorin), cond ≤ 9.4; e = 0.3: nonsymmetric. The same expression, in the same order, for the
// serial and the distributed operator, so each row's value is the same bits wherever it is computed.
template <class T>
T row(std::int64_t i, std::int64_t n, double e, const T* x) {
  const T c = static_cast<T>(2.6 + 0.1 * std::sin(static_cast<double>(i)));
  T y = c * x[i];
  if (i > 0) y -= static_cast<T>(1 + e) * x[i - 1];
  if (i + 1 < n) y -= static_cast<T>(1 - e) * x[i + 1];
  return y;
}

template <class T>
LinearOperator<T> serial_operator(std::int64_t n, double e) {
  return LinearOperator<T>(n, [n, e](std::span<const T> x, std::span<T> y) {
    for (std::int64_t i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = row<T>(i, n, e, x.data());
  });
}

// This rank's rows [begin, begin + count); each product allgathers x (small test sizes) and computes its rows.
template <class T>
LinearOperator<T> distributed_operator(const Communicator& comm, std::int64_t n, std::int64_t begin, std::int64_t count,
                                       double e) {
  return LinearOperator<T>(count, [&comm, n, begin, count, e](std::span<const T> x, std::span<T> y) {
    const auto whole = comm.allgatherv(x);  // parts are contiguous in rank order
    for (std::int64_t i = 0; i < count; ++i) y[static_cast<std::size_t>(i)] = row<T>(begin + i, n, e, whole.data());
  });
}

template <class T>
std::vector<T> rhs(std::int64_t n) {
  std::vector<T> b(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    b[static_cast<std::size_t>(i)] = static_cast<T>(std::cos(0.37 * static_cast<double>(i)));
  return b;
}

enum class Method { cg, minres, gmres, bicgstab };

template <class T>
trnsolver::KrylovResult solve(Method m, const LinearOperator<T>& a, std::span<const T> b, std::span<T> x,
                              const KrylovOptions& options) {
  switch (m) {
    case Method::cg: return trnsolver::cg(a, b, x, options);
    case Method::minres: return trnsolver::minres(a, b, x, options);
    case Method::gmres: return trnsolver::gmres(a, b, x, options);
    case Method::bicgstab: return trnsolver::bicgstab(a, b, x, options);
  }
  return {};
}

struct Split {
  std::int64_t begin, count;
};

// Distributed solve of the n-row system on this split; returns the gathered x on every rank.
template <class T>
std::pair<trnsolver::KrylovResult, std::vector<T>> distributed_solve(const Communicator& comm, Method m, std::int64_t n,
                                                                     Split part, double e, KrylovOptions options) {
  const auto b_all = rhs<T>(n);
  const std::vector<T> b(b_all.begin() + part.begin, b_all.begin() + part.begin + part.count);
  std::vector<T> x(static_cast<std::size_t>(part.count), T(0));
  options.distributed = trnsolver::mpi::distributed_reduction(comm, n, part.begin, part.count);
  const auto a = distributed_operator<T>(comm, n, part.begin, part.count, e);
  const auto result = solve<T>(m, a, std::span<const T>(b), std::span<T>(x), options);
  return {result, comm.allgatherv(std::span<const T>(x))};
}

template <class T>
void expect_bitwise_serial(Method m, double e, std::int64_t n) {
  const auto comm = Communicator::world();
  KrylovOptions options;
  options.rtol = std::is_same_v<T, float> ? 1e-5 : 1e-10;
  const auto part = trnsolver::mpi::aligned_rows(n, comm.size(), comm.rank());
  const auto [dist, x] = distributed_solve<T>(comm, m, n, {part.begin, part.count}, e, options);

  const auto b = rhs<T>(n);
  std::vector<T> xs(static_cast<std::size_t>(n), T(0));
  const auto serial = solve<T>(m, serial_operator<T>(n, e), std::span<const T>(b), std::span<T>(xs), options);
  ASSERT_TRUE(serial.converged) << serial.detail;
  EXPECT_EQ(dist.converged, serial.converged);
  EXPECT_EQ(dist.iterations, serial.iterations);
  EXPECT_EQ(dist.restarts, serial.restarts);
  EXPECT_EQ(dist.residual_history, serial.residual_history) << "n " << n;
  EXPECT_EQ(dist.relative_residual, serial.relative_residual);
  EXPECT_EQ(dist.detail, serial.detail);
  ASSERT_EQ(x.size(), xs.size());
  for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i], xs[i]) << "x[" << i << "], n " << n;
}

}  // namespace

TEST(DistributedKrylov, AlignedSplitIsBitwiseTheSingleProcessSolve) {
  // n: one element, one partial block, one block, a block and one, several blocks with a ragged end.
  for (std::int64_t n : {1, 1000, 1024, 1025, 3000, 4099}) {
    expect_bitwise_serial<double>(Method::cg, 0.0, n);
    expect_bitwise_serial<double>(Method::minres, 0.0, n);
    expect_bitwise_serial<double>(Method::gmres, 0.3, n);
    expect_bitwise_serial<double>(Method::bicgstab, 0.3, n);
  }
  expect_bitwise_serial<float>(Method::cg, 0.0, 3000);
  expect_bitwise_serial<float>(Method::gmres, 0.3, 2049);
}

TEST(DistributedKrylov, AnySplitConvergesAndIsReproducible) {
  const auto comm = Communicator::world();
  const std::int64_t n = 2500;
  // Uneven, unaligned parts: rank r gets [n·r²/P², n·(r+1)²/P²).
  const auto p = static_cast<std::int64_t>(comm.size()), r = static_cast<std::int64_t>(comm.rank());
  const Split part{n * r * r / (p * p), n * (r + 1) * (r + 1) / (p * p) - n * r * r / (p * p)};
  KrylovOptions options;
  options.rtol = 1e-10;
  const auto [first, x1] = distributed_solve<double>(comm, Method::cg, n, part, 0.0, options);
  const auto [second, x2] = distributed_solve<double>(comm, Method::cg, n, part, 0.0, options);
  EXPECT_TRUE(first.converged) << first.detail;
  EXPECT_LE(first.relative_residual, 1e-10);
  EXPECT_EQ(x1, x2);  // the same split, the same bits
  // Against the single-process solution: both have relative residual <= 1e-10, so they differ by at most
  // 2·cond(A)·1e-10·‖x‖ with cond(A) <= 4.7/0.5 (Gershgorin: the spectrum lies in [0.5, 4.7]).
  const auto b = rhs<double>(n);
  std::vector<double> xs(static_cast<std::size_t>(n), 0.0);
  trnsolver::cg(serial_operator<double>(n, 0.0), std::span<const double>(b), std::span<double>(xs), options);
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    diff += (x1[i] - xs[i]) * (x1[i] - xs[i]);
    norm += xs[i] * xs[i];
  }
  EXPECT_LE(std::sqrt(diff), 2 * 9.4 * 1e-10 * std::sqrt(norm));
}

TEST(DistributedKrylov, BadInputOnOneRankFailsOnEveryRank) {
  const auto comm = Communicator::world();
  const std::int64_t n = 2100;
  const auto part = trnsolver::mpi::aligned_rows(n, comm.size(), comm.rank());
  auto b = rhs<double>(n);
  std::vector<double> local_b(b.begin() + part.begin, b.begin() + part.begin + part.count);
  std::vector<double> x(static_cast<std::size_t>(part.count), 0.0);
  KrylovOptions options;
  options.distributed = trnsolver::mpi::distributed_reduction(comm, n, part.begin, part.count);
  const auto a = distributed_operator<double>(comm, n, part.begin, part.count, 0.0);
  // A NaN in the last non-empty part's b.
  const int last = static_cast<int>(std::min<std::int64_t>(comm.size(), (n + 1023) / 1024)) - 1;
  if (comm.rank() == last) local_b.back() = std::numeric_limits<double>::quiet_NaN();
  try {
    trnsolver::cg(a, std::span<const double>(local_b), std::span<double>(x), options);
    ADD_FAILURE() << "no exception";
  } catch (const trncore::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("on rank " + std::to_string(last)), std::string::npos) << e.what();
  }
  // A different rtol on rank 0.
  if (comm.rank() == last) local_b.back() = 1.0;
  if (comm.size() > 1) {
    KrylovOptions other = options;
    if (comm.rank() == 0) other.rtol = 1e-6;
    EXPECT_THROW(trnsolver::gmres(a, std::span<const double>(local_b), std::span<double>(x), other),
                 trncore::DimensionMismatch);
  }
  // Parts that overlap: every rank claims [0, n).
  if (comm.size() > 1) {
    EXPECT_THROW(trnsolver::mpi::distributed_reduction(comm, n, 0, n), trncore::DimensionMismatch);
  }
  // Distributed vectors with a matrix argument, or in a solver that runs on one process: NotSupported.
  const std::vector<double> m(4, 1.0);
  EXPECT_THROW(trnsolver::cg(trncore::MatrixView<const double>(m.data(), 2, 2, 2),
                             std::span<const double>(local_b.data(), 0), std::span<double>(x.data(), 0), options),
               trncore::NotSupported);
  std::vector<double> v(static_cast<std::size_t>(part.count), 1.0);
  double lambda = 0;
  EXPECT_THROW(trnsolver::power_iteration(a, std::span<double>(v), lambda, options), trncore::NotSupported);
  EXPECT_EQ(comm.allreduce_max(1), 1);  // nobody is left waiting
}

TEST(DistributedKrylov, AlignedRowsTileInWholeBlocks) {
  for (std::int64_t n : {0, 1, 1023, 1024, 1025, 5000})
    for (int parts = 1; parts <= 5; ++parts) {
      std::int64_t next = 0;
      for (int p = 0; p < parts; ++p) {
        const auto r = trnsolver::mpi::aligned_rows(n, parts, p);
        EXPECT_EQ(r.begin, next);
        EXPECT_TRUE(r.count == 0 || r.begin % 1024 == 0);
        next = r.begin + r.count;
      }
      EXPECT_EQ(next, n);
    }
  EXPECT_THROW(trnsolver::mpi::aligned_rows(-1, 2, 0), trncore::InvalidArgument);
  EXPECT_THROW(trnsolver::mpi::aligned_rows(10, 2, 2), trncore::InvalidArgument);
}
