// The trnsolver Python extension (trnsolver._trnsolver).
#include <trnsci_python/bindings.hpp>

#include <trnsolver/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnsolver, m) {
  m.doc() = "trnsolver: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trnsolver::version()); }, "The trnsolver library's version.");
}
