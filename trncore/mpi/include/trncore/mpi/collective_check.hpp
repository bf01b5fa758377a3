#pragma once
/// @file
/// Argument checking for distributed routines: every rank checks its own arguments, one collective shares
/// the outcomes, and if any rank found a problem every rank throws the same trncore::Error — so bad input on
/// one rank never leaves the others waiting in a collective it will not join.

#include <trncore/mpi/communicator.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace trncore::mpi {

/// The trncore::Error subclass a recorded problem becomes.
enum class ErrorKind : std::uint8_t {
  invalid_argument,    ///< trncore::InvalidArgument
  dimension_mismatch,  ///< trncore::DimensionMismatch
  not_supported,       ///< trncore::NotSupported
  resource_exhausted,  ///< trncore::ResourceExhausted
  target_not_met       ///< trncore::TargetNotMet (e.g. a local sim plan that cannot certify its share of a target)
};

/// Collects one routine's argument problems on every rank and raises them on all ranks together.
///
/// Usage: construct with the routine's name, record with require()/same()/capture(), then call finish()
/// (collective) before the routine's first other communication. finish() throws on every rank when any
/// rank recorded a problem: values that must agree and do not (DimensionMismatch naming each rank's value)
/// first, else the lowest failing rank's first problem, its message prefixed with "on rank r" (and the
/// other failing ranks listed).
class CollectiveCheck {
 public:
  /// @param comm      the routine's communicator (every rank of it must call finish())
  /// @param function  the public function, e.g. "trnblas::mpi::gemm"
  CollectiveCheck(const Communicator& comm, std::string_view function);

  /// Records a problem of `kind` unless `ok` (only the first problem on this rank is kept).
  CollectiveCheck& require(bool ok, ErrorKind kind, std::string_view problem, std::string_view hint);
  /// Records `value` under `name`: finish() fails when the ranks disagree about it.
  CollectiveCheck& same(std::string_view name, std::int64_t value);
  /// Runs `checks` (local validation that may throw a trncore::Error) and records what it threw, keeping
  /// the class (InvalidArgument, DimensionMismatch, NotSupported, ResourceExhausted, TargetNotMet; others as
  /// InvalidArgument) and the message.
  template <class F>
  CollectiveCheck& capture(F&& checks) {
    try {
      checks();
    } catch (const trncore::Error& e) {
      record(e);
    }
    return *this;
  }
  /// True when this rank has recorded a problem so far.
  bool failed_locally() const noexcept { return failed_; }
  /// The function name given at construction.
  const std::string& function() const noexcept { return function_; }
  /// One collective (two allgathers): throws the agreed error on every rank, or returns on every rank.
  /// @throws DimensionMismatch, InvalidArgument, NotSupported, ResourceExhausted or TargetNotMet as recorded;
  /// CommunicationError when MPI fails.
  void finish();

 private:
  void record(const trncore::Error& e);

  const Communicator& comm_;
  std::string function_;
  bool failed_ = false;
  ErrorKind kind_ = ErrorKind::invalid_argument;
  std::string problem_;
  std::string hint_;
  std::vector<std::string> names_;
  std::vector<std::int64_t> values_;
};

}  // namespace trncore::mpi
