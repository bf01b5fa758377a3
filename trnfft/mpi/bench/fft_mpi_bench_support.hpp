#pragma once
// What the trnfft_mpi benchmarks share: the slowest rank's time of a collective step, a time series' mean and
// best, FFTW-MPI's 1-D c2c as the peer, and the start-up order FFTW-MPI needs.

#include <trnfft/plan.hpp>
#include <trncore/mpi.hpp>

#include <fftw3-mpi.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace fft_mpi_bench {

/// Seconds `f` took on the slowest rank (a barrier first, so every rank starts together).
inline double slowest_seconds(const trncore::mpi::Communicator& comm, const std::function<void()>& f) {
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return comm.allreduce_max(mine);
}

/// The iterations' total and best time of one contender.
struct Timing {
  double total = 0;     ///< seconds over all iterations
  double best = 1e300;  ///< the fastest iteration (robust on a shared machine)
  void add(double seconds) {
    total += seconds;
    best = std::min(best, seconds);
  }
};

/// FFTW-MPI's forward 1-D c2c of n points (FFTW_ESTIMATE, one thread per rank) in its own distribution, the
/// input x[g] = value(g) for this rank's global indices g.
class FftwMpi1d {
 public:
  FftwMpi1d(const trncore::mpi::Communicator& comm, std::int64_t n,
            const std::function<std::complex<double>(std::int64_t)>& value) {
    ptrdiff_t ni = 0, si = 0, no = 0, so = 0;
    fftw_plan_with_nthreads(1);
    const auto alloc = fftw_mpi_local_size_1d(n, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE, &ni, &si, &no, &so);
    in_ = fftw_alloc_complex(static_cast<std::size_t>(alloc));
    out_ = fftw_alloc_complex(static_cast<std::size_t>(alloc));
    plan_ = fftw_mpi_plan_dft_1d(n, in_, out_, comm.native(), FFTW_FORWARD, FFTW_ESTIMATE);
    for (ptrdiff_t i = 0; i < ni; ++i) {
      const std::complex<double> v = value(si + i);
      in_[i][0] = v.real();
      in_[i][1] = v.imag();
    }
  }
  ~FftwMpi1d() {
    fftw_destroy_plan(plan_);
    fftw_free(in_);
    fftw_free(out_);
  }
  FftwMpi1d(const FftwMpi1d&) = delete;
  FftwMpi1d& operator=(const FftwMpi1d&) = delete;
  void execute() const { fftw_execute(plan_); }

 private:
  fftw_complex* in_ = nullptr;
  fftw_complex* out_ = nullptr;
  fftw_plan plan_ = nullptr;
};

/// fftw_mpi_init after FFTW's threads are initialised (trnfft's first plan calls fftw_init_threads, which must
/// precede fftw_mpi_init): call once in main, after MPI starts.
inline void init_fftw_mpi() {
  std::vector<std::complex<double>> a(4), b(4);
  trnfft::plan_dft_1d<double>(4, a.data(), b.data(), trnfft::Direction::forward);
  fftw_mpi_init();
}

}  // namespace fft_mpi_bench
