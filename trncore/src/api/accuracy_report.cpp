#include <trncore/accuracy_report.hpp>
#include <trncore/detail/format_number.hpp>
#include <trncore/error.hpp>

namespace trncore {

namespace {
using detail::sci;
}  // namespace

void AccuracyReport::certify(double bound) {
  a_priori_bound = bound;
  certified = true;
  uncertified_reason.clear();
  met = !target || bound <= *target;
}

void AccuracyReport::uncertify(std::string_view reason) {
  certified = false;
  uncertified_reason = reason;
  met = false;
}

std::string AccuracyReport::to_string() const {
  std::string s = "target: " + (target ? sci(*target) : std::string("none")) + "\n";
  s += "a-priori bound: " + sci(a_priori_bound) + (met ? " (met)\n" : " (NOT met)\n");
  if (!certified)
    s +=
        "not certified: " + (uncertified_reason.empty() ? std::string("(no reason given)") : uncertified_reason) + "\n";
  if (a_posteriori_estimate) s += "a-posteriori estimate: " + sci(*a_posteriori_estimate) + "\n";
  s += "trajectory:\n";
  for (const TrajectoryStep& step : trajectory) s += "  " + step.description + "\n";
  if (iterations > 0) s += "iterations: " + std::to_string(iterations) + "\n";
  if (stopped_by_monitor) s += "stopped early by the monitor\n";
  for (const std::string& r : references) s += "reference: " + r + "\n";
  if (cost) s += cost->to_string();
  return s;
}

void require_target_met(const AccuracyReport& report, std::string_view function) {
  if (report.met) return;
  if (!report.certified)
    throw TargetNotMet(
        function,
        "the result is not certified: " +
            (report.uncertified_reason.empty() ? std::string("(no reason given)") : report.uncertified_reason),
        "check the input for NaN/Inf or values outside the format's range, choose a more accurate "
        "mode or backend, or call the overload that returns an AccuracyReport");
  throw TargetNotMet(function,
                     "the certified bound " + sci(report.a_priori_bound) + " does not meet target_forward_error = " +
                         (report.target ? sci(*report.target) : std::string("(none)")),
                     "loosen the target, choose a more accurate mode or backend, or call the overload that returns "
                     "an AccuracyReport");
}

}  // namespace trncore
