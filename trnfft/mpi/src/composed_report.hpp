#pragma once
// Internal to trnfft_mpi (not installed): the execute argument checks shared by the distributed plans
// (check_execute, run_execute), and the composed AccuracyReport of a distributed transform whose local
// stages run trnfft sim plans (slab, pencil, 1-D six-step). Each rank records its local stages' certified
// bounds (StageLog, run_stage); composed_report() then takes every stage's maximum over ranks and the
// certification of every rank (collectives, the same on every rank) and builds the one report the caller
// gets, with the bound the caller composed from those maxima (compose_product, compose_c2r; derivations in
// docs/trnfft.md, "The bound and how it composes", items 3, 4, 7, 8).
//
// Why the maximum over ranks: every local plan certifies a normwise bound per transform, so also in the
// Frobenius norm of its batch; the squares add over ranks, so the largest rank's bound holds for the
// whole distributed array at that stage.

#include <trnfft/types.hpp>
#include <trncore/accuracy_report.hpp>
#include <trncore/mpi.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace trnfft::mpi::detail {

/// This rank's record of the local sim stages of one distributed execute.
struct StageLog {
  explicit StageLog(std::size_t stages) : bound(stages, 0.0), steps(stages) {}
  std::vector<double> bound;  ///< per stage: the largest local a_priori_bound this rank saw (0 if none ran)
  bool certified = true;      ///< every local run on this rank certified
  std::string reason;         ///< the first uncertified_reason on this rank
  std::vector<std::vector<trncore::TrajectoryStep>> steps;  ///< per stage: the last local trajectory

  /// Records one local run's report as part of `stage`.
  void record(std::size_t stage, const trncore::AccuracyReport& r);
};

/// Runs `plan.execute(args...)` when `log` is null (host plans, or no report wanted), else
/// `plan.execute(args..., report)` and records the report as part of `stage`.
template <class P, class... A>
void run_stage(const P& plan, std::size_t stage, StageLog* log, A... args) {
  if (log == nullptr) {
    plan.execute(args...);
    return;
  }
  trncore::AccuracyReport r;
  plan.execute(args..., r);
  log->record(stage, r);
}

/// One trajectory block of the composed report: the steps of `stage` prefixed by `label`.
struct StageLabel {
  std::size_t stage = 0;
  std::string label;
};

/// Every stage's bound, maximised over the ranks of `comm` (collective: one allreduce_max per stage).
std::vector<double> stage_maxima(const trncore::mpi::Communicator& comm, const StageLog& log);

/// The composed report (collective, the same on every rank): target `target`, trajectory = `header` then the
/// stages' steps in the order of `order` (rank 0's local trajectories), references `reference`; certified
/// with `bound` (computed by the caller from stage_maxima()) when every rank's local runs were certified,
/// else uncertified with "on rank r: <reason>" for the lowest uncertified rank r (broadcast), bound kept.
trncore::AccuracyReport composed_report(const trncore::mpi::Communicator& comm, const StageLog& log, double bound,
                                        std::optional<double> target, std::string header,
                                        const std::vector<StageLabel>& order, std::string reference);

/// 1 + δ = Π(1 + δ_i), evaluated as a running δ ← δ + δ_i + δ·δ_i (no cancellation for bounds near u).
double compose_product(std::initializer_list<double> deltas);

/// A c2r last pass after other passes (docs/trnfft.md item 8): δ = √2·δ_first + δ_c2r·(1 + √2·δ_first).
double compose_c2r(double delta_first, double delta_c2r);

/// The per-stage target t_s for `stages` stages composed by compose_product so that the product meets t:
/// (1 + t_s)^stages − 1 ≤ t (shrunk by 1e−12 relative against rounding).
double stage_target(double t, int stages);

/// One execute call's arrays against the plan: element counts and sizes (bytes) of what was passed, and the
/// counts the plan's layout expects on this rank.
struct ExecuteArgs {
  Kind plan_kind = Kind::c2c;  ///< the plan's kind
  Kind call_kind = Kind::c2c;  ///< the kind of the execute overload called
  const void* in = nullptr;
  std::int64_t in_count = 0, in_expected = 0;
  std::size_t in_elem = 0;
  const void* out = nullptr;
  std::int64_t out_count = 0, out_expected = 0;
  std::size_t out_elem = 0;
};

/// The checks every distributed execute makes before any communication, in one CollectiveCheck over `comm`:
/// a report only from a sim plan (NotSupported), the overload of the plan's kind (InvalidArgument), the span
/// sizes (DimensionMismatch), 16-byte alignment and no overlap of in and out (InvalidArgument).
/// @throws the first failure (on any rank) on every rank.
void check_execute(const trncore::mpi::Communicator& comm, const char* function, bool sim, bool wants_report,
                   const ExecuteArgs& a);

/// The checked execute's run: a host plan runs `run(nullptr)`; a sim plan runs `run(&log)` with a StageLog of
/// `stages` stages, then `compose(log)` (collective) into `*report`, or, without a report, throws TargetNotMet
/// (on every rank, the report being the same everywhere) when it is not met.
template <class Run, class Compose>
void run_execute(const char* function, bool sim, std::size_t stages, trncore::AccuracyReport* report, Run&& run,
                 Compose&& compose) {
  if (!sim) {
    run(static_cast<StageLog*>(nullptr));
    return;
  }
  StageLog log(stages);
  run(&log);
  auto composed = compose(static_cast<const StageLog&>(log));
  if (report != nullptr)
    *report = std::move(composed);
  else
    trncore::require_target_met(composed, function);
}

/// The execute of a plan state `s` (slab and 1-D: members comm, sim, kind, layout.input_size/output_size,
/// run(in, out, StageLog*) and compose(const StageLog&)) on the caller's spans: check_execute, then run_execute
/// over the state's two stages. `want` is the kind of the public overload called.
template <class State, class In, class Out>
void execute_state(const State& s, const char* function, Kind want, std::span<In> in, std::span<Out> out,
                   trncore::AccuracyReport* report) {
  check_execute(s.comm, function, s.sim, report != nullptr,
                {s.kind, want, in.data(), static_cast<std::int64_t>(in.size()), s.layout.input_size, sizeof(In),
                 out.data(), static_cast<std::int64_t>(out.size()), s.layout.output_size, sizeof(Out)});
  run_execute(
      function, s.sim, 2, report, [&](StageLog* log) { s.run(in.data(), out.data(), log); },
      [&](const StageLog& log) { return s.compose(log); });
}

}  // namespace trnfft::mpi::detail
