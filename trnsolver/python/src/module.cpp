// The trnsolver Python extension (trnsolver._trnsolver): dense factorizations, the certified solve,
// Krylov solvers over LinearOperator, randomized NLA and HPL-MxP (docs/python.md).
#include "bind.hpp"

#include <trnsolver/version.hpp>

#include <string>

PYBIND11_MODULE(_trnsolver, m) {
  namespace tsp = trnsolver_python;
  m.doc() = "trnsolver: dense, certified, iterative and randomized linear algebra (see docs/python.md)";
  trnsci_python::init_module(m);
  m.def(
      "version", [] { return std::string(trnsolver::version()); }, "The trnsolver library's version.");
  tsp::bind_types(m);
  tsp::bind_krylov(m);
  tsp::bind_dense(m);
  tsp::bind_randomized(m);
}
