// Pencil-decomposed 3-D FFTs against the single-process trnfft transform of the whole array (plan_dft,
// plan_dft_r2c, plan_dft_c2r; a different algorithm order, so within the normwise bound
// ‖ŷ − y‖₂ ≤ 8·u·log2(N)·‖y‖₂), on every P0 × P1 grid of 1–4 ranks (1×1, 1×2, 2×1, 1×3, 3×1, 2×2, 1×4, 4×1):
// uneven blocks, empty blocks (n < P), 1, primes, 128/129; forward, backward and the reverse layouts; r2c and
// c2r with odd and even n2; bad input → the same error on every rank.
#include <trnfft/mpi/pencil.hpp>

#include <trnfft/plan.hpp>
#include <trncore/mpi.hpp>

#include "fft_mpi_test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <vector>

using trncore::mpi::Communicator;
using trnfft::Direction;

namespace {

using fft_mpi_test::Dims;

using fft_mpi_test::assemble;
using fft_mpi_test::block;
using fft_mpi_test::cdata;
using fft_mpi_test::grids;
using fft_mpi_test::rel_err;

template <class T>
double bound(std::int64_t n) {
  return fft_mpi_test::normwise_bound<T>(n);
}

template <class T>
void check_c2c(const Communicator& comm, std::int64_t P0, std::int64_t P1, const Dims& d, Direction dir) {
  SCOPED_TRACE(std::to_string(P0) + "x" + std::to_string(P1) + " grid, " + std::to_string(d[0]) + "x" +
               std::to_string(d[1]) + "x" + std::to_string(d[2]));
  const auto N = d[0] * d[1] * d[2];
  const auto x = cdata<T>(N);
  std::vector<std::complex<T>> y(x.size());
  {
    auto xin = x;
    trnfft::plan_dft<T>(d, xin.data(), y.data(), dir).execute();
  }
  auto fwd = trnfft::mpi::plan_pencil_c2c<T>(comm, P0, P1, d, dir);
  const auto& L = fwd.layout();
  const auto xl = block(x, d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
  ASSERT_EQ(static_cast<std::int64_t>(xl.size()), L.input_size);
  std::vector<std::complex<T>> yl(static_cast<std::size_t>(L.output_size));
  fwd.execute(xl, yl);
  const auto yg = assemble(comm, yl, d, 0, d[0], L.out_1_start, L.out_n1, L.out_2_start, L.out_n2);
  EXPECT_LE(rel_err(yg, y), bound<T>(N));
  // The reverse plan of the other direction brings it back: N·x.
  auto back = trnfft::mpi::plan_pencil_c2c<T>(
      comm, P0, P1, d, dir == Direction::forward ? Direction::backward : Direction::forward, {}, true);
  ASSERT_EQ(back.layout().input_size, L.output_size);
  std::vector<std::complex<T>> xb(xl.size());
  back.execute(yl, xb);
  for (auto& v : xb) v /= static_cast<T>(N);
  EXPECT_LE(rel_err(xb, xl), 2 * bound<T>(N) + (xl.empty() ? 1.0 : 0.0));
}

template <class T>
void check_real(const Communicator& comm, std::int64_t P0, std::int64_t P1, const Dims& d) {
  SCOPED_TRACE(std::to_string(P0) + "x" + std::to_string(P1) + " grid, r2c/c2r " + std::to_string(d[0]) + "x" +
               std::to_string(d[1]) + "x" + std::to_string(d[2]));
  const auto N = d[0] * d[1] * d[2];
  Dims cd = d;
  cd[2] = d[2] / 2 + 1;
  const std::vector<T> x = fft_mpi_test::rdata<T>(N);
  std::vector<std::complex<T>> y(static_cast<std::size_t>(cd[0] * cd[1] * cd[2]));
  std::vector<T> z(x.size());
  {
    auto xin = x;
    trnfft::plan_dft_r2c<T>(d, xin.data(), y.data()).execute();
    auto yin = y;
    trnfft::plan_dft_c2r<T>(d, yin.data(), z.data()).execute();
  }
  auto r2c = trnfft::mpi::plan_pencil_r2c<T>(comm, P0, P1, d);
  const auto& L = r2c.layout();
  const auto xl = block(x, d, L.in_0_start, L.in_n0, L.in_1_start, L.in_n1, 0, d[2]);
  ASSERT_EQ(static_cast<std::int64_t>(xl.size()), L.input_size);
  std::vector<std::complex<T>> yl(static_cast<std::size_t>(L.output_size));
  r2c.execute(xl, yl);
  EXPECT_LE(rel_err(assemble(comm, yl, cd, 0, cd[0], L.out_1_start, L.out_n1, L.out_2_start, L.out_n2), y),
            bound<T>(N));
  auto c2r = trnfft::mpi::plan_pencil_c2r<T>(comm, P0, P1, d);
  const auto& M = c2r.layout();
  const auto yin = block(y, cd, 0, cd[0], M.out_1_start, M.out_n1, M.out_2_start, M.out_n2);
  ASSERT_EQ(static_cast<std::int64_t>(yin.size()), M.input_size);
  const auto keep = yin;
  std::vector<T> zl(static_cast<std::size_t>(M.output_size));
  c2r.execute(yin, zl);
  EXPECT_EQ(yin, keep);
  EXPECT_LE(rel_err(assemble(comm, zl, d, M.in_0_start, M.in_n0, M.in_1_start, M.in_n1, 0, d[2]), z), bound<T>(N));
}

TEST(Pencil, C2CEveryGrid) {
  const auto comm = Communicator::world();
  for (auto [P0, P1] : grids(comm.size()))
    for (const auto& d :
         {Dims{5, 4, 3}, Dims{2, 3, 7}, Dims{1, 1, 1}, Dims{7, 5, 11}, Dims{3, 129, 4}, Dims{9, 2, 128}})
      for (auto dir : {Direction::forward, Direction::backward}) check_c2c<double>(comm, P0, P1, d, dir);
}

TEST(Pencil, C2CFloat) {
  const auto comm = Communicator::world();
  for (auto [P0, P1] : grids(comm.size())) check_c2c<float>(comm, P0, P1, {6, 5, 17}, Direction::forward);
}

TEST(Pencil, R2CC2REveryGrid) {
  const auto comm = Communicator::world();
  for (auto [P0, P1] : grids(comm.size()))
    for (const auto& d : {Dims{5, 4, 6}, Dims{3, 7, 9}, Dims{2, 1, 1}, Dims{4, 6, 2}, Dims{5, 3, 129}})
      check_real<double>(comm, P0, P1, d);
  for (auto [P0, P1] : grids(comm.size())) check_real<float>(comm, P0, P1, {6, 5, 8});
}

TEST(PencilErrors, SameErrorOnEveryRank) {
  const auto comm = Communicator::world();
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<double>(comm, comm.size() + 1, 1, {4, 4, 4}, Direction::forward),
               trncore::InvalidArgument);
  EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<double>(comm, 1, comm.size(), {4, 4}, Direction::forward),
               trncore::InvalidArgument);
  if (comm.size() > 1) {
    const Dims d = comm.rank() == 1 ? Dims{4, 4, 5} : Dims{4, 4, 4};
    EXPECT_THROW(trnfft::mpi::plan_pencil_c2c<double>(comm, 1, comm.size(), d, Direction::forward),
                 trncore::DimensionMismatch);
  }
  auto plan = trnfft::mpi::plan_pencil_c2c<double>(comm, 1, comm.size(), {4, 6, 5}, Direction::forward);
  const auto& L = plan.layout();
  std::vector<std::complex<double>> in(static_cast<std::size_t>(L.input_size + (comm.rank() == 0 ? 2 : 0)));
  std::vector<std::complex<double>> out(static_cast<std::size_t>(L.output_size));
  EXPECT_THROW(plan.execute(in, out), trncore::DimensionMismatch);
  in.resize(static_cast<std::size_t>(L.input_size));
  std::vector<double> rin(static_cast<std::size_t>(L.input_size));
  EXPECT_THROW(plan.execute(std::span<const double>(rin), std::span<std::complex<double>>(out)),
               trncore::InvalidArgument);
  plan.execute(in, out);
}

}  // namespace
