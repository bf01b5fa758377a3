// Pencil-decomposed 3-D FFT (pencil.hpp): three local trnfft transforms, two sub-communicator all-to-alls.
#include <trnfft/mpi/pencil.hpp>

#include "composed_report.hpp"
#include "plan_support.hpp"

#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace trnfft::mpi {

using trncore::mpi::CollectiveCheck;
using trncore::mpi::Communicator;
using trncore::mpi::ErrorKind;

namespace detail {

namespace {
bool aligned16(const void* p) { return p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// The composed bound of the three stages from their bounds δ_0, δ_1, δ_2 (dimension k's, maximised over
// ranks): c2c and r2c 1 + δ = Π(1 + δ_k); c2r δ = √2·δ_01 + δ_2·(1 + √2·δ_01), 1 + δ_01 = (1 + δ_0)(1 + δ_1).
// Monotone in every argument (sums and products of non-negative doubles).
double pencil_bound(Kind kind, double d0, double d1, double d2) {
  return kind == Kind::c2r ? compose_c2r(compose_product({d0, d1}), d2) : compose_product({d2, d1, d0});
}

// The per-stage target t_s (every stage the same) such that pencil_bound(kind, t_s, t_s, t_s) ≤ t, as
// evaluated: the largest double found by bisection on [0, t] (pencil_bound(kind, s, s, s) ≥ s, so the
// answer lies there). Evaluating the very formula compose() uses makes the split exact in floating point,
// also for tiny t, where (1 + t)^(1/3) − 1 would lose digits. c2c/r2c t_s ≈ t/3, c2r t_s ≈ t/(1 + 2√2).
double split_target(Kind kind, double t) {
  double lo = 0.0, hi = t;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (pencil_bound(kind, mid, mid, mid) <= t ? lo : hi) = mid;
  }
  return lo;
}

// Redistribution inside a sub-communicator of Q ranks: an array indexed (a, x, y, b) with x split over the
// ranks (this rank holds x-block xb[me]) and y whole becomes one with y split (yb[me]) and x whole. Source
// and destination offsets are given by strides (local x index in the source, local y in the destination).
struct Exchange {
  MPI_Comm comm = MPI_COMM_NULL;  // borrowed from the state's Communicator
  std::int64_t A = 1, B = 1;
  std::vector<Block> xb, yb;
  int me = 0;
  std::int64_t sa = 0, sx = 0, sy = 0, sb = 0;  // source strides (x local)
  std::int64_t da = 0, dx = 0, dy = 0, db = 0;  // destination strides (y local)
  std::vector<int> sc, sd, rc, rd;

  bool setup() {  // counts; false when a count overflows int
    const auto Q = xb.size();
    const auto lx = xb[static_cast<std::size_t>(me)].count, ly = yb[static_cast<std::size_t>(me)].count;
    std::int64_t s = 0, r = 0;
    bool ok = true;
    for (std::size_t q = 0; q < Q; ++q) {
      const auto c = A * lx * yb[q].count * B, d = A * xb[q].count * ly * B;
      if (s + c > std::numeric_limits<int>::max() || r + d > std::numeric_limits<int>::max()) ok = false;
      sc.push_back(static_cast<int>(c));
      sd.push_back(static_cast<int>(s));
      rc.push_back(static_cast<int>(d));
      rd.push_back(static_cast<int>(r));
      s += c;
      r += d;
    }
    return ok;
  }

  template <class C>
  void run(const C* src, C* send, C* recv, C* dst) const {
    const auto lx = xb[static_cast<std::size_t>(me)].count, ly = yb[static_cast<std::size_t>(me)].count;
    for (std::size_t q = 0; q < yb.size(); ++q) {
      C* o = send + sd[q];
      for (std::int64_t a = 0; a < A; ++a)
        for (std::int64_t x = 0; x < lx; ++x)
          for (std::int64_t y = yb[q].start; y < yb[q].start + yb[q].count; ++y)
            for (std::int64_t b = 0; b < B; ++b) *o++ = src[a * sa + x * sx + y * sy + b * sb];
    }
    const int code = MPI_Alltoallv(send, sc.data(), sd.data(), trncore::mpi::datatype<C>(), recv, rc.data(), rd.data(),
                                   trncore::mpi::datatype<C>(), comm);
    if (code != MPI_SUCCESS)
      throw trncore::mpi::CommunicationError("trnfft::mpi::PencilPlan::execute",
                                             "MPI_Alltoallv failed with code " + std::to_string(code),
                                             "check the MPI installation and that every rank executes the plan");
    for (std::size_t p = 0; p < xb.size(); ++p) {
      const C* i = recv + rd[p];
      for (std::int64_t a = 0; a < A; ++a)
        for (std::int64_t x = xb[p].start; x < xb[p].start + xb[p].count; ++x)
          for (std::int64_t y = 0; y < ly; ++y)
            for (std::int64_t b = 0; b < B; ++b) dst[a * da + x * dx + y * dy + b * db] = *i++;
    }
  }
};
}  // namespace

template <Real T>
struct PencilState {
  using C = std::complex<T>;
  Kind kind = Kind::c2c;
  bool reverse = false;  // output layout → input layout
  Communicator comm, rows, cols;
  PencilLayout layout;
  std::int64_t c2 = 1;
  Exchange x12, x01;  // forward: (ln0, ln1, c2) → (ln0, n1, out_n2) in the process row; → (n0, out_n1, out_n2)
  C2CPlan<T> d2_c2c;  // dimension 2, input-layout side (out of place: in → w1, or w1 → out)
  R2CPlan<T> d2_r2c;
  C2RPlan<T> d2_c2r;
  C2CPlan<T> d1;  // dimension 1 on (ln0, n1, out_n2), in place
  C2CPlan<T> d0;  // dimension 0 on (n0, out_n1, out_n2): forward in place on out, reverse in → w1
  mutable std::vector<C> w1, w2, w3;
  bool sim = false;              // local plans on the sim backend
  std::optional<double> target;  // the caller's target_forward_error (the composed report's target)

  PencilState(const Communicator& c, int p0, int p1)
      : comm(c.native()), rows(comm.split(p0, p1)), cols(comm.split(p1, p0)) {}
  static PencilPlan<T> wrap(std::unique_ptr<PencilState> s) { return PencilPlan<T>(std::move(s)); }

  // The pipeline (pencil.hpp). `log` records the local sim stages' reports (null: host, or no report); its
  // stage k is dimension k.
  void run(const void* in, void* out, StageLog* log) const {
    const auto& L = layout;
    if (!reverse) {
      if (L.in_n0 * L.in_n1 > 0) {
        if (kind == Kind::r2c)
          run_stage(d2_r2c, 2, log, static_cast<const T*>(in), w1.data());
        else
          run_stage(d2_c2c, 2, log, static_cast<const C*>(in), w1.data());
      }
      x12.run(w1.data(), w2.data(), w3.data(), w1.data());
      if (L.in_n0 * L.out_n2 > 0) run_stage(d1, 1, log, static_cast<const C*>(w1.data()), w1.data());
      x01.run(w1.data(), w2.data(), w3.data(), static_cast<C*>(out));
      if (L.out_n1 * L.out_n2 > 0) run_stage(d0, 0, log, static_cast<const C*>(out), static_cast<C*>(out));
      return;
    }
    if (L.out_n1 * L.out_n2 > 0) run_stage(d0, 0, log, static_cast<const C*>(in), w1.data());
    x01.run(w1.data(), w2.data(), w3.data(), w1.data());
    if (L.in_n0 * L.out_n2 > 0) run_stage(d1, 1, log, static_cast<const C*>(w1.data()), w1.data());
    x12.run(w1.data(), w2.data(), w3.data(), w1.data());
    if (L.in_n0 * L.in_n1 > 0) {
      if (kind == Kind::c2r)
        run_stage(d2_c2r, 2, log, w1.data(), static_cast<T*>(out));
      else
        run_stage(d2_c2c, 2, log, static_cast<const C*>(w1.data()), static_cast<C*>(out));
    }
  }

  // The composed report of one sim run (collective; the same report on every rank, trajectory included).
  // Stage k (dimension k) gets the maximum over ranks of the local certified bounds; the stages compose as
  // docs/trnfft.md, "The bound and how it composes", item 8: c2c and r2c 1 + δ = (1 + δ_2)(1 + δ_1)(1 + δ_0);
  // c2r (dimensions 0 and 1 as c2c passes on the half spectrum, then the c2r pass of dimension 2)
  // δ = √2·δ_01 + δ_2·(1 + √2·δ_01) with 1 + δ_01 = (1 + δ_0)(1 + δ_1).
  trncore::AccuracyReport compose(const StageLog& log) const {
    const auto m = stage_maxima(comm, log);
    const double bound = pencil_bound(kind, m[0], m[1], m[2]);
    const std::string grid = std::to_string(layout.grid_rows) + "×" + std::to_string(layout.grid_cols);
    std::vector<StageLabel> order{{2, "dimension 2: "}, {1, "dimension 1: "}, {0, "dimension 0: "}};
    if (reverse) std::reverse(order.begin(), order.end());
    return composed_report(comm, log, bound, target,
                           "trnfft::mpi pencil " + std::string(to_string(kind)) + " over a " + grid +
                               " grid: local stages on the sim backend, data movement by MPI_Alltoallv (exact)",
                           order,
                           "trnfft::mpi pencil: each stage's bound (dimension 2, 1, 0) is the maximum over ranks "
                           "of the local plans' certified bounds (normwise per transform, so also over the whole "
                           "array); stages compose as docs/trnfft.md, 'The bound and how it composes', item 8 "
                           "(c2r: the c2c passes of dimensions 0 and 1 composed, then the c2r pass)");
  }
};

namespace {

// The local trnfft plans of this rank (none for an empty block). Creation arrays are the state's buffers
// (planning never touches the caller's data); the real side uses scratch.
template <Real T>
void plan_local(PencilState<T>& s, Kind kind, Direction dir, const PlanOptions& po, std::int64_t n0, std::int64_t n1,
                std::int64_t n2) {
  const auto& L = s.layout;
  const auto ln0 = L.in_n0, ln1 = L.in_n1, on1 = L.out_n1, on2 = L.out_n2, c2 = s.c2;

  std::vector<T> scratch;
  if (ln0 * ln1 > 0) {
    if (kind == Kind::c2c) {
      s.d2_c2c = plan_many_dft<T>({n2}, ln0 * ln1, s.w2.data(), {}, 1, n2, s.w1.data(), {}, 1, n2, dir, po);
    } else {
      scratch.assign(static_cast<std::size_t>(ln0 * ln1 * n2), T{});
      if (kind == Kind::r2c)
        s.d2_r2c = plan_many_dft_r2c<T>({n2}, ln0 * ln1, scratch.data(), {}, 1, n2, s.w1.data(), {}, 1, c2, po);
      else
        s.d2_c2r = plan_many_dft_c2r<T>({n2}, ln0 * ln1, s.w1.data(), {}, 1, c2, scratch.data(), {}, 1, n2, po);
    }
  }
  if (ln0 * on2 > 0)
    s.d1 = plan_guru_dft<T>({IoDim{n1, on2, on2}}, {IoDim{ln0, n1 * on2, n1 * on2}, IoDim{on2, 1, 1}}, s.w1.data(),
                            s.w1.data(), dir, po);
  if (on1 * on2 > 0) {
    const auto r = on1 * on2;
    s.d0 = s.reverse ? plan_guru_dft<T>({IoDim{n0, r, r}}, {IoDim{r, 1, 1}}, s.w2.data(), s.w1.data(), dir, po)
                     : plan_guru_dft<T>({IoDim{n0, r, r}}, {IoDim{r, 1, 1}}, s.w1.data(), s.w1.data(), dir, po);
  }
}

template <Real T>
PencilPlan<T> make(const char* function, const Communicator& comm, std::int64_t P0, std::int64_t P1,
                   const std::vector<std::int64_t>& dims, Kind kind, Direction direction, const PlanOptions& options,
                   bool reverse) {
  using C = std::complex<T>;
  CollectiveCheck check(comm, function);
  const auto d = static_cast<std::int64_t>(dims.size());
  check.same("dims.size()", d);
  for (std::size_t k = 0; k < dims.size(); ++k) check.same("dims[" + std::to_string(k) + "]", dims[k]);
  check.same("grid_rows", P0);
  check.same("grid_cols", P1);
  check.same("direction", static_cast<std::int64_t>(direction));
  check.same("reverse", reverse ? 1 : 0);
  bool ok = d == 3;
  std::int64_t total = 1;
  for (auto n : dims) {
    if (n < 1 || total > std::numeric_limits<std::int64_t>::max() / 4 / n)
      ok = false;
    else
      total *= n;
  }
  check.require(ok, ErrorKind::invalid_argument,
                "dims must be 3 sizes ≥ 1 with a product below 2^61 (got " + std::to_string(d) + " sizes)",
                "pass {n0, n1, n2}; use the slab plan for 2-D");
  check.require(
      P0 >= 1 && P1 >= 1 && P0 * P1 == comm.size(), ErrorKind::invalid_argument,
      "grid " + std::to_string(P0) + "×" + std::to_string(P1) + " for " + std::to_string(comm.size()) + " ranks",
      "pass grid_rows · grid_cols = the communicator's size");
  check.require(direction == Direction::forward || direction == Direction::backward, ErrorKind::invalid_argument,
                "invalid direction " + std::to_string(static_cast<int>(direction)), "pass forward or backward");
  detail::check_plan_options(check, options, function);
  check.finish();

  const int p0 = static_cast<int>(comm.rank() / P1), p1 = static_cast<int>(comm.rank() % P1);
  auto state = std::make_unique<PencilState<T>>(comm, p0, p1);
  auto& s = *state;
  s.kind = kind;
  s.reverse = reverse || kind == Kind::c2r;
  const auto n0 = dims[0], n1 = dims[1], n2 = dims[2];
  s.c2 = kind == Kind::c2c ? n2 : n2 / 2 + 1;
  auto& L = s.layout;
  L.dims = dims;
  L.grid_rows = P0;
  L.grid_cols = P1;
  const auto b0 = block_of(n0, static_cast<int>(P0), p0), b1 = block_of(n1, static_cast<int>(P1), p1);
  const auto o1 = block_of(n1, static_cast<int>(P0), p0), o2 = block_of(s.c2, static_cast<int>(P1), p1);
  L.in_n0 = b0.count;
  L.in_0_start = b0.start;
  L.in_n1 = b1.count;
  L.in_1_start = b1.start;
  L.out_n1 = o1.count;
  L.out_1_start = o1.start;
  L.out_n2 = o2.count;
  L.out_2_start = o2.start;
  const auto in_elems = L.in_n0 * L.in_n1 * (kind == Kind::c2c ? n2 : n2);  // reals for r2c/c2r, complex for c2c
  const auto out_elems = n0 * L.out_n1 * L.out_n2;
  L.input_size = s.reverse ? out_elems : in_elems;
  L.output_size = s.reverse ? in_elems : out_elems;

  const auto ln0 = L.in_n0, ln1 = L.in_n1, on1 = L.out_n1, on2 = L.out_n2, c2 = s.c2;
  auto& a = s.x12;  // process row (P1 ranks): x = n1 (over P1), y = c2 (over P1), a = ln0
  auto& b = s.x01;  // process column (P0 ranks): x = n0 (over P0), y = n1 (over P0), b = on2
  for (int q = 0; q < P1; ++q) {
    a.xb.push_back(block_of(n1, static_cast<int>(P1), q));
    a.yb.push_back(block_of(c2, static_cast<int>(P1), q));
  }
  for (int q = 0; q < P0; ++q) {
    b.xb.push_back(block_of(n0, static_cast<int>(P0), q));
    b.yb.push_back(block_of(n1, static_cast<int>(P0), q));
  }
  a.comm = s.rows.native();
  a.me = p1;
  a.A = ln0;
  a.B = 1;
  b.comm = s.cols.native();
  b.me = p0;
  b.A = 1;
  b.B = on2;
  if (!s.reverse) {
    // (ln0, ln1, c2) → (ln0, n1, on2); then (ln0, n1, on2) → (n0, on1, on2).
    a.sa = ln1 * c2, a.sx = c2, a.sy = 1, a.sb = 0;
    a.da = n1 * on2, a.dx = on2, a.dy = 1, a.db = 0;
    b.sa = 0, b.sx = n1 * on2, b.sy = on2, b.sb = 1;
    b.da = 0, b.dx = on1 * on2, b.dy = on2, b.db = 1;
  } else {
    // The inverse movements: x and y swap roles. (n0, on1, on2) → (ln0, n1, on2): x = n1 (over P0), y = n0.
    std::swap(b.xb, b.yb);
    b.sa = 0, b.sx = on2, b.sy = on1 * on2, b.sb = 1;
    b.da = 0, b.dx = on2, b.dy = n1 * on2, b.db = 1;
    // (ln0, n1, on2) → (ln0, ln1, c2): x = c2 (over P1), y = n1.
    std::swap(a.xb, a.yb);
    a.sa = n1 * on2, a.sx = 1, a.sy = on2, a.sb = 0;
    a.da = ln1 * c2, a.dx = 1, a.dy = c2, a.db = 0;
  }
  CollectiveCheck fits(comm, function);
  fits.require(a.setup() && b.setup(), ErrorKind::not_supported, "an all-to-all exchange exceeds 2^31 − 1 elements",
               "use more ranks");
  fits.finish();

  const auto words =
      static_cast<std::size_t>(std::max<std::int64_t>({ln0 * ln1 * c2, ln0 * n1 * on2, n0 * on1 * on2, 1}));
  s.w1.assign(words, C{});
  s.w2.assign(words, C{});
  s.w3.assign(words, C{});
  PlanOptions po = options;
  po.preserve_input = false;
  s.sim = options.backend == trncore::Backend::sim;
  s.target = options.target_forward_error;
  // Each stage's target, so that the composed bound (compose()) meets the caller's target t.
  if (s.sim && s.target) po.target_forward_error = split_target(kind, *s.target);
  const Direction dir = kind == Kind::r2c ? Direction::forward : kind == Kind::c2r ? Direction::backward : direction;
  // A local plan that cannot certify its stage's share of the target stays TargetNotMet on every rank,
  // with the split that gave the share.
  const std::string split = s.target ? "target_forward_error " + trncore::detail::sci(*s.target) +
                                           " split over the 3 stages as " +
                                           trncore::detail::sci(*po.target_forward_error) + " each: "
                                     : std::string();
  CollectiveCheck planned(comm, function);
  planned.capture([&] {
    try {
      plan_local(s, kind, dir, po, n0, n1, n2);
    } catch (const trncore::TargetNotMet& e) {
      throw trncore::TargetNotMet(function, split + e.problem(),
                                  "loosen the target, choose a more accurate math_mode, or leave it automatic");
    }
  });
  planned.finish();
  return PencilState<T>::wrap(std::move(state));
}

template <Real T>
void execute(const std::unique_ptr<PencilState<T>>& state, Kind want, const void* in, std::int64_t ni, std::size_t ei,
             void* out, std::int64_t no, std::size_t eo, trncore::AccuracyReport* report) {
  constexpr const char* f = "trnfft::mpi::PencilPlan::execute";
  if (!state) throw trncore::InvalidArgument(f, "the plan is empty", "make it with plan_pencil_*");
  const auto& s = *state;
  CollectiveCheck check(s.comm, f);
  check.require(report == nullptr || s.sim, ErrorKind::not_supported,
                "an accuracy report from a host plan (FFTW has no certified bound)",
                "call the overload without a report, or plan with backend sim");
  check.require(
      s.kind == want, ErrorKind::invalid_argument,
      "the plan is " + std::string(to_string(s.kind)) + ", the call is the " + std::string(to_string(want)) + " form",
      "call the execute overload of the plan's kind");
  check.require(ni == s.layout.input_size, ErrorKind::dimension_mismatch,
                "input span holds " + std::to_string(ni) + " elements, this rank's part is " +
                    std::to_string(s.layout.input_size),
                "size the input as layout().input_size");
  check.require(no == s.layout.output_size, ErrorKind::dimension_mismatch,
                "output span holds " + std::to_string(no) + " elements, this rank's part is " +
                    std::to_string(s.layout.output_size),
                "size the output as layout().output_size");
  check.require(aligned16(in) && aligned16(out), ErrorKind::invalid_argument, "input or output is not 16-byte aligned",
                "allocate with std::vector or fftw_malloc");
  const auto x = reinterpret_cast<std::uintptr_t>(in), y = reinterpret_cast<std::uintptr_t>(out);
  const auto xb = static_cast<std::uintptr_t>(ni) * ei, yb = static_cast<std::uintptr_t>(no) * eo;
  check.require(xb == 0 || yb == 0 || !(x < y + yb && y < x + xb), ErrorKind::invalid_argument,
                "input and output overlap (plans are out of place)", "pass distinct arrays");
  check.finish();
  if (!s.sim) {
    s.run(in, out, nullptr);
    return;
  }
  StageLog log(3);
  s.run(in, out, &log);
  auto composed = s.compose(log);
  if (report != nullptr)
    *report = std::move(composed);
  else
    trncore::require_target_met(composed, f);
}

}  // namespace
}  // namespace detail

template <Real T>
PencilPlan<T>::PencilPlan() noexcept = default;
template <Real T>
PencilPlan<T>::PencilPlan(PencilPlan&&) noexcept = default;
template <Real T>
PencilPlan<T>& PencilPlan<T>::operator=(PencilPlan&&) noexcept = default;
template <Real T>
PencilPlan<T>::~PencilPlan() = default;
template <Real T>
PencilPlan<T>::PencilPlan(std::unique_ptr<detail::PencilState<T>> state) noexcept : state_(std::move(state)) {}

template <Real T>
Kind PencilPlan<T>::kind() const {
  if (!state_)
    throw trncore::InvalidArgument("trnfft::mpi::PencilPlan::kind", "the plan is empty", "make it with plan_pencil_*");
  return state_->kind;
}
template <Real T>
const PencilLayout& PencilPlan<T>::layout() const {
  if (!state_)
    throw trncore::InvalidArgument("trnfft::mpi::PencilPlan::layout", "the plan is empty",
                                   "make it with plan_pencil_*");
  return state_->layout;
}
template <Real T>
void PencilPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) const {
  detail::execute<T>(state_, Kind::c2c, in.data(), static_cast<std::int64_t>(in.size()), sizeof(std::complex<T>),
                     out.data(), static_cast<std::int64_t>(out.size()), sizeof(std::complex<T>), nullptr);
}
template <Real T>
void PencilPlan<T>::execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out,
                            trncore::AccuracyReport& report) const {
  detail::execute<T>(state_, Kind::c2c, in.data(), static_cast<std::int64_t>(in.size()), sizeof(std::complex<T>),
                     out.data(), static_cast<std::int64_t>(out.size()), sizeof(std::complex<T>), &report);
}
template <Real T>
void PencilPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out) const {
  detail::execute<T>(state_, Kind::r2c, in.data(), static_cast<std::int64_t>(in.size()), sizeof(T), out.data(),
                     static_cast<std::int64_t>(out.size()), sizeof(std::complex<T>), nullptr);
}
template <Real T>
void PencilPlan<T>::execute(std::span<const T> in, std::span<std::complex<T>> out,
                            trncore::AccuracyReport& report) const {
  detail::execute<T>(state_, Kind::r2c, in.data(), static_cast<std::int64_t>(in.size()), sizeof(T), out.data(),
                     static_cast<std::int64_t>(out.size()), sizeof(std::complex<T>), &report);
}
template <Real T>
void PencilPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out) const {
  detail::execute<T>(state_, Kind::c2r, in.data(), static_cast<std::int64_t>(in.size()), sizeof(std::complex<T>),
                     out.data(), static_cast<std::int64_t>(out.size()), sizeof(T), nullptr);
}
template <Real T>
void PencilPlan<T>::execute(std::span<const std::complex<T>> in, std::span<T> out,
                            trncore::AccuracyReport& report) const {
  detail::execute<T>(state_, Kind::c2r, in.data(), static_cast<std::int64_t>(in.size()), sizeof(std::complex<T>),
                     out.data(), static_cast<std::int64_t>(out.size()), sizeof(T), &report);
}

template <Real T>
PencilPlan<T> plan_pencil_c2c(const Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, Direction direction, const PlanOptions& options,
                              bool reverse) {
  return detail::make<T>("trnfft::mpi::plan_pencil_c2c", comm, grid_rows, grid_cols, dims, Kind::c2c, direction,
                         options, reverse);
}
template <Real T>
PencilPlan<T> plan_pencil_r2c(const Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, const PlanOptions& options) {
  return detail::make<T>("trnfft::mpi::plan_pencil_r2c", comm, grid_rows, grid_cols, dims, Kind::r2c,
                         Direction::forward, options, false);
}
template <Real T>
PencilPlan<T> plan_pencil_c2r(const Communicator& comm, std::int64_t grid_rows, std::int64_t grid_cols,
                              const std::vector<std::int64_t>& dims, const PlanOptions& options) {
  return detail::make<T>("trnfft::mpi::plan_pencil_c2r", comm, grid_rows, grid_cols, dims, Kind::c2r,
                         Direction::backward, options, true);
}

#define TRNFFT_MPI_PENCIL(T)                                                                                        \
  template class PencilPlan<T>;                                                                                     \
  template PencilPlan<T> plan_pencil_c2c<T>(const Communicator&, std::int64_t, std::int64_t,                        \
                                            const std::vector<std::int64_t>&, Direction, const PlanOptions&, bool); \
  template PencilPlan<T> plan_pencil_r2c<T>(const Communicator&, std::int64_t, std::int64_t,                        \
                                            const std::vector<std::int64_t>&, const PlanOptions&);                  \
  template PencilPlan<T> plan_pencil_c2r<T>(const Communicator&, std::int64_t, std::int64_t,                        \
                                            const std::vector<std::int64_t>&, const PlanOptions&);
TRNFFT_MPI_PENCIL(float)
TRNFFT_MPI_PENCIL(double)

}  // namespace trnfft::mpi
