#pragma once
/// @file
/// The routine families of the trnblas Python extension, one translation unit each.

#include <pybind11/pybind11.h>

namespace trnblas_python {

void bind_level1(pybind11::module_& m);
void bind_level2(pybind11::module_& m);
void bind_gemm(pybind11::module_& m);
void bind_level3(pybind11::module_& m);
void bind_dfmp2(pybind11::module_& m);

}  // namespace trnblas_python
