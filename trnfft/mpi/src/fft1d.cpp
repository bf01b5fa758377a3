// Distributed 1-D FFTs (fft1d.hpp): the six-step c2c core and the r2c/c2r split around it.
#include <trnfft/mpi/fft1d.hpp>

#include "composed_report.hpp"
#include "plan_support.hpp"

#include <trncore/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <utility>

namespace trnfft::mpi {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

namespace detail {

namespace {

// The complex product as written (4 products, 2 sums, each rounded: -ffp-contract=off): within √5·u·|a·b|
// (Brent, Percival, Zimmermann 2007).
template <Real T>
std::complex<T> cmul(std::complex<T> a, std::complex<T> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// ω_N^{sign·m} for |m| ≤ N/2, in long double (|error| ≤ a few 2^−64 per component), rounded once to T.
template <Real T>
std::complex<T> root(std::int64_t m, std::int64_t n, int sign) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  const long double angle =
      static_cast<long double>(sign) * two_pi * static_cast<long double>(m) / static_cast<long double>(n);
  return {static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle))};
}

// Roundings of the host arithmetic between the local transforms (fft1d.hpp, "Accuracy"):
// - the twiddle: |ŵ − w| ≤ u_w·|w|, u_w = u + 2^−61 (each component of the long double value is within
//   2^−63 of the exact one, then rounded to T within u relative; √2·2^−63 < 2^−61 on |w| = 1);
//   |fl(a·ŵ) − a·ŵ| ≤ √5·u·|a||ŵ| (Brent, Percival, Zimmermann, "Error bounds on complex floating-point
//   multiplication", Math. Comp. 76 (2007) 1469–1481, the product computed as written, without FMA);
//   so |fl(a·ŵ) − a·w| ≤ (u_w + √5·u·(1 + u_w))·|a| = τ·|a|, normwise over a vector as well.
template <Real T>
double tau() {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  const double uw = u + std::ldexp(1.0, -61);
  return uw + std::sqrt(5.0) * u * (1.0 + uw);
}
// - the split step (r2c): with A = |Z[k]| + |Z[M−k]|, s = fl(Z[k] + conj Z[M−k]) and d = fl(Z[k] − conj Z[M−k])
//   err by ≤ u·A each, t = fl(d̂·ŵ) by ≤ u·A + τ(1 + u)·A, and the final sums (the ½ is exact) by
//   u·|½(ŝ − i·t̂)| ≤ u(1 + u)²(1 + τ)·A; in all ½(2u + τ(1 + u))·A + u(1 + u)²(1 + τ)·A ≤ c_p·A with
//   c_p = 3u + τ (the higher-order terms are below the slack u − τu/2 − …). Σ_k A² over k = 0…M is at most
//   8‖Z‖² and ‖Z‖ = √M‖x‖ ≤ ‖X_half‖, the exact split maps an error e in Z to at most √8‖e‖, so
//   δ_r2c = 2√2·(δ_c + c_p·(1 + δ_c)) relative to the half spectrum — docs/trnfft.md item 7, with our τ.
//   c2r: Z'[k] errs by ≤ 2c_p(|X[k]| + |X[M−k]|), ‖ΔZ'‖ ≤ 2√2·c_p·‖Z'‖ (‖Z'‖ = √(2N)‖x‖, ‖X_half‖ ≤ √N‖x‖),
//   δ_c2r = 2√2·c_p + δ_c·(1 + 2√2·c_p).
template <Real T>
double split_cp() {
  return 3.0 * (std::numeric_limits<T>::epsilon() / 2) + tau<T>();
}

}  // namespace

// The M-point six-step c2c core (fft1d.hpp): input blocks of n1-point rows (block_of(n0)), output blocks of
// n0-point rows (block_of(n1)). Local stages: 0 = columns (length n0), 1 = rows (length n1).
template <Real T>
struct SixStep {
  using C = std::complex<T>;
  MPI_Comm comm = MPI_COMM_NULL;  // the owning state's duplicate
  int ranks = 1;
  std::int64_t n = 0, n0 = 1, n1 = 1;
  Direction direction = Direction::forward;
  std::vector<Block> b0, b1;
  Block in, out;                    // this rank's rows
  std::vector<int> sc, sd, rc, rd;  // A→B' counts/displacements (points)
  C2CPlan<T> columns;               // length n0 on l1 × n0 (buf2), in place
  C2CPlan<T> rows;                  // length n1 on l0 × n1 (buf1), in place
  std::vector<C> twiddle;           // l1 × n0: ω_N^{±(out.start + jj)·k0} at jj·n0 + k0
  mutable std::vector<C> buf1, buf2;

  // Layout and counts; false when an exchange exceeds int counts.
  bool setup(int nranks, int rank, std::int64_t length, std::int64_t rows0, Direction dir) {
    ranks = nranks;
    n = length;
    n0 = rows0;
    n1 = n / n0;
    direction = dir;
    for (int r = 0; r < ranks; ++r) {
      b0.push_back(block_of(n0, ranks, r));
      b1.push_back(block_of(n1, ranks, r));
    }
    in = b0[static_cast<std::size_t>(rank)];
    out = b1[static_cast<std::size_t>(rank)];
    std::int64_t s = 0, r = 0;
    bool fits = true;
    for (int q = 0; q < ranks; ++q) {
      const auto a = in.count * b1[static_cast<std::size_t>(q)].count;
      const auto b = b0[static_cast<std::size_t>(q)].count * out.count;
      if (s + a > std::numeric_limits<int>::max() || r + b > std::numeric_limits<int>::max()) fits = false;
      sc.push_back(static_cast<int>(a));
      sd.push_back(static_cast<int>(s));
      rc.push_back(static_cast<int>(b));
      rd.push_back(static_cast<int>(r));
      s += a;
      r += b;
    }
    return fits;
  }

  // Buffers, twiddles (no communication) and the local plans (may throw; the caller captures).
  void allocate() {
    const auto l0 = in.count, l1 = out.count;
    const auto words = static_cast<std::size_t>(std::max<std::int64_t>({l0 * n1, n0 * l1, 1}));
    buf1.assign(words, C{});
    buf2.assign(words, C{});
    // ω_N^{±m}, m = j1·k0 < N reduced exactly to |m| ≤ N/2.
    twiddle.resize(static_cast<std::size_t>(n0 * l1));
    const int sign = direction == Direction::forward ? -1 : 1;
    for (std::int64_t k0 = 0; k0 < n0; ++k0)
      for (std::int64_t jj = 0; jj < l1; ++jj) {
        std::int64_t m = (out.start + jj) * k0;
        if (2 * m > n) m -= n;
        twiddle[static_cast<std::size_t>(jj * n0 + k0)] = root<T>(m, n, sign);
      }
  }
  void make_plans(const PlanOptions& po) {
    const auto l0 = in.count, l1 = out.count;
    // Both stages contiguous and in place after a tiled local transpose (FFTW's strided transforms of this shape
    // were 2–10× slower than transpose + contiguous transform at 2^20–2^22).
    if (l1 > 0) columns = plan_many_dft<T>({n0}, l1, buf2.data(), {}, 1, n0, buf2.data(), {}, 1, n0, direction, po);
    if (l0 > 0) rows = plan_many_dft<T>({n1}, l0, buf1.data(), {}, 1, n1, buf1.data(), {}, 1, n1, direction, po);
  }

  void alltoall(const C* send, C* recv, bool a_to_b) const {
    const int code =
        MPI_Alltoallv(send, (a_to_b ? sc : rc).data(), (a_to_b ? sd : rd).data(), trncore::mpi::datatype<C>(), recv,
                      (a_to_b ? rc : sc).data(), (a_to_b ? rd : sd).data(), trncore::mpi::datatype<C>(), comm);
    if (code != MPI_SUCCESS)
      throw trncore::mpi::CommunicationError("trnfft::mpi::Fft1dPlan::execute",
                                             "MPI_Alltoallv failed with code " + std::to_string(code),
                                             "check the MPI installation and that every rank executes the plan");
  }
  void pack(const C* a, C* send) const {
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b1[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      C* dst = send + sd[static_cast<std::size_t>(q)];
      for (std::int64_t i = 0; i < in.count; ++i)
        std::memcpy(dst + i * bq.count, a + i * n1 + bq.start, static_cast<std::size_t>(bq.count) * sizeof(C));
    }
  }
  // B (l1 × n0, (j, k0)) times the twiddles → send buffer ordered by destination: [q][j][k0 in b0[q]] (one pass).
  void pack_b(const C* b, C* send) const {
    const C* w = twiddle.data();
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b0[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      C* dst = send + rd[static_cast<std::size_t>(q)];
      for (std::int64_t j = 0; j < out.count; ++j) {
        const auto off = j * n0 + bq.start;
        for (std::int64_t k = 0; k < bq.count; ++k) dst[j * bq.count + k] = cmul(b[off + k], w[off + k]);
      }
    }
  }

  // dst (cols × rows) = the transpose of src (rows × cols), in 32 × 32 tiles.
  static void transpose(const C* src, C* dst, std::int64_t rows, std::int64_t cols) {
    constexpr std::int64_t tile = 32;
    for (std::int64_t a = 0; a < cols; a += tile)
      for (std::int64_t b = 0; b < rows; b += tile) {
        const auto ae = std::min(cols, a + tile), be = std::min(rows, b + tile);
        for (std::int64_t c = a; c < ae; ++c)
          for (std::int64_t r = b; r < be; ++r) dst[c * rows + r] = src[r * cols + c];
      }
  }

  // in: in.count·n1 points; out: n0·out.count points.
  void run(const C* x, C* y, StageLog* log) const {
    C* w1 = buf1.data();
    C* w2 = buf2.data();
    const auto l0 = in.count, l1 = out.count;
    pack(x, w2);
    alltoall(w2, w1, true);  // w1: n0 × l1, x[n1·j0 + j1] at (j0, j1 − out.start)
    if (l1 > 0) {
      transpose(w1, w2, n0, l1);                                  // w2: l1 × n0
      run_stage(columns, 0, log, static_cast<const C*>(w2), w2);  // (j1 − out.start, k0)
    }
    pack_b(w2, w1);
    alltoall(w1, w2, false);  // w2: n1 × l0, (j1, k0 − in.start)
    if (l0 > 0) {
      transpose(w2, w1, n1, l0);                               // w1: l0 × n1
      run_stage(rows, 1, log, static_cast<const C*>(w1), w1);  // (k0, k1)
    }
    pack(w1, w2);
    alltoall(w2, w1, true);    // w1: n0 × l1, (k0, k1 − out.start)
    transpose(w1, y, n0, l1);  // y: l1 × n0 = X[n0·out.start …] in natural order
  }
};

template <Real T>
struct Fft1dState {
  using C = std::complex<T>;
  Communicator comm;
  Kind kind = Kind::c2c;
  Direction direction = Direction::forward;
  Fft1dLayout layout;
  SixStep<T> core;
  bool sim = false;
  std::optional<double> target;

  // r2c/c2r: the spectrum blocks (k ∈ [spec_start, spec_start + spec_count), the Nyquist rank's count
  // includes X[M]), the mirror exchange (points), the split twiddles ω_N^{∓k} of this rank's k.
  std::int64_t m = 0;  // M = N/2
  std::int64_t spec_start = 0, spec_count = 0, zcount = 0;
  std::vector<int> msc, msd, mrc, mrd;
  std::vector<std::int64_t> send_index;  // local source index of every point sent, in send order
  std::vector<std::int64_t> recv_index;  // position in the receive buffer of the mirror of each local k
  std::vector<C> split_w;
  mutable std::vector<C> zbuf, msend, mrecv, mirror;

  explicit Fft1dState(const Communicator& c) : comm(c.native()) {}
  static Fft1dPlan<T> wrap(std::unique_ptr<Fft1dState> s) { return Fft1dPlan<T>(std::move(s)); }

  // The mirror exchange, planned once. Every rank q needs, for each k of its list (ascending), the source
  // point f(k) = M − k (c2r: source X[0…M]) or (M − k) mod M (r2c: source Z[0…M−1]); sources live in the
  // spectrum blocks (X[M] on the Nyquist rank). Sender and receiver walk q's list in the same order.
  bool plan_mirror(const std::vector<Block>& blocks, std::int64_t row) {
    const int P = comm.size(), me = comm.rank();
    const auto bsize = blocks[0].count;  // ceil(rows / P) ≥ 1
    int nyq = 0;
    for (int q = 0; q < P; ++q)
      if (blocks[static_cast<std::size_t>(q)].count > 0) nyq = q;
    const bool r2c = kind == Kind::r2c;
    auto owner = [&](std::int64_t i) { return i == m ? nyq : static_cast<int>((i / row) / bsize); };
    auto source = [&](std::int64_t k) { return r2c ? (m - k) % m : m - k; };
    auto list = [&](int q) {  // [first, end) of q's k
      const auto& b = blocks[static_cast<std::size_t>(q)];
      return std::pair<std::int64_t, std::int64_t>{row * b.start,
                                                   row * (b.start + b.count) + (r2c && q == nyq ? 1 : 0)};
    };
    const std::int64_t my_lo = row * blocks[static_cast<std::size_t>(me)].start;
    msc.assign(static_cast<std::size_t>(P), 0);
    mrc.assign(static_cast<std::size_t>(P), 0);
    std::vector<std::int64_t> sent(static_cast<std::size_t>(P), 0), got(static_cast<std::size_t>(P), 0);
    for (int q = 0; q < P; ++q) {
      const auto [a, b] = list(q);
      for (std::int64_t k = a; k < b; ++k) {
        const auto i = source(k);
        if (owner(i) == me) {
          send_index.push_back(i - my_lo);
          ++sent[static_cast<std::size_t>(q)];
        }
      }
    }
    const auto [a, b] = list(me);
    std::vector<int> from;
    for (std::int64_t k = a; k < b; ++k) {
      const int q = owner(source(k));
      from.push_back(q);
      recv_index.push_back(got[static_cast<std::size_t>(q)]++);
    }
    std::int64_t s = 0, r = 0;
    bool fits = true;
    for (int q = 0; q < P; ++q) {
      const auto sq = sent[static_cast<std::size_t>(q)], rq = got[static_cast<std::size_t>(q)];
      if (s + sq > std::numeric_limits<int>::max() || r + rq > std::numeric_limits<int>::max()) fits = false;
      msc[static_cast<std::size_t>(q)] = static_cast<int>(sq);
      mrc[static_cast<std::size_t>(q)] = static_cast<int>(rq);
      msd.push_back(static_cast<int>(s));
      mrd.push_back(static_cast<int>(r));
      s += sq;
      r += rq;
    }
    for (std::size_t i = 0; i < recv_index.size(); ++i) recv_index[i] += mrd[static_cast<std::size_t>(from[i])];
    msend.assign(std::max<std::size_t>(send_index.size(), 1), C{});
    mrecv.assign(std::max<std::size_t>(recv_index.size(), 1), C{});
    mirror.assign(std::max<std::size_t>(recv_index.size(), 1), C{});
    return fits;
  }

  void exchange_mirror(const C* src) const {
    for (std::size_t i = 0; i < send_index.size(); ++i) msend[i] = src[send_index[i]];
    const int code = MPI_Alltoallv(msend.data(), msc.data(), msd.data(), trncore::mpi::datatype<C>(), mrecv.data(),
                                   mrc.data(), mrd.data(), trncore::mpi::datatype<C>(), comm.native());
    if (code != MPI_SUCCESS)
      throw trncore::mpi::CommunicationError("trnfft::mpi::Fft1dPlan::execute",
                                             "MPI_Alltoallv (mirror exchange) failed with code " + std::to_string(code),
                                             "check the MPI installation and that every rank executes the plan");
    for (std::size_t i = 0; i < recv_index.size(); ++i) mirror[i] = mrecv[static_cast<std::size_t>(recv_index[i])];
  }

  void run(const void* in, void* out, StageLog* log) const {
    if (kind == Kind::c2c) {
      core.run(static_cast<const C*>(in), static_cast<C*>(out), log);
      return;
    }
    const T half = T(0.5);
    if (kind == Kind::r2c) {
      // z[j] = x[2j] + i·x[2j+1]: std::complex<T> is layout-compatible with T[2] ([complex.numbers]).
      core.run(reinterpret_cast<const C*>(in), zbuf.data(), log);
      exchange_mirror(zbuf.data());
      C* X = static_cast<C*>(out);
      for (std::int64_t i = 0; i < spec_count; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        const C zk = i < zcount ? zbuf[ui] : mirror[ui];  // k = M: Z[M] = Z[0], the mirror's source too
        const C zc = std::conj(mirror[ui]);
        const C s = zk + zc, d = zk - zc;
        const C t = cmul(d, split_w[ui]);
        X[i] = C(half * (s.real() + t.imag()), half * (s.imag() - t.real()));  // ½(s − i·t)
      }
      return;
    }
    // c2r: the self-conjugate X[0] and X[M] enter with their real parts only (as FFTW, numpy).
    const C* X = static_cast<const C*>(in);
    exchange_mirror(X);
    for (std::int64_t i = 0; i < zcount; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      const bool k0 = spec_start + i == 0;
      const C xk = k0 ? C(X[0].real(), 0) : X[i];
      const C xm = k0 ? C(mirror[ui].real(), 0) : mirror[ui];
      const C s = xk + std::conj(xm), d = xk - std::conj(xm);
      const C t = cmul(d, split_w[ui]);
      zbuf[ui] = C(s.real() - t.imag(), s.imag() + t.real());  // s + i·t
    }
    core.run(zbuf.data(), static_cast<C*>(out), log);
  }

  // The composed report (fft1d.hpp, "Accuracy"); collective.
  trncore::AccuracyReport compose(const StageLog& log) const {
    const auto mx = stage_maxima(comm, log);
    const double dc = compose_product({mx[0], tau<T>(), mx[1]});
    const double cp = split_cp<T>(), s8 = 2.0 * std::numbers::sqrt2;
    const double bound = kind == Kind::c2c   ? dc
                         : kind == Kind::r2c ? s8 * (dc + cp * (1.0 + dc))
                                             : s8 * cp + dc * (1.0 + s8 * cp);
    const std::string what = kind == Kind::c2c ? "" : " (the M = N/2-point core)";
    return composed_report(
        comm, log, bound, target,
        "trnfft::mpi 1-D " + std::string(to_string(kind)) + " N = " + std::to_string(layout.n) + " over " +
            std::to_string(core.ranks) + " ranks, six-step " + std::to_string(core.n0) + " × " +
            std::to_string(core.n1) + ": local stages on the sim backend, twiddles and " +
            (kind == Kind::c2c ? "" : "the split step ") + "in host " + (sizeof(T) == 4 ? "fp32" : "fp64") +
            " arithmetic, data movement by MPI_Alltoallv (exact)",
        {{0, "columns" + what + ": "}, {1, "rows" + what + ": "}},
        "trnfft::mpi 1-D: each stage's bound is the maximum over ranks of the local plans' certified bounds; "
        "1 + δ_c = (1 + δ_columns)(1 + τ)(1 + δ_rows), τ = u_w + √5·u(1 + u_w) (Brent, Percival, Zimmermann, "
        "Math. Comp. 76 (2007)); r2c 2√2(δ_c + c_p(1 + δ_c)), c2r 2√2·c_p + δ_c(1 + 2√2·c_p), c_p = 3u + τ "
        "(docs/trnfft.md, 'The bound and how it composes', items 3, 4, 7)");
  }
};

namespace {

template <Real T>
Fft1dPlan<T> make(const char* f, const Communicator& comm, Kind kind, std::int64_t n, Direction direction,
                  const PlanOptions& options, std::int64_t n0) {
  using C = std::complex<T>;
  CollectiveCheck check(comm, f);
  check.same("n", n);
  check.same("n0", n0);
  check.same("direction", static_cast<std::int64_t>(direction));
  const bool real = kind != Kind::c2c;
  check.require(n >= (real ? 2 : 1), ErrorKind::invalid_argument, "n = " + std::to_string(n),
                real ? "pass an even n ≥ 2" : "pass n ≥ 1");
  check.require(!real || n < 1 || n % 2 == 0, ErrorKind::not_supported,
                "odd n = " + std::to_string(n) + ": the distributed r2c/c2r packs the n reals as n/2 complex points",
                "pad to an even length, or use plan_dft_1d on the real data as complex");
  const std::int64_t len = real ? n / 2 : n;  // the c2c core's length
  check.require(n0 == 0 || (n0 >= 1 && len >= 1 && len % n0 == 0), ErrorKind::invalid_argument,
                "n0 = " + std::to_string(n0) + " does not divide " + (real ? "n/2 = " : "n = ") + std::to_string(len),
                "pass a divisor, or 0 for the default (the largest divisor ≤ its square root)");
  check.require(direction == Direction::forward || direction == Direction::backward, ErrorKind::invalid_argument,
                "invalid direction " + std::to_string(static_cast<int>(direction)), "pass forward or backward");
  check_plan_options(check, options, f);  // backend, mode, refine, target the same on every rank; valid

  // Per-stage targets: the composition (compose()) must stay within the caller's t.
  PlanOptions po = options;
  po.preserve_input = false;
  const bool sim = options.backend == trncore::Backend::sim;
  if (sim && options.target_forward_error && !check.failed_locally()) {
    const double t = *options.target_forward_error, cp = split_cp<T>(), s8 = 2.0 * std::numbers::sqrt2;
    const double tc = kind == Kind::c2c   ? t
                      : kind == Kind::r2c ? (t / s8 - cp) / (1.0 + cp)
                                          : (t - s8 * cp) / (1.0 + s8 * cp);
    const double ts = tc > 0 ? stage_target((1.0 + tc) / (1.0 + tau<T>()) - 1.0, 2) : -1.0;
    check.require(ts > 0, ErrorKind::target_not_met,
                  "target_forward_error " + std::to_string(t) +
                      " is below what the twiddle and split-step roundings of this precision allow",
                  "ask for a looser target, or use double");
    if (ts > 0) po.target_forward_error = ts;
  }

  auto state = std::make_unique<Fft1dState<T>>(comm);
  auto& s = *state;
  if (!check.failed_locally()) {
    s.kind = kind;
    s.direction = direction;
    s.sim = sim;
    s.target = options.target_forward_error;
    const std::int64_t rows0 = n0 == 0 ? default_n0(len) : n0;
    // c2r runs the backward core factorised n1 × n0, mapping the spectrum's blocks onto the reals' blocks.
    const bool fits = kind == Kind::c2r ? s.core.setup(comm.size(), comm.rank(), len, len / rows0, Direction::backward)
                                        : s.core.setup(comm.size(), comm.rank(), len, rows0, direction);
    check.require(fits, ErrorKind::not_supported, "this rank's all-to-all exchange exceeds 2^31 − 1 points",
                  "use more ranks");
    auto& L = s.layout;
    L.n = n;
    L.n0 = rows0;
    L.n1 = len / rows0;
    L.input_start = s.core.in.start;
    L.input_rows = s.core.in.count;
    L.output_start = s.core.out.start;
    L.output_rows = s.core.out.count;
    const auto& cr = s.core;
    if (kind == Kind::c2c) {
      L.input_size = cr.in.count * cr.n1;
      L.input_offset = cr.in.start * cr.n1;
      L.output_size = cr.out.count * cr.n0;
      L.output_offset = cr.out.start * cr.n0;
    } else {
      s.m = len;
      // The spectrum side: r2c's output rows = the core's output rows; c2r's input rows = its core's input rows.
      const Block spec = kind == Kind::r2c ? cr.out : cr.in;
      const std::int64_t row = kind == Kind::r2c ? cr.n0 : cr.n1;  // = L.n0 both
      s.spec_start = row * spec.start;
      s.zcount = row * spec.count;
      L.nyquist = spec.count > 0 && spec.start + spec.count == len / row;
      s.spec_count = s.zcount + (L.nyquist ? 1 : 0);
      const Block reals = kind == Kind::r2c ? cr.in : cr.out;
      const std::int64_t rlen = kind == Kind::r2c ? cr.n1 : cr.n0;  // = L.n1 both
      if (kind == Kind::r2c) {
        L.input_size = 2 * rlen * reals.count;
        L.input_offset = 2 * rlen * reals.start;
        L.output_size = s.spec_count;
        L.output_offset = s.spec_start;
      } else {
        L.input_size = s.spec_count;
        L.input_offset = s.spec_start;
        L.output_size = 2 * rlen * reals.count;
        L.output_offset = 2 * rlen * reals.start;
      }
      const bool mfits = s.plan_mirror(kind == Kind::r2c ? cr.b1 : cr.b0, row);
      check.require(mfits, ErrorKind::not_supported, "this rank's mirror exchange exceeds 2^31 − 1 points",
                    "use more ranks");
    }
  }
  check.finish();

  s.core.comm = s.comm.native();
  s.core.allocate();
  if (kind != Kind::c2c) {
    s.zbuf.assign(static_cast<std::size_t>(std::max<std::int64_t>(s.zcount, 1)), C{});
    const std::int64_t count = kind == Kind::r2c ? s.spec_count : s.zcount;
    const int sign = kind == Kind::r2c ? -1 : 1;
    s.split_w.resize(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i)
      s.split_w[static_cast<std::size_t>(i)] = root<T>(s.spec_start + i, n, sign);
  }
  CollectiveCheck planned(comm, f);
  planned.capture([&] { s.core.make_plans(po); });
  planned.finish();
  return Fft1dState<T>::wrap(std::move(state));
}

template <class S>
const S& need(const std::unique_ptr<S>& s, const char* function) {
  return require_plan(s, function, "trnfft::mpi::plan_dft_1d, plan_dft_r2c_1d or plan_dft_c2r_1d");
}

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
Kind Fft1dPlan<T>::kind() const {
  return detail::need(state_, "trnfft::mpi::Fft1dPlan::kind").kind;
}
template <Real T>
Direction Fft1dPlan<T>::direction() const {
  return detail::need(state_, "trnfft::mpi::Fft1dPlan::direction").direction;
}
template <Real T>
const Fft1dLayout& Fft1dPlan<T>::layout() const {
  return detail::need(state_, "trnfft::mpi::Fft1dPlan::layout").layout;
}

namespace {
constexpr const char* kExecute = "trnfft::mpi::Fft1dPlan::execute";
}

template <Real T>
void Fft1dPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::c2c, in, out, nullptr);
}
template <Real T>
void Fft1dPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
                           trncore::AccuracyReport& report) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::c2c, in, out, &report);
}
template <Real T>
void Fft1dPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::r2c, in, out, nullptr);
}
template <Real T>
void Fft1dPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out,
                           trncore::AccuracyReport& report) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::r2c, in, out, &report);
}
template <Real T>
void Fft1dPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::c2r, in, out, nullptr);
}
template <Real T>
void Fft1dPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out,
                           trncore::AccuracyReport& report) const {
  detail::execute_state(detail::need(state_, kExecute), kExecute, Kind::c2r, in, out, &report);
}

template <Real T>
Fft1dPlan<T> plan_dft_1d(const Communicator& comm, std::int64_t n, Direction direction, const PlanOptions& options,
                         std::int64_t n0) {
  return detail::make<T>("trnfft::mpi::plan_dft_1d", comm, Kind::c2c, n, direction, options, n0);
}
template <Real T>
Fft1dPlan<T> plan_dft_r2c_1d(const Communicator& comm, std::int64_t n, const PlanOptions& options, std::int64_t n0) {
  return detail::make<T>("trnfft::mpi::plan_dft_r2c_1d", comm, Kind::r2c, n, Direction::forward, options, n0);
}
template <Real T>
Fft1dPlan<T> plan_dft_c2r_1d(const Communicator& comm, std::int64_t n, const PlanOptions& options, std::int64_t n0) {
  return detail::make<T>("trnfft::mpi::plan_dft_c2r_1d", comm, Kind::c2r, n, Direction::backward, options, n0);
}

#define TRNFFT_MPI_FFT1D(T)                                                                                      \
  template class Fft1dPlan<T>;                                                                                   \
  template Fft1dPlan<T> plan_dft_1d<T>(const Communicator&, std::int64_t, Direction, const PlanOptions&,         \
                                       std::int64_t);                                                            \
  template Fft1dPlan<T> plan_dft_r2c_1d<T>(const Communicator&, std::int64_t, const PlanOptions&, std::int64_t); \
  template Fft1dPlan<T> plan_dft_c2r_1d<T>(const Communicator&, std::int64_t, const PlanOptions&, std::int64_t);
TRNFFT_MPI_FFT1D(float)
TRNFFT_MPI_FFT1D(double)

}  // namespace trnfft::mpi
