// The matrix-free Gaussian kernel operator: points allgathered once, entries formed on demand.
#include "kernel_entries.hpp"
#include "work.hpp"

#include <trncore/detail/format_number.hpp>

#include <bit>
#include <cmath>
#include <string>

namespace trnsolver::mpi {

namespace rd = randomized_detail;

template <class T>
GaussianKernel<T>::GaussianKernel(const trncore::mpi::ProcessGrid& grid, trncore::mpi::DistMatrix<const T> points,
                                  double bandwidth)
    : n_(points.desc.m), d_(points.desc.n), h_(bandwidth), desc_(points.desc) {
  namespace tm = trncore::mpi;
  const tm::Communicator& comm = grid.comm();
  tm::CollectiveCheck check(comm, "trnsolver::mpi::GaussianKernel");
  check.require(grid.cols() == 1, tm::ErrorKind::invalid_argument,
                "the grid is " + std::to_string(grid.rows()) + "x" + std::to_string(grid.cols()),
                "the points are distributed by rows: use a Px1 ProcessGrid");
  tm::check_descriptor(check, grid, points.desc, "points");
  check.require(std::isfinite(bandwidth) && bandwidth > 0.0, tm::ErrorKind::invalid_argument,
                "bandwidth = " + trncore::detail::sci(bandwidth), "pass a positive, finite bandwidth h");
  check.same("bandwidth (bits)", std::bit_cast<std::int64_t>(bandwidth));
  const bool usable = grid.cols() == 1 && points.desc.mb >= 1 && points.desc.nb >= 1 && points.desc.m >= 0 &&
                      points.desc.n >= 0 && points.desc.rsrc >= 0 && points.desc.rsrc < grid.rows();
  const std::int64_t local = usable ? tm::local_rows(points.desc, grid) : 0;
  check.require(local * d_ == 0 || points.data != nullptr, tm::ErrorKind::invalid_argument,
                "points.data is null for " + std::to_string(local) + " local rows", "pass the local array");
  if (!check.failed_locally() && local * d_ > 0 && points.desc.lld >= local)
    for (std::int64_t j = 0; j < d_ && !check.failed_locally(); ++j)
      for (std::int64_t i = 0; i < local; ++i)
        if (!std::isfinite(static_cast<double>(points.data[i + j * points.desc.lld]))) {
          check.require(false, tm::ErrorKind::invalid_argument,
                        "point " + std::to_string(tm::local_to_global_row(i, points.desc, grid)) + " has coordinate " +
                            std::to_string(j) + " = " +
                            trncore::detail::sci(static_cast<double>(points.data[i + j * points.desc.lld])),
                        "pass finite coordinates");
          break;
        }
  check.finish();
  const rd::UserRows user{points.desc.mb, points.desc.rsrc, points.desc.lld, grid.rows()};
  // Allgather the points: each rank sends its rows (row-major, d values each) in ascending global order.
  std::vector<double> mine;
  mine.reserve(static_cast<std::size_t>(local * d_));
  for (std::int64_t i = 0; i < n_; ++i)
    if (user.owner(i) == grid.row())
      for (std::int64_t j = 0; j < d_; ++j)
        mine.push_back(static_cast<double>(points.data[user.local(i) + j * points.desc.lld]));
  const std::vector<double> got = comm.allgatherv<double>(std::span<const double>(mine));
  all_.resize(static_cast<std::size_t>(n_ * d_));
  std::vector<std::int64_t> at(static_cast<std::size_t>(grid.rows()), 0);
  for (int r = 1; r < grid.rows(); ++r)
    at[static_cast<std::size_t>(r)] =
        at[static_cast<std::size_t>(r) - 1] + tm::numroc(n_, points.desc.mb, r - 1, points.desc.rsrc, grid.rows()) * d_;
  for (std::int64_t i = 0; i < n_; ++i) {
    auto& from = at[static_cast<std::size_t>(user.owner(i))];
    for (std::int64_t j = 0; j < d_; ++j)
      all_[static_cast<std::size_t>(i * d_ + j)] = got[static_cast<std::size_t>(from++)];
  }
}

template <class T>
void GaussianKernel<T>::entries(std::int64_t r0, std::int64_t rows, std::int64_t c0, std::int64_t cols, T* out,
                                std::int64_t ld) const {
  if (r0 < 0 || c0 < 0 || rows < 0 || cols < 0 || r0 + rows > n_ || c0 + cols > n_ ||
      ld < std::max<std::int64_t>(rows, 1))
    throw trncore::InvalidArgument("trnsolver::mpi::GaussianKernel::entries",
                                   "rows [" + std::to_string(r0) + ", " + std::to_string(r0 + rows) + "), columns [" +
                                       std::to_string(c0) + ", " + std::to_string(c0 + cols) +
                                       "), ld = " + std::to_string(ld) + " for n = " + std::to_string(n_),
                                   "ask for a range inside [0, n) with ld >= rows");
  rd::kernel_entries<T>(all_.data(), d_, h_, r0, rows, c0, cols, out, ld);
}

template class GaussianKernel<float>;
template class GaussianKernel<double>;

}  // namespace trnsolver::mpi
