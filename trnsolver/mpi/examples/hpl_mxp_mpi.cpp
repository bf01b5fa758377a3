// Multi-rank HPL-MxP on trnsci: mpirun -np R trnsolver_hpl_mxp_mpi [n] [--nb NB] [--grid PxQ] [--sim] [--bf16]
//                                                                   [--threads T] [--seed S]
// Rank 0 prints HPL's report with P and Q; every rank exits 0 when the residual check passes, 1 when it fails,
// 2 on bad arguments or an error.
#include <trnsolver/mpi/hpl_mxp.hpp>

#include <trncore/error.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  trncore::mpi::Environment env(argc, argv);
  const trncore::mpi::Communicator world = trncore::mpi::Communicator::world();
  trnsolver::mpi::HplMxpOptions o;
  int p = 0, q = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        if (world.rank() == 0) std::fprintf(stderr, "hpl_mxp_mpi: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--sim") {
      o.backend = trncore::Backend::sim;
    } else if (arg == "--bf16") {
      o.factor = trnsolver::FactorPrecision::bf16;
    } else if (arg == "--threads") {
      o.threads = std::stoi(value());
    } else if (arg == "--seed") {
      o.seed = std::stoull(value());
    } else if (arg == "--nb") {
      o.nb = std::stoll(value());
    } else if (arg == "--grid") {
      const std::string g = value();
      const auto x = g.find('x');
      if (x == std::string::npos) {
        if (world.rank() == 0) std::fprintf(stderr, "hpl_mxp_mpi: --grid wants PxQ, got %s\n", g.c_str());
        return 2;
      }
      p = std::stoi(g.substr(0, x));
      q = std::stoi(g.substr(x + 1));
    } else if (!arg.empty() && arg[0] != '-') {
      o.n = std::stoll(arg);
    } else {
      if (world.rank() == 0)
        std::fprintf(stderr, "usage: %s [n] [--nb NB] [--grid PxQ] [--sim] [--bf16] [--threads T] [--seed S]\n",
                     argv[0]);
      return 2;
    }
  }
  try {
    const trncore::mpi::ProcessGrid grid =
        p > 0 ? trncore::mpi::ProcessGrid(world, p, q) : trncore::mpi::ProcessGrid::square(world);
    const trnsolver::mpi::HplMxpResult r = trnsolver::mpi::hpl_mxp(grid, o);
    if (world.rank() == 0) std::fputs(r.to_string().c_str(), stdout);
    return r.passed ? 0 : 1;
  } catch (const trncore::Error& e) {
    if (world.rank() == 0) std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
