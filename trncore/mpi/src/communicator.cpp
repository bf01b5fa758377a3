#include <trncore/mpi/communicator.hpp>

#include <string>

namespace trncore::mpi {

namespace detail {

void check(int rc, std::string_view call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw CommunicationError(call, "MPI returned error " + std::to_string(rc) + ": " + std::string(text, length),
                           "check the MPI installation and that every rank makes the same calls");
}

int to_count(std::int64_t value, std::string_view function) {
  if (value < 0 || value > std::numeric_limits<int>::max())
    throw ResourceExhausted(function, "a count of " + std::to_string(value) + " elements does not fit MPI's int counts",
                            "split the data into parts of at most 2^31 - 1 elements");
  return static_cast<int>(value);
}

}  // namespace detail

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
    request_ = std::exchange(other.request_, MPI_REQUEST_NULL);
  }
  return *this;
}

Request::~Request() {
  // A destructor cannot throw: a failing wait here has already been reported by MPI_ERRORS_RETURN's code,
  // which nobody can receive; the buffers stay valid until MPI_Wait returns either way.
  if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
}

void Request::wait() {
  if (request_ == MPI_REQUEST_NULL) return;
  detail::check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait");
}

Communicator::Communicator(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw CommunicationError("trncore::mpi::Communicator", "MPI is not initialised",
                             "create a trncore::mpi::Environment (or call MPI_Init_thread) in main() first");
  if (comm == MPI_COMM_NULL)
    throw InvalidArgument("trncore::mpi::Communicator", "the communicator is MPI_COMM_NULL",
                          "pass a valid communicator, e.g. MPI_COMM_WORLD");
  detail::check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

Communicator Communicator::world() { return Communicator(MPI_COMM_WORLD); }

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

Communicator::~Communicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

Communicator Communicator::split(int color, int key) const {
  MPI_Comm part = MPI_COMM_NULL;
  detail::check(MPI_Comm_split(comm_, color, key, &part), "MPI_Comm_split");
  // The split is already private to the library; duplicate it into an owning Communicator and free it.
  Communicator out(part);
  MPI_Comm_free(&part);
  return out;
}

void Communicator::barrier() const { detail::check(MPI_Barrier(comm_), "MPI_Barrier"); }

bool Communicator::all_of(bool value) const {
  int in = value ? 1 : 0, out = 0;
  detail::check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, comm_), "MPI_Allreduce");
  return out != 0;
}

bool Communicator::any_of(bool value) const {
  int in = value ? 1 : 0, out = 0;
  detail::check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, comm_), "MPI_Allreduce");
  return out != 0;
}

std::vector<std::int64_t> Communicator::allgather_counts(std::int64_t count, std::string_view) const {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(size_));
  detail::check(MPI_Allgather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm_), "MPI_Allgather");
  return counts;
}

void Communicator::exchange_counts(std::span<const std::int64_t> send_counts,
                                   std::span<std::int64_t> recv_counts) const {
  if (static_cast<int>(send_counts.size()) != size_)
    throw InvalidArgument(
        "trncore::mpi::Communicator::alltoallv",
        "send_counts has " + std::to_string(send_counts.size()) + " entries for " + std::to_string(size_) + " ranks",
        "pass one count per rank of the communicator");
  detail::check(MPI_Alltoall(send_counts.data(), 1, MPI_INT64_T, recv_counts.data(), 1, MPI_INT64_T, comm_),
                "MPI_Alltoall");
}

std::int64_t Communicator::displacements(std::span<const std::int64_t> counts, std::vector<int>& c, std::vector<int>& d,
                                         std::string_view what) {
  const std::string function = "trncore::mpi::Communicator::" + std::string(what);
  std::int64_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    c[r] = detail::to_count(counts[r], function);
    d[r] = detail::to_count(total, function);
    total += counts[r];
  }
  detail::to_count(total, function);
  return total;
}

}  // namespace trncore::mpi
