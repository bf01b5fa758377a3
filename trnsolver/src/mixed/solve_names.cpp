// Names of solve()'s enums and the report's summary.
#include <trnsolver/solve.hpp>

#include <trncore/detail/enum_names.hpp>
#include <trncore/detail/format_number.hpp>

namespace trnsolver {

// The names of solve()'s enums, in declaration order (constexpr: internal to this file).
constexpr trncore::detail::EnumNames<Refinement, 4> kRefinements{{{{"automatic", Refinement::automatic},
                                                                   {"fp64_lu", Refinement::fp64_lu},
                                                                   {"lu_ir", Refinement::lu_ir},
                                                                   {"gmres_ir", Refinement::gmres_ir}}}};
constexpr trncore::detail::EnumNames<FactorPrecision, 3> kFactors{
    {{{"fp64", FactorPrecision::fp64}, {"fp32", FactorPrecision::fp32}, {"bf16", FactorPrecision::bf16}}}};
constexpr trncore::detail::EnumNames<ResidualPrecision, 2> kResiduals{
    {{{"fp64", ResidualPrecision::fp64}, {"double_double", ResidualPrecision::double_double}}}};

// Each enum's name and its parser side by side.
std::string_view to_string(Refinement r) noexcept { return kRefinements.name(r); }
Refinement parse_refinement(std::string_view t) {
  return kRefinements.parse(t, "trnsolver::parse_refinement", "refinement");
}

std::string_view to_string(FactorPrecision p) noexcept { return kFactors.name(p); }
FactorPrecision parse_factor_precision(std::string_view t) {
  return kFactors.parse(t, "trnsolver::parse_factor_precision", "factor precision");
}

std::string_view to_string(ResidualPrecision p) noexcept { return kResiduals.name(p); }
ResidualPrecision parse_residual_precision(std::string_view t) {
  return kResiduals.parse(t, "trnsolver::parse_residual_precision", "residual precision");
}

std::string SolveReport::to_string() const {
  using trncore::detail::sci;
  std::string s = "solve: " + std::string(trnsolver::to_string(refinement)) + " (factor " +
                  std::string(trnsolver::to_string(factor)) + ", residual " +
                  std::string(trnsolver::to_string(residual)) + ")" + (converged ? ", converged" : ", not converged") +
                  (info != 0 ? ", info " + std::to_string(info) : "") + "\n";
  s += "  forward error bound normwise " + sci(forward_error_bound_normwise) + ", componentwise " +
       sci(forward_error_bound_componentwise) + ", estimate " + sci(forward_error_estimate) + "\n";
  s += "  condition estimate " + sci(condition_estimate) + ", backward error normwise " + sci(backward_error_normwise) +
       ", componentwise " + sci(backward_error_componentwise) + "\n";
  s += "  refinement steps " + std::to_string(refinements) + ", GMRES iterations " + std::to_string(gmres_iterations) +
       ", fallbacks " + std::to_string(fallbacks) + "\n";
  s += trncore::AccuracyReport::to_string();
  return s;
}

}  // namespace trnsolver
