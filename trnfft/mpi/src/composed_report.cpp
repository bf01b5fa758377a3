// The composed AccuracyReport of distributed sim transforms (composed_report.hpp).
#include "composed_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>

namespace trnfft::mpi::detail {

void StageLog::record(std::size_t stage, const trncore::AccuracyReport& r) {
  bound[stage] = std::max(bound[stage], r.a_priori_bound);
  if (!r.certified && certified) {
    certified = false;
    reason = r.uncertified_reason;
  }
  steps[stage] = r.trajectory;
}

std::vector<double> stage_maxima(const trncore::mpi::Communicator& comm, const StageLog& log) {
  std::vector<double> m;
  m.reserve(log.bound.size());
  for (double b : log.bound) m.push_back(comm.allreduce_max(b));
  return m;
}

namespace {

// Rank 0's local trajectories of every stage, on every rank (one broadcast of the joined descriptions), so
// the report is the same everywhere, not only its certificate. Rank 0 runs every stage (the block
// distributions never leave it empty), and the descriptions depend on the lengths and modes only.
std::vector<std::vector<std::string>> rank0_steps(const trncore::mpi::Communicator& comm, const StageLog& log) {
  std::string joined;
  if (comm.rank() == 0)
    for (const auto& stage : log.steps) {
      for (const auto& st : stage) joined += st.description + '\x1f';
      joined += '\x1e';
    }
  std::vector<std::int64_t> len{static_cast<std::int64_t>(joined.size())};
  comm.broadcast(std::span<std::int64_t>(len), 0);
  joined.resize(static_cast<std::size_t>(len[0]));
  comm.broadcast(std::span<char>(joined.data(), joined.size()), 0);
  std::vector<std::vector<std::string>> steps(log.steps.size());
  std::size_t k = 0;
  std::string cur;
  for (const char ch : joined) {
    if (ch == '\x1f') {
      steps[k].push_back(cur);
      cur.clear();
    } else if (ch == '\x1e') {
      ++k;
    } else {
      cur += ch;
    }
  }
  return steps;
}

}  // namespace

trncore::AccuracyReport composed_report(const trncore::mpi::Communicator& comm, const StageLog& log, double bound,
                                        std::optional<double> target, std::string header,
                                        const std::vector<StageLabel>& order, std::string reference) {
  const bool all = comm.all_of(log.certified);
  const auto steps = rank0_steps(comm, log);
  trncore::AccuracyReport report;
  report.target = target;
  report.trajectory.push_back({std::move(header)});
  for (const auto& o : order)
    for (const auto& st : steps[o.stage]) report.trajectory.push_back({o.label + st});
  report.references.push_back(std::move(reference));
  if (all) {
    report.certify(bound);
    return report;
  }
  const int ranks = comm.size();
  const int first = comm.allreduce_min(log.certified ? ranks : comm.rank());
  std::vector<std::int64_t> len{static_cast<std::int64_t>(log.reason.size())};
  comm.broadcast(std::span<std::int64_t>(len), first);
  std::string why = comm.rank() == first ? log.reason : std::string(static_cast<std::size_t>(len[0]), ' ');
  comm.broadcast(std::span<char>(why.data(), why.size()), first);
  report.a_priori_bound = bound;
  report.uncertify("on rank " + std::to_string(first) + ": " + why);
  return report;
}

double compose_product(std::initializer_list<double> deltas) {
  double d = 0.0;
  for (double x : deltas) d = d + x + d * x;
  return d;
}

double compose_c2r(double delta_first, double delta_c2r) {
  const double s2 = std::sqrt(2.0);
  return s2 * delta_first + delta_c2r * (1.0 + s2 * delta_first);
}

// (1 + t)^(1/k) − 1 as expm1(log1p(t)/k): forming 1 + t first would round t by up to 2^-53 absolute, a relative
// error of 1e-16/t in the share (0.1 % at t = 1e-13), more than the 1e-12 shrink covers; log1p and expm1 keep
// the share within a few ulps.
double stage_target(double t, int stages) {
  return std::expm1(std::log1p(t) / static_cast<double>(stages)) * (1.0 - 1e-12);
}

namespace {
bool aligned16(const void* p) { return p == nullptr || reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

bool overlap(const void* a, std::size_t abytes, const void* b, std::size_t bbytes) {
  if (abytes == 0 || bbytes == 0) return false;
  const auto x = reinterpret_cast<std::uintptr_t>(a), y = reinterpret_cast<std::uintptr_t>(b);
  return x < y + bbytes && y < x + abytes;
}
}  // namespace

void check_execute(const trncore::mpi::Communicator& comm, const char* function, bool sim, bool wants_report,
                   const ExecuteArgs& a) {
  using trncore::mpi::ErrorKind;
  trncore::mpi::CollectiveCheck check(comm, function);
  check.require(!wants_report || sim, ErrorKind::not_supported,
                "an accuracy report from a host plan (FFTW has no certified bound)",
                "call the overload without a report, or plan with backend sim");
  check.require(a.plan_kind == a.call_kind, ErrorKind::invalid_argument,
                "the plan is " + std::string(to_string(a.plan_kind)) + ", the call is the " +
                    std::string(to_string(a.call_kind)) + " form",
                "call the execute overload of the plan's kind");
  check.require(a.in_count == a.in_expected, ErrorKind::dimension_mismatch,
                "input span holds " + std::to_string(a.in_count) + " elements, this rank's part is " +
                    std::to_string(a.in_expected),
                "size the input as layout().input_size");
  check.require(a.out_count == a.out_expected, ErrorKind::dimension_mismatch,
                "output span holds " + std::to_string(a.out_count) + " elements, this rank's part is " +
                    std::to_string(a.out_expected),
                "size the output as layout().output_size");
  check.require(aligned16(a.in) && aligned16(a.out), ErrorKind::invalid_argument,
                "input or output is not 16-byte aligned", "allocate with std::vector or fftw_malloc");
  check.require(!overlap(a.in, static_cast<std::size_t>(a.in_count) * a.in_elem, a.out,
                         static_cast<std::size_t>(a.out_count) * a.out_elem),
                ErrorKind::invalid_argument, "input and output overlap (plans are out of place)",
                "pass distinct arrays");
  check.finish();
}

}  // namespace trnfft::mpi::detail
