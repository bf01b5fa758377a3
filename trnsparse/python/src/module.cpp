// The trnsparse Python extension (trnsparse._trnsparse).
#include <trnsci_python/bindings.hpp>

#include <trnsparse/version.hpp>

#include <string>

namespace py = pybind11;
namespace tp = trnsci_python;

PYBIND11_MODULE(_trnsparse, m) {
  m.doc() = "trnsparse: see docs/python.md";
  tp::init_module(m);
  m.def("version", [] { return std::string(trnsparse::version()); }, "The trnsparse library's version.");
}
