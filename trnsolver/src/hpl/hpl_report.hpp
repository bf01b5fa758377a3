#pragma once
// HPL's report of an HPL-MxP run — the T/V line with N, NB, P, Q, time and GFLOP/s, the solve's steps, the
// scaled residual with PASSED or FAILED — shared by the single-process and the distributed driver.

#include <trnsolver/hpl_mxp.hpp>

#include <cstdint>
#include <string>

namespace trnsolver::detail {

std::string hpl_report(const HplMxpResult& result, std::int64_t nb, int p, int q);

}  // namespace trnsolver::detail
