// The modelled scale-out of HPL-MxP and of the 10^6 kernel rsvd flagship, 1 to 144 chips:
//   trnsolver_scaling_model [trn1|trn2|trn3]
// Prints the link spec, the strong and weak scaling tables of both, and the flagship row on 144 chips of
// trn2 (three UltraServers: EFA) and of trn3 (one Trn3 Gen2 UltraServer). Every number is MODELLED from the
// spec table and the link model (docs/distributed.md), never measured.
#include <trnsolver/scaling_model.hpp>

#include <trncore/error.hpp>
#include <trncore/sim/collectives.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  using trncore::sim::Generation;
  try {
    Generation g = Generation::trn2;
    if (argc > 1) g = trncore::sim::parse_generation(argv[1]);
    std::fputs(trncore::sim::describe_topology(g).c_str(), stdout);
    std::fputs("\n", stdout);

    trnsolver::HplMxpModelOptions hpl;
    hpl.generation = g;
    trnsolver::KernelRsvdModelOptions rsvd;
    rsvd.generation = g;
    const auto chips = trnsolver::default_chip_counts();
    for (trnsolver::ScalingKind kind : {trnsolver::ScalingKind::strong, trnsolver::ScalingKind::weak}) {
      std::fputs(trnsolver::hpl_mxp_scaling(kind, chips, 0, hpl).to_string().c_str(), stdout);
      std::fputs("\n", stdout);
    }
    for (trnsolver::ScalingKind kind : {trnsolver::ScalingKind::strong, trnsolver::ScalingKind::weak}) {
      std::fputs(trnsolver::kernel_rsvd_scaling(kind, chips, 0, rsvd).to_string().c_str(), stdout);
      std::fputs("\n", stdout);
    }

    std::fputs(
        "modelled (not measured) flagship: rsvd of the 10^6 x 10^6 Gaussian kernel matrix, k = 300, bf16 range "
        "finder + compensated refinement to fp32, 144 chips\n",
        stdout);
    for (Generation fg : {Generation::trn2, Generation::trn3}) {
      trnsolver::KernelRsvdModelOptions o;
      o.generation = fg;
      const trnsolver::ScalingRow r1 = trnsolver::model_kernel_rsvd(1'000'000, 1, o);
      const trnsolver::ScalingRow r = trnsolver::model_kernel_rsvd(1'000'000, 144, o);
      std::printf(
          "  %s (%s): compute %.4g s + comm %.4g s = %.4g s; one chip %.4g s; %.4g TFLOP/s per chip; "
          "efficiency %.3f\n",
          std::string(trncore::sim::to_string(fg)).c_str(), std::string(trncore::sim::topology(fg).system).c_str(),
          r.compute_seconds, r.comm_seconds, r.total_seconds, r1.total_seconds, r.tflops_per_chip, r.efficiency);
    }
    return 0;
  } catch (const trncore::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
