#pragma once
// The showcase sections that live in their own files (one per library area), called from showcase.cpp.

#include <string>

/// trnsolver randomized NLA: one rsvd against LAPACK gesdd and one Hutch++ trace estimate.
void showcase_rnla();
/// trnsparse: the Matrix Market file installed with the package, solved with CG and CHOLMOD.
void showcase_trnsparse();
/// trntensor: the plan of a 3-operand contraction and the DF-MP2 energy of H2O by einsum.
void showcase_trntensor(const std::string& shared_data_dir);
