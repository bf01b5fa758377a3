// Distributed 1-D FFT, six-step form (fft1d.hpp).
#include <trnfft/mpi/fft1d.hpp>

#include <trncore/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace trnfft::mpi {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

namespace detail {

template <Real T>
struct Fft1dState {
  using C = std::complex<T>;
  Communicator comm;
  Fft1dLayout layout;
  Direction direction = Direction::forward;
  int ranks = 1;
  std::vector<Block> b0, b1;
  std::vector<int> sc, sd, rc, rd;  // A→B' (as the slab plan's, rest = 1)
  C2CPlan<T> columns;               // length n0 on B' (n0 × local_n1), in place
  C2CPlan<T> rows;                  // length n1 on A (local_n0 × n1), in place
  std::vector<C> twiddle;           // B' layout: ω_N^{±(local_1_start + jj)·k0}
  mutable std::vector<C> buf1, buf2;

  explicit Fft1dState(const Communicator& c) : comm(c.native()) {}
  static Fft1dPlan<T> wrap(std::unique_ptr<Fft1dState> s) { return Fft1dPlan<T>(std::move(s)); }

  std::int64_t ln0() const { return layout.input_rows; }
  std::int64_t ln1() const { return layout.output_rows; }

  void alltoall(const C* send, C* recv, bool a_to_b) const {
    const int code =
        MPI_Alltoallv(send, (a_to_b ? sc : rc).data(), (a_to_b ? sd : rd).data(), trncore::mpi::datatype<C>(), recv,
                      (a_to_b ? rc : sc).data(), (a_to_b ? rd : sd).data(), trncore::mpi::datatype<C>(), comm.native());
    if (code != MPI_SUCCESS)
      throw trncore::mpi::CommunicationError("trnfft::mpi::Fft1dPlan::execute",
                                             "MPI_Alltoallv failed with code " + std::to_string(code),
                                             "check the MPI installation and that every rank executes the plan");
  }
  void pack(const C* a, C* send) const {
    const auto n1 = layout.n1;
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b1[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      C* dst = send + sd[static_cast<std::size_t>(q)];
      for (std::int64_t i = 0; i < ln0(); ++i)
        std::memcpy(dst + i * bq.count, a + i * n1 + bq.start, static_cast<std::size_t>(bq.count) * sizeof(C));
    }
  }
  void unpack(const C* recv, C* a) const {
    const auto n1 = layout.n1;
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b1[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      const C* src = recv + sd[static_cast<std::size_t>(q)];
      for (std::int64_t i = 0; i < ln0(); ++i)
        std::memcpy(a + i * n1 + bq.start, src + i * bq.count, static_cast<std::size_t>(bq.count) * sizeof(C));
    }
  }

  void run(const C* in, C* out) const {
    C* w1 = buf1.data();
    C* w2 = buf2.data();
    const auto n0 = layout.n0, l1 = ln1();
    pack(in, w2);
    alltoall(w2, w1, true);  // w1: B' = n0 × local_n1, x[n1·j0 + j1] at (j0, j1 − start)
    if (l1 > 0) {
      columns.execute(w1, w1);
      const C* w = twiddle.data();
      for (std::int64_t i = 0; i < n0 * l1; ++i) w1[i] *= w[i];
    }
    alltoall(w1, w2, false);
    unpack(w2, w1);                       // w1: A = local_n0 × n1, (k0, j1)
    if (ln0() > 0) rows.execute(w1, w1);  // (k0, k1) = X[k0 + n0·k1]
    pack(w1, w2);
    alltoall(w2, w1, true);  // w1: n0 × local_n1, (k0, k1 − start)
    for (std::int64_t k1 = 0; k1 < l1; ++k1)
      for (std::int64_t k0 = 0; k0 < n0; ++k0) out[k1 * n0 + k0] = w1[k0 * l1 + k1];
  }
};

namespace {
std::int64_t default_n0(std::int64_t n) {
  std::int64_t best = 1;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) best = d;
  return best;
}
bool aligned16(const void* p) { return p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
}  // namespace

}  // namespace detail

template <Real T>
Fft1dPlan<T>::Fft1dPlan() noexcept = default;
template <Real T>
Fft1dPlan<T>::Fft1dPlan(Fft1dPlan&&) noexcept = default;
template <Real T>
Fft1dPlan<T>& Fft1dPlan<T>::operator=(Fft1dPlan&&) noexcept = default;
template <Real T>
Fft1dPlan<T>::~Fft1dPlan() = default;
template <Real T>
Fft1dPlan<T>::Fft1dPlan(std::unique_ptr<detail::Fft1dState<T>> state) noexcept : state_(std::move(state)) {}

template <Real T>
const Fft1dLayout& Fft1dPlan<T>::layout() const {
  if (!state_)
    throw trncore::InvalidArgument("trnfft::mpi::Fft1dPlan::layout", "the plan is empty",
                                   "make it with trnfft::mpi::plan_dft_1d");
  return state_->layout;
}

template <Real T>
void Fft1dPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  constexpr const char* f = "trnfft::mpi::Fft1dPlan::execute";
  if (!state_) throw trncore::InvalidArgument(f, "the plan is empty", "make it with trnfft::mpi::plan_dft_1d");
  const auto& s = *state_;
  CollectiveCheck check(s.comm, f);
  const auto ni = static_cast<std::int64_t>(in.size()), no = static_cast<std::int64_t>(out.size());
  check.require(
      ni == s.layout.input_size, ErrorKind::dimension_mismatch,
      "input span holds " + std::to_string(ni) + " points, this rank's block is " + std::to_string(s.layout.input_size),
      "size the input as layout().input_size");
  check.require(no == s.layout.output_size, ErrorKind::dimension_mismatch,
                "output span holds " + std::to_string(no) + " points, this rank's block is " +
                    std::to_string(s.layout.output_size),
                "size the output as layout().output_size");
  check.require(detail::aligned16(in.data()) && detail::aligned16(out.data()), ErrorKind::invalid_argument,
                "input or output is not 16-byte aligned", "allocate with std::vector or fftw_malloc");
  const bool overlap = ni > 0 && no > 0 && in.data() < out.data() + no && out.data() < in.data() + ni;
  check.require(!overlap, ErrorKind::invalid_argument, "input and output overlap", "pass distinct arrays");
  check.finish();
  s.run(in.data(), out.data());
}

template <Real T>
Fft1dPlan<T> plan_dft_1d(const Communicator& comm, std::int64_t n, Direction direction, const PlanOptions& options,
                         std::int64_t n0) {
  using C = std::complex<T>;
  constexpr const char* f = "trnfft::mpi::plan_dft_1d";
  CollectiveCheck check(comm, f);
  check.same("n", n);
  check.same("n0", n0);
  check.same("direction", static_cast<std::int64_t>(direction));
  check.require(n >= 1, ErrorKind::invalid_argument, "n = " + std::to_string(n), "pass n ≥ 1");
  check.require(n0 == 0 || (n0 >= 1 && n >= 1 && n % n0 == 0), ErrorKind::invalid_argument,
                "n0 = " + std::to_string(n0) + " does not divide n = " + std::to_string(n),
                "pass a divisor of n, or 0 for the default (the largest divisor ≤ √n)");
  check.require(direction == Direction::forward || direction == Direction::backward, ErrorKind::invalid_argument,
                "invalid direction " + std::to_string(static_cast<int>(direction)), "pass forward or backward");
  check.require(options.backend == trncore::Backend::host, ErrorKind::not_supported,
                "backend sim: the distributed FFT runs host (FFTW) local transforms only in this version",
                "use backend host");
  check.capture([&] { trncore::validate(options, f); });
  auto state = std::make_unique<detail::Fft1dState<T>>(comm);
  auto& s = *state;
  if (!check.failed_locally()) {
    s.direction = direction;
    s.ranks = comm.size();
    auto& L = s.layout;
    L.n = n;
    L.n0 = n0 == 0 ? detail::default_n0(n) : n0;
    L.n1 = n / L.n0;
    for (int r = 0; r < s.ranks; ++r) {
      s.b0.push_back(block_of(L.n0, s.ranks, r));
      s.b1.push_back(block_of(L.n1, s.ranks, r));
    }
    const auto me = static_cast<std::size_t>(comm.rank());
    L.input_start = s.b0[me].start;
    L.input_rows = s.b0[me].count;
    L.output_start = s.b1[me].start;
    L.output_rows = s.b1[me].count;
    L.input_size = L.input_rows * L.n1;
    L.output_size = L.output_rows * L.n0;
    std::int64_t sdisp = 0, rdisp = 0;
    bool fits = true;
    for (int q = 0; q < s.ranks; ++q) {
      const auto a = L.input_rows * s.b1[static_cast<std::size_t>(q)].count;
      const auto b = s.b0[static_cast<std::size_t>(q)].count * L.output_rows;
      if (sdisp + a > std::numeric_limits<int>::max() || rdisp + b > std::numeric_limits<int>::max()) fits = false;
      s.sc.push_back(static_cast<int>(a));
      s.sd.push_back(static_cast<int>(sdisp));
      s.rc.push_back(static_cast<int>(b));
      s.rd.push_back(static_cast<int>(rdisp));
      sdisp += a;
      rdisp += b;
    }
    check.require(
        fits, ErrorKind::not_supported,
        "this rank's all-to-all exchange exceeds 2^31 − 1 points (" + std::to_string(std::max(sdisp, rdisp)) + ")",
        "use more ranks");
  }
  check.finish();

  auto& L = s.layout;
  const auto l0 = L.input_rows, l1 = L.output_rows;
  const auto words = static_cast<std::size_t>(std::max<std::int64_t>({l0 * L.n1, L.n0 * l1, 1}));
  s.buf1.assign(words, C{});
  s.buf2.assign(words, C{});
  // Twiddles ω_N^{±m}, m = j1·k0 < N reduced to |m| ≤ N/2, in long double, rounded once to T.
  s.twiddle.resize(static_cast<std::size_t>(L.n0 * l1));
  const long double two_pi = 6.283185307179586476925286766559005768L;
  const long double sign = direction == Direction::forward ? -1.0L : 1.0L;
  for (std::int64_t k0 = 0; k0 < L.n0; ++k0)
    for (std::int64_t jj = 0; jj < l1; ++jj) {
      std::int64_t m = (L.output_start + jj) * k0;  // < N
      if (2 * m > L.n) m -= L.n;
      const long double angle = sign * two_pi * static_cast<long double>(m) / static_cast<long double>(L.n);
      s.twiddle[static_cast<std::size_t>(k0 * l1 + jj)] =
          C(static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle)));
    }
  CollectiveCheck planned(comm, f);
  planned.capture([&] {
    if (l1 > 0)
      s.columns =
          plan_guru_dft<T>({IoDim{L.n0, l1, l1}}, {IoDim{l1, 1, 1}}, s.buf1.data(), s.buf1.data(), direction, options);
    if (l0 > 0)
      s.rows = plan_many_dft<T>({L.n1}, l0, s.buf1.data(), {}, 1, L.n1, s.buf1.data(), {}, 1, L.n1, direction, options);
  });
  planned.finish();
  return detail::Fft1dState<T>::wrap(std::move(state));
}

template class Fft1dPlan<float>;
template class Fft1dPlan<double>;
template Fft1dPlan<float> plan_dft_1d<float>(const Communicator&, std::int64_t, Direction, const PlanOptions&,
                                             std::int64_t);
template Fft1dPlan<double> plan_dft_1d<double>(const Communicator&, std::int64_t, Direction, const PlanOptions&,
                                               std::int64_t);

}  // namespace trnfft::mpi
