// The trnsparse Python extension (trnsparse._trnsparse): formats, operations, solvers, Matrix Market,
// screening and block-sparse attention over NumPy arrays (docs/python.md).
#include "bind.hpp"

#include <trnsparse/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnsparse, m) {
  m.doc() = "trnsparse: sparse formats, SpMV/SpMM, iterative and direct solvers, screening, attention (docs/python.md)";
  tp::init_module(m);
  // trnsolver registers KrylovResult (and its other types): import it first, never register them here.
  py::module_::import("trnsolver");
  m.def(
      "version", [] { return std::string(trnsparse::version()); }, "The trnsparse library's version.");
  trnsparse_python::bind_formats(m);
  trnsparse_python::bind_ops(m);
  trnsparse_python::bind_solvers(m);
  trnsparse_python::bind_misc(m);
}
