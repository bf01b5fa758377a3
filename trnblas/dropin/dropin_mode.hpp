#pragma once
// How the drop-in library routes Level-3 GEMM calls: read once from TRNBLAS_MODE and
// TRNBLAS_PRODUCT_MODEL (docs/trnblas.md, "Drop-in BLAS library").

#include <trncore/options.hpp>

#include <optional>

namespace trnblas::dropin {

/// The options GEMMs run with, or nullopt for host (forward to OpenBLAS unchanged). An invalid variable
/// prints one line to stderr naming it, its value and the accepted values, and selects host.
const std::optional<trncore::Options>& routed_options();

/// Parses the two variables' values (null = unset); `complain` receives the message for an invalid one.
std::optional<trncore::Options> parse_mode(const char* mode, const char* product, void (*complain)(const char*));

/// A routed call trnblas refused (`what`: its exception's message; the call then runs on OpenBLAS): prints
/// one line to stderr the first time in the process, nothing later.
void note_fallback(const char* what) noexcept;

}  // namespace trnblas::dropin
