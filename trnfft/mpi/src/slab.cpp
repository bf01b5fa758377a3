// Slab-decomposed distributed FFT (slab.hpp): local trnfft plans + MPI_Alltoallv transposes.
#include <trnfft/mpi/slab.hpp>

#include "composed_report.hpp"
#include "plan_support.hpp"

#include <trncore/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>

namespace trnfft::mpi {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

Block block_of(std::int64_t n, int ranks, int rank) {
  if (n < 0 || ranks < 1 || rank < 0 || rank >= ranks) {
    throw trncore::InvalidArgument(
        "trnfft::mpi::block_of",
        "n = " + std::to_string(n) + ", ranks = " + std::to_string(ranks) + ", rank = " + std::to_string(rank),
        "pass n ≥ 0, ranks ≥ 1 and 0 ≤ rank < ranks");
  }
  const std::int64_t b = (n + ranks - 1) / ranks;
  const std::int64_t start = std::min<std::int64_t>(n, b * rank);
  return {std::min<std::int64_t>(n, start + b) - start, start};
}

namespace detail {

template <Real T>
struct SlabState {
  using C = std::complex<T>;
  Kind kind = Kind::c2c;
  Direction direction = Direction::forward;
  Communicator comm;
  SlabLayout layout;
  int ranks = 1;
  std::int64_t n0 = 1, c1 = 1, rest = 1;  // complex shape n0 × c1 × rest
  std::vector<Block> b0, b1;              // every rank's blocks of dims 0 and (complex) 1

  // All-to-all counts/displacements in complex elements: A→B' (dimension 0 gathered) and B'→A.
  std::vector<int> ab_sc, ab_sd, ab_rc, ab_rd;

  // Local plans (absent when this rank's part is empty).
  C2CPlan<T> rest_c2c;          // dims 1…, howmany local_n0, out of place
  C2CPlan<T> rest_c2c_inplace;  // the same in place (transposed in and out)
  R2CPlan<T> rest_r2c;
  C2RPlan<T> rest_c2r;
  C2CPlan<T> dim0_inplace;  // dimension 0 on B' (n0 × local_n1 × rest), in place
  C2CPlan<T> dim0_to_b;     // B' → B (local_n1 × n0 × rest)
  C2CPlan<T> dim0_from_b;   // B → B'

  mutable std::vector<C> buf1, buf2;
  bool sim = false;
  std::optional<double> target;

  // The local stages' reports on this rank (sim plans): stage 0 = dimensions 1…d−1, stage 1 = dimension 0.
  using Compose = StageLog;
  template <class P, class... A>
  static void local(const P& plan, int stage, Compose* c, A... args) {
    run_stage(plan, static_cast<std::size_t>(stage), c, args...);
  }

  // The stage bounds' maxima over ranks and the certification of every rank, composed (docs/trnfft.md "The
  // bound and how it composes", item 8): c2c, r2c 1 + δ = (1 + δ_rest)(1 + δ_0); c2r (dimension 0 first, then
  // the c2r pass) δ = √2·δ_0 + δ_rest·(1 + √2·δ_0).
  trncore::AccuracyReport compose(const Compose& c) const {
    const auto m = stage_maxima(comm, c);
    const double rest = m[0], d0 = m[1];
    const bool c2r = kind == Kind::c2r;
    const double bound = c2r ? compose_c2r(d0, rest) : compose_product({rest, d0});
    std::vector<StageLabel> order{{0, "dimensions 1…d−1: "}, {1, "dimension 0: "}};
    if (c2r) std::swap(order[0], order[1]);
    return composed_report(comm, c, bound, target,
                           "trnfft::mpi slab " + std::string(to_string(kind)) + " over " + std::to_string(ranks) +
                               " ranks: local stages on the sim backend, data movement by MPI_Alltoallv (exact)",
                           order,
                           "trnfft::mpi slab: each stage's bound is the maximum over ranks of the local plans' "
                           "certified bounds (normwise per transform, so also over the whole array); stages compose "
                           "as docs/trnfft.md, 'The bound and how it composes', item 8");
  }

  explicit SlabState(const Communicator& c) : comm(c.native()) {}
  static SlabPlan<T> wrap(std::unique_ptr<SlabState> s) { return SlabPlan<T>(std::move(s)); }

  std::int64_t a_size() const { return layout.local_n0 * c1 * rest; }
  std::int64_t bp_size() const { return n0 * layout.local_n1 * rest; }

  void alltoall(const C* send, C* recv, bool a_to_b) const {
    const auto& sc = a_to_b ? ab_sc : ab_rc;
    const auto& sd = a_to_b ? ab_sd : ab_rd;
    const auto& rc = a_to_b ? ab_rc : ab_sc;
    const auto& rd = a_to_b ? ab_rd : ab_sd;
    const int rc_ = MPI_Alltoallv(send, sc.data(), sd.data(), trncore::mpi::datatype<C>(), recv, rc.data(), rd.data(),
                                  trncore::mpi::datatype<C>(), comm.native());
    if (rc_ != MPI_SUCCESS) {
      throw trncore::mpi::CommunicationError("trnfft::mpi::SlabPlan::execute",
                                             "MPI_Alltoallv failed with code " + std::to_string(rc_),
                                             "check the MPI installation and that every rank executes the plan");
    }
  }

  // A (local_n0 × c1 × rest) → send buffer ordered by destination: [q][i0][j1 in q][rest].
  void pack(const C* a, C* send) const {
    const auto ln0 = layout.local_n0;
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b1[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      const auto len = static_cast<std::size_t>(bq.count * rest);
      C* dst = send + ab_sd[static_cast<std::size_t>(q)];
      for (std::int64_t i0 = 0; i0 < ln0; ++i0)
        std::memcpy(dst + i0 * bq.count * rest, a + (i0 * c1 + bq.start) * rest, len * sizeof(C));
    }
  }
  // Received [q][i0][j1 in q][rest] → A.
  void unpack(const C* recv, C* a) const {
    const auto ln0 = layout.local_n0;
    for (int q = 0; q < ranks; ++q) {
      const auto& bq = b1[static_cast<std::size_t>(q)];
      if (bq.count == 0) continue;
      const auto len = static_cast<std::size_t>(bq.count * rest);
      const C* src = recv + ab_sd[static_cast<std::size_t>(q)];
      for (std::int64_t i0 = 0; i0 < ln0; ++i0)
        std::memcpy(a + (i0 * c1 + bq.start) * rest, src + i0 * bq.count * rest, len * sizeof(C));
    }
  }
  // B' (n0 × local_n1 × rest) → B (local_n1 × n0 × rest).
  void bprime_to_b(const C* bp, C* b) const {
    const auto ln1 = layout.local_n1;
    for (std::int64_t i0 = 0; i0 < n0; ++i0)
      for (std::int64_t j = 0; j < ln1; ++j)
        std::memcpy(b + (j * n0 + i0) * rest, bp + (i0 * ln1 + j) * rest, static_cast<std::size_t>(rest) * sizeof(C));
  }

  // The pipelines (slab.hpp): A-input (c2c, r2c), B-input (c2c, c2r), A-input c2r.
  void run(const void* in, void* out, Compose* c) const {
    C* w1 = buf1.data();
    C* w2 = buf2.data();
    const bool tin = layout.transposed_in, tout = layout.transposed_out;
    if (!tin && kind != Kind::c2r) {
      if (layout.local_n0 > 0) {
        if (kind == Kind::r2c)
          local(rest_r2c, 0, c, static_cast<const T*>(in), w1);
        else
          local(rest_c2c, 0, c, static_cast<const C*>(in), w1);
      }
      pack(w1, w2);
      alltoall(w2, w1, true);  // w1: B'
      if (tout) {
        if (layout.local_n1 > 0) local(dim0_to_b, 1, c, static_cast<const C*>(w1), static_cast<C*>(out));
        return;
      }
      if (layout.local_n1 > 0) local(dim0_inplace, 1, c, static_cast<const C*>(w1), w1);
      alltoall(w1, w2, false);
      unpack(w2, static_cast<C*>(out));
      return;
    }
    if (tin) {
      if (layout.local_n1 > 0) local(dim0_from_b, 1, c, static_cast<const C*>(in), w1);  // w1: B'
      alltoall(w1, w2, false);
      unpack(w2, w1);  // w1: A
    } else {           // c2r from the normal layout: dimension 0 first
      pack(static_cast<const C*>(in), w2);
      alltoall(w2, w1, true);
      if (layout.local_n1 > 0) local(dim0_inplace, 1, c, static_cast<const C*>(w1), w1);
      alltoall(w1, w2, false);
      unpack(w2, w1);
    }
    if (kind == Kind::c2r) {
      if (layout.local_n0 > 0) local(rest_c2r, 0, c, w1, static_cast<T*>(out));
      return;
    }
    if (!tout) {
      if (layout.local_n0 > 0) local(rest_c2c, 0, c, static_cast<const C*>(w1), static_cast<C*>(out));
      return;
    }
    if (layout.local_n0 > 0) local(rest_c2c_inplace, 0, c, static_cast<const C*>(w1), w1);
    pack(w1, w2);
    alltoall(w2, w1, true);
    bprime_to_b(w1, static_cast<C*>(out));
  }
};

namespace {

template <Real T>
SlabPlan<T> make(const char* function, const Communicator& comm, const std::vector<std::int64_t>& dims, Kind kind,
                 Direction direction, const PlanOptions& options, SlabOptions slab) {
  using C = std::complex<T>;
  CollectiveCheck check(comm, function);
  const auto d = static_cast<std::int64_t>(dims.size());
  check.same("dims.size()", d);
  check.same("direction", static_cast<std::int64_t>(direction));
  check.same("transposed_in", slab.transposed_in ? 1 : 0);
  check.same("transposed_out", slab.transposed_out ? 1 : 0);
  bool dims_ok = d >= 2;
  std::int64_t total = 1;
  for (std::int64_t k = 0; k < d; ++k) {
    check.same("dims[" + std::to_string(k) + "]", dims[static_cast<std::size_t>(k)]);
    const auto n = dims[static_cast<std::size_t>(k)];
    if (n < 1 || total > std::numeric_limits<std::int64_t>::max() / 4 / n)
      dims_ok = false;
    else
      total *= n;
  }
  std::string shape;
  for (auto n : dims) {
    if (!shape.empty()) shape += "×";
    shape += std::to_string(n);
  }
  check.require(dims_ok, ErrorKind::invalid_argument,
                "dims [" + shape + "]: need at least 2 dimensions, each ≥ 1, with a product below 2^61",
                "use trnfft::plan_dft for 1-D transforms; pass positive sizes");
  check.require(direction == Direction::forward || direction == Direction::backward, ErrorKind::invalid_argument,
                "invalid direction " + std::to_string(static_cast<int>(direction)), "pass forward or backward");
  check.require(!(kind == Kind::r2c && slab.transposed_in), ErrorKind::not_supported,
                "r2c with transposed_in (real input is in the normal layout)", "unset transposed_in");
  check.require(!(kind == Kind::c2r && slab.transposed_out), ErrorKind::not_supported,
                "c2r with transposed_out (real output is in the normal layout)", "unset transposed_out");
  detail::check_plan_options(check, options, function);

  auto state = std::make_unique<SlabState<T>>(comm);
  auto& s = *state;
  if (!check.failed_locally()) {
    s.kind = kind;
    s.direction = direction;
    s.ranks = comm.size();
    s.layout.dims = dims;
    s.layout.complex_dims = dims;
    if (kind != Kind::c2c) s.layout.complex_dims.back() = dims.back() / 2 + 1;
    const auto& cd = s.layout.complex_dims;
    s.n0 = cd[0];
    s.c1 = cd[1];
    s.rest = 1;
    for (std::size_t k = 2; k < cd.size(); ++k) s.rest *= cd[k];
    for (int r = 0; r < s.ranks; ++r) {
      s.b0.push_back(block_of(s.n0, s.ranks, r));
      s.b1.push_back(block_of(s.c1, s.ranks, r));
    }
    const auto me = static_cast<std::size_t>(comm.rank());
    s.layout.local_n0 = s.b0[me].count;
    s.layout.local_0_start = s.b0[me].start;
    s.layout.local_n1 = s.b1[me].count;
    s.layout.local_1_start = s.b1[me].start;
    s.layout.transposed_in = slab.transposed_in;
    s.layout.transposed_out = slab.transposed_out;
    std::int64_t real_rest = 1;
    for (std::size_t k = 1; k < dims.size(); ++k) real_rest *= dims[k];
    const auto a = s.a_size(), b = s.bp_size();
    s.layout.input_size = kind == Kind::r2c ? s.layout.local_n0 * real_rest : (slab.transposed_in ? b : a);
    s.layout.output_size = kind == Kind::c2r ? s.layout.local_n0 * real_rest : (slab.transposed_out ? b : a);
    // Counts: A→B' sends local_n0 × b1[q] × rest to q and receives b0[p] × local_n1 × rest from p.
    bool fits = true;
    std::int64_t sd = 0, rd = 0;
    for (int q = 0; q < s.ranks; ++q) {
      const auto sc = s.layout.local_n0 * s.b1[static_cast<std::size_t>(q)].count * s.rest;
      const auto rc = s.b0[static_cast<std::size_t>(q)].count * s.layout.local_n1 * s.rest;
      if (sd + sc > std::numeric_limits<int>::max() || rd + rc > std::numeric_limits<int>::max()) fits = false;
      s.ab_sc.push_back(static_cast<int>(sc));
      s.ab_sd.push_back(static_cast<int>(sd));
      s.ab_rc.push_back(static_cast<int>(rc));
      s.ab_rd.push_back(static_cast<int>(rd));
      sd += sc;
      rd += rc;
    }
    check.require(
        fits, ErrorKind::not_supported,
        "this rank's all-to-all exchange exceeds 2^31 − 1 elements (" + std::to_string(std::max(sd, rd)) + ")",
        "use more ranks");
  }
  check.finish();

  const auto& L = s.layout;
  const auto ln0 = L.local_n0, ln1 = L.local_n1;
  const auto words = static_cast<std::size_t>(std::max<std::int64_t>({s.a_size(), s.bp_size(), 1}));
  s.buf1.assign(words, C{});
  s.buf2.assign(words, C{});
  std::vector<std::int64_t> rdims(dims.begin() + 1, dims.end());
  const std::int64_t cdist = s.c1 * s.rest;
  std::int64_t rdist = 1;
  for (auto n : rdims) rdist *= n;
  PlanOptions po = options;
  po.preserve_input = false;
  s.sim = options.backend == trncore::Backend::sim;
  s.target = options.target_forward_error;
  if (s.sim && options.target_forward_error) {
    // Each stage's target, so that the composition (compose()) stays within the caller's target t:
    // c2c/r2c (1 + t_s)² − 1 = t; c2r (1 + √2)·t_s + √2·t_s² ≤ t for t_s = t / (2 + 2√2).
    const double t = *options.target_forward_error;
    po.target_forward_error = kind == Kind::c2r ? t / (2.0 + 2.0 * std::sqrt(2.0)) : stage_target(t, 2);
  }
  // Creation arrays are internal (planning never touches the caller's data); the real side uses scratch.
  CollectiveCheck planned(comm, function);
  planned.capture([&] {
    std::vector<T> scratch;
    if (ln0 > 0) {
      if (kind == Kind::c2c) {
        s.rest_c2c =
            plan_many_dft<T>(rdims, ln0, s.buf2.data(), {}, 1, cdist, s.buf1.data(), {}, 1, cdist, direction, po);
        if (L.transposed_in && L.transposed_out)
          s.rest_c2c_inplace =
              plan_many_dft<T>(rdims, ln0, s.buf1.data(), {}, 1, cdist, s.buf1.data(), {}, 1, cdist, direction, po);
      } else {
        scratch.assign(static_cast<std::size_t>(ln0 * rdist), T{});
        if (kind == Kind::r2c)
          s.rest_r2c = plan_many_dft_r2c<T>(rdims, ln0, scratch.data(), {}, 1, rdist, s.buf1.data(), {}, 1, cdist, po);
        else
          s.rest_c2r = plan_many_dft_c2r<T>(rdims, ln0, s.buf1.data(), {}, 1, cdist, scratch.data(), {}, 1, rdist, po);
      }
    }
    if (ln1 > 0) {
      const Direction d0 = kind == Kind::r2c ? Direction::forward : kind == Kind::c2r ? Direction::backward : direction;
      const auto R = s.rest;
      s.dim0_inplace = plan_guru_dft<T>({IoDim{s.n0, ln1 * R, ln1 * R}}, {IoDim{ln1 * R, 1, 1}}, s.buf1.data(),
                                        s.buf1.data(), d0, po);
      if (L.transposed_out && kind != Kind::c2r)
        s.dim0_to_b = plan_guru_dft<T>({IoDim{s.n0, ln1 * R, R}}, {IoDim{ln1, R, s.n0 * R}, IoDim{R, 1, 1}},
                                       s.buf1.data(), s.buf2.data(), d0, po);
      if (L.transposed_in)
        s.dim0_from_b = plan_guru_dft<T>({IoDim{s.n0, R, ln1 * R}}, {IoDim{ln1, s.n0 * R, R}, IoDim{R, 1, 1}},
                                         s.buf2.data(), s.buf1.data(), d0, po);
    }
  });
  planned.finish();
  return SlabState<T>::wrap(std::move(state));
}

}  // namespace
}  // namespace detail

template <Real T>
SlabPlan<T>::SlabPlan() noexcept = default;
template <Real T>
SlabPlan<T>::SlabPlan(SlabPlan&&) noexcept = default;
template <Real T>
SlabPlan<T>& SlabPlan<T>::operator=(SlabPlan&&) noexcept = default;
template <Real T>
SlabPlan<T>::~SlabPlan() = default;
template <Real T>
SlabPlan<T>::SlabPlan(std::unique_ptr<detail::SlabState<T>> state) noexcept : state_(std::move(state)) {}

namespace {
template <class S>
const S& need(const std::unique_ptr<S>& s, const char* function) {
  return detail::require_plan(s, function, "trnfft::mpi::plan_slab_c2c, plan_slab_r2c or plan_slab_c2r");
}
}  // namespace

template <Real T>
Kind SlabPlan<T>::kind() const {
  return need(state_, "trnfft::mpi::SlabPlan::kind").kind;
}
template <Real T>
Direction SlabPlan<T>::direction() const {
  return need(state_, "trnfft::mpi::SlabPlan::direction").direction;
}
template <Real T>
const SlabLayout& SlabPlan<T>::layout() const {
  return need(state_, "trnfft::mpi::SlabPlan::layout").layout;
}
template <Real T>
std::string SlabPlan<T>::description() const {
  const auto& s = need(state_, "trnfft::mpi::SlabPlan::description");
  std::ostringstream o;
  o << "slab " << to_string(s.kind) << " " << to_string(s.direction) << " dims [";
  for (std::size_t k = 0; k < s.layout.dims.size(); ++k) o << (k ? "×" : "") << s.layout.dims[k];
  o << "] ranks " << s.ranks << " local_n0 " << s.layout.local_n0 << " (from " << s.layout.local_0_start
    << ") local_n1 " << s.layout.local_n1 << " (from " << s.layout.local_1_start << ") input "
    << (s.layout.transposed_in ? "transposed" : "normal") << " output "
    << (s.layout.transposed_out ? "transposed" : "normal");
  return o.str();
}

template <Real T>
void SlabPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::c2c, in, out, nullptr);
}
template <Real T>
void SlabPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
                          trncore::AccuracyReport& report) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::c2c, in, out, &report);
}
template <Real T>
void SlabPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::r2c, in, out, nullptr);
}
template <Real T>
void SlabPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out,
                          trncore::AccuracyReport& report) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::r2c, in, out, &report);
}
template <Real T>
void SlabPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::c2r, in, out, nullptr);
}
template <Real T>
void SlabPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out,
                          trncore::AccuracyReport& report) const {
  constexpr const char* f = "trnfft::mpi::SlabPlan::execute";
  detail::execute_state(need(state_, f), f, Kind::c2r, in, out, &report);
}

template <Real T>
SlabPlan<T> plan_slab_c2c(const Communicator& comm, const std::vector<std::int64_t>& dims, Direction direction,
                          const PlanOptions& options, SlabOptions slab) {
  return detail::make<T>("trnfft::mpi::plan_slab_c2c", comm, dims, Kind::c2c, direction, options, slab);
}
template <Real T>
SlabPlan<T> plan_slab_r2c(const Communicator& comm, const std::vector<std::int64_t>& dims, const PlanOptions& options,
                          SlabOptions slab) {
  return detail::make<T>("trnfft::mpi::plan_slab_r2c", comm, dims, Kind::r2c, Direction::forward, options, slab);
}
template <Real T>
SlabPlan<T> plan_slab_c2r(const Communicator& comm, const std::vector<std::int64_t>& dims, const PlanOptions& options,
                          SlabOptions slab) {
  return detail::make<T>("trnfft::mpi::plan_slab_c2r", comm, dims, Kind::c2r, Direction::backward, options, slab);
}

#define TRNFFT_MPI_SLAB(T)                                                                                         \
  template class SlabPlan<T>;                                                                                      \
  template SlabPlan<T> plan_slab_c2c<T>(const Communicator&, const std::vector<std::int64_t>&, Direction,          \
                                        const PlanOptions&, SlabOptions);                                          \
  template SlabPlan<T> plan_slab_r2c<T>(const Communicator&, const std::vector<std::int64_t>&, const PlanOptions&, \
                                        SlabOptions);                                                              \
  template SlabPlan<T> plan_slab_c2r<T>(const Communicator&, const std::vector<std::int64_t>&, const PlanOptions&, \
                                        SlabOptions);
TRNFFT_MPI_SLAB(float)
TRNFFT_MPI_SLAB(double)

}  // namespace trnfft::mpi
