// Prints the modelled (never measured) strong and weak scaling of distributed CG on the 10⁹-nonzero 7-point
// Poisson system from 1 to 144 chips (trnsparse/scaling_model.hpp; docs/distributed.md).
// Usage: trnsparse_scaling_model [trn1|trn2|trn3]   (default trn2)
#include <trnsparse/scaling_model.hpp>

#include <trncore/sim/generation.hpp>

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
  try {
    trnsparse::SparseCgModelOptions options;
    if (argc > 1) options.generation = trncore::sim::parse_generation(argv[1]);
    for (auto kind : {trncore::sim::ScalingKind::strong, trncore::sim::ScalingKind::weak})
      std::printf("%s\n", trnsparse::sparse_cg_scaling(kind, {}, 0, options).to_string().c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trnsparse_scaling_model: %s\n", e.what());
    return 1;
  }
}
