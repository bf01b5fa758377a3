#include <trncore/mpi/collective_check.hpp>

#include <string>

namespace trncore::mpi {

namespace {

[[noreturn]] void raise(ErrorKind kind, std::string_view function, const std::string& problem,
                        const std::string& hint) {
  switch (kind) {
    case ErrorKind::dimension_mismatch: throw DimensionMismatch(function, problem, hint);
    case ErrorKind::not_supported: throw NotSupported(function, problem, hint);
    case ErrorKind::resource_exhausted: throw ResourceExhausted(function, problem, hint);
    case ErrorKind::target_not_met: throw TargetNotMet(function, problem, hint);
    case ErrorKind::invalid_argument: break;
  }
  throw InvalidArgument(function, problem, hint);
}

// Each rank's outcome travels as bytes: [failed][kind] problem '\0' hint, plus the names of its same()
// values ('\n'-separated) after a second '\0'.
std::string encode(bool failed, ErrorKind kind, const std::string& problem, const std::string& hint,
                   const std::vector<std::string>& names) {
  std::string out;
  out.push_back(failed ? '1' : '0');
  out.push_back(static_cast<char>('0' + static_cast<int>(kind)));
  out += problem;
  out.push_back('\0');
  out += hint;
  out.push_back('\0');
  for (const auto& n : names) out += n + '\n';
  return out;
}

struct Outcome {
  bool failed = false;
  ErrorKind kind = ErrorKind::invalid_argument;
  std::string problem, hint, names;
};

Outcome decode(std::string_view bytes) {
  Outcome o;
  o.failed = bytes.size() > 0 && bytes[0] == '1';
  o.kind = bytes.size() > 1 ? static_cast<ErrorKind>(bytes[1] - '0') : ErrorKind::invalid_argument;
  const auto p_end = bytes.find('\0', 2);
  o.problem = std::string(bytes.substr(2, p_end - 2));
  const auto h_end = bytes.find('\0', p_end + 1);
  o.hint = std::string(bytes.substr(p_end + 1, h_end - p_end - 1));
  o.names = std::string(bytes.substr(h_end + 1));
  return o;
}

}  // namespace

CollectiveCheck::CollectiveCheck(const Communicator& comm, std::string_view function)
    : comm_(comm), function_(function) {}

CollectiveCheck& CollectiveCheck::require(bool ok, ErrorKind kind, std::string_view problem, std::string_view hint) {
  if (!ok && !failed_) {
    failed_ = true;
    kind_ = kind;
    problem_ = problem;
    hint_ = hint;
  }
  return *this;
}

CollectiveCheck& CollectiveCheck::same(std::string_view name, std::int64_t value) {
  names_.emplace_back(name);
  values_.push_back(value);
  return *this;
}

void CollectiveCheck::record(const trncore::Error& e) {
  ErrorKind kind = ErrorKind::invalid_argument;
  if (dynamic_cast<const DimensionMismatch*>(&e))
    kind = ErrorKind::dimension_mismatch;
  else if (dynamic_cast<const NotSupported*>(&e))
    kind = ErrorKind::not_supported;
  else if (dynamic_cast<const ResourceExhausted*>(&e))
    kind = ErrorKind::resource_exhausted;
  else if (dynamic_cast<const TargetNotMet*>(&e))
    kind = ErrorKind::target_not_met;
  const std::string problem = e.function() == function_ ? e.problem() : e.function() + ": " + e.problem();
  require(false, kind, problem, e.hint());
}

void CollectiveCheck::finish() {
  const auto mine = encode(failed_, kind_, problem_, hint_, names_);
  const auto bytes = comm_.allgatherv(std::span<const char>(mine.data(), mine.size()));
  const auto counts_bytes = comm_.allgatherv(std::span<const std::int64_t>(
      std::vector<std::int64_t>{static_cast<std::int64_t>(mine.size()), static_cast<std::int64_t>(values_.size())}));
  const auto values = comm_.allgatherv(std::span<const std::int64_t>(values_));

  const int ranks = comm_.size();
  std::vector<Outcome> outcomes;
  std::vector<std::span<const std::int64_t>> rank_values;
  std::size_t at = 0, vat = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto len = static_cast<std::size_t>(counts_bytes[2 * static_cast<std::size_t>(r)]);
    const auto nv = static_cast<std::size_t>(counts_bytes[2 * static_cast<std::size_t>(r) + 1]);
    outcomes.push_back(decode(std::string_view(bytes.data() + at, len)));
    rank_values.emplace_back(values.data() + vat, nv);
    at += len;
    vat += nv;
  }

  // Values that must agree: compared with rank 0's, in the order recorded.
  for (int r = 1; r < ranks; ++r) {
    if (outcomes[static_cast<std::size_t>(r)].names != outcomes[0].names) {
      raise(ErrorKind::invalid_argument, function_,
            "rank " + std::to_string(r) + " checked different arguments than rank 0 (a different call on that rank)",
            "make the same call with the same arguments on every rank of the communicator");
    }
  }
  for (std::size_t i = 0; i < names_.size(); ++i) {
    std::string differing;
    int distinct = 0;
    for (int r = 1; r < ranks; ++r) {
      if (rank_values[static_cast<std::size_t>(r)][i] != rank_values[0][i]) {
        if (distinct++ < 4)
          differing +=
              ", rank " + std::to_string(r) + " has " + std::to_string(rank_values[static_cast<std::size_t>(r)][i]);
      }
    }
    if (distinct > 0) {
      raise(ErrorKind::dimension_mismatch, function_,
            "'" + names_[i] + "' differs across ranks: rank 0 has " + std::to_string(rank_values[0][i]) + differing +
                (distinct > 4 ? ", …" : ""),
            "pass the same '" + names_[i] + "' on every rank");
    }
  }
  int first = -1;
  std::string others;
  for (int r = 0; r < ranks; ++r) {
    if (!outcomes[static_cast<std::size_t>(r)].failed) continue;
    if (first < 0)
      first = r;
    else
      others += (others.empty() ? "" : ", ") + std::to_string(r);
  }
  if (first >= 0) {
    const auto& o = outcomes[static_cast<std::size_t>(first)];
    raise(o.kind, function_,
          "on rank " + std::to_string(first) + ": " + o.problem +
              (others.empty() ? "" : " (ranks " + others + " also rejected their arguments)"),
          o.hint);
  }
}

}  // namespace trncore::mpi
