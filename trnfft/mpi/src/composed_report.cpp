// The composed AccuracyReport of distributed sim transforms (composed_report.hpp).
#include "composed_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

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

trncore::AccuracyReport composed_report(const trncore::mpi::Communicator& comm, const StageLog& log, double bound,
                                        std::optional<double> target, std::string header,
                                        const std::vector<StageLabel>& order, std::string reference) {
  const bool all = comm.all_of(log.certified);
  trncore::AccuracyReport report;
  report.target = target;
  report.trajectory.push_back({std::move(header)});
  for (const auto& o : order)
    for (const auto& st : log.steps[o.stage]) report.trajectory.push_back({o.label + st.description});
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

double stage_target(double t, int stages) {
  const double root = stages == 2 ? std::sqrt(1.0 + t) : std::pow(1.0 + t, 1.0 / static_cast<double>(stages));
  return (root - 1.0) * (1.0 - 1e-12);
}

}  // namespace trnfft::mpi::detail
