// HPL-MxP on trnsci: trnsolver_hpl_mxp [n] [--sim] [--bf16] [--threads T] [--seed S]
// Prints HPL's report; exits 0 when the residual check passes.
#include <trnsolver/hpl_mxp.hpp>

#include <trncore/error.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
  trnsolver::HplMxpOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "hpl_mxp: %s needs a value\n", arg.c_str());
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
    } else if (!arg.empty() && arg[0] != '-') {
      o.n = std::stoll(arg);
    } else {
      std::fprintf(stderr, "usage: %s [n] [--sim] [--bf16] [--threads T] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  try {
    const trnsolver::HplMxpResult r = trnsolver::hpl_mxp(o);
    std::fputs(r.to_string().c_str(), stdout);
    return r.passed ? 0 : 1;
  } catch (const trncore::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
}
