#pragma once
/// @file
/// The suite's thin RAII layer over MPI (docs/distributed.md): a communicator that owns a duplicate of the
/// caller's, typed point-to-point and collective calls with 64-bit counts, and the MPI datatype of each
/// element type. Only exact, order-independent reductions are offered (max, min, and, or); floating-point
/// sums go through ordered_sum(), whose order is fixed, never through MPI_Allreduce, whose order is not.

#include <trncore/error.hpp>

#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace trncore::mpi {

/// An MPI call failed (the library runs its communicators with MPI_ERRORS_RETURN): the message names the
/// MPI function and MPI's own error string.
class CommunicationError : public Error {
  using Error::Error;
};

namespace detail {
/// Throws CommunicationError naming `call` and MPI's error string unless rc is MPI_SUCCESS.
void check(int rc, std::string_view call);
/// Largest element count one MPI call carries: counts are int.
inline constexpr std::int64_t max_chunk = std::int64_t{1} << 30;
/// `value` as an int count, or ResourceExhausted naming `function` when it does not fit MPI's int.
int to_count(std::int64_t value, std::string_view function);
}  // namespace detail

/// The MPI datatype of T: float, double, std::complex<float|double>, signed and unsigned 8/32/64-bit
/// integers, char, std::byte.
template <class T>
MPI_Datatype datatype() noexcept {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<U, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<U, std::complex<float>>)
    return MPI_C_FLOAT_COMPLEX;
  else if constexpr (std::is_same_v<U, std::complex<double>>)
    return MPI_C_DOUBLE_COMPLEX;
  else if constexpr (std::is_same_v<U, std::int32_t>)
    return MPI_INT32_T;
  else if constexpr (std::is_same_v<U, std::int64_t>)
    return MPI_INT64_T;
  else if constexpr (std::is_same_v<U, std::uint32_t>)
    return MPI_UINT32_T;
  else if constexpr (std::is_same_v<U, std::uint64_t>)
    return MPI_UINT64_T;
  else if constexpr (std::is_same_v<U, std::int8_t>)
    return MPI_INT8_T;
  else if constexpr (std::is_same_v<U, std::uint8_t>)
    return MPI_UINT8_T;
  else if constexpr (std::is_same_v<U, char>)
    return MPI_CHAR;
  else if constexpr (std::is_same_v<U, std::byte>)
    return MPI_BYTE;
  else
    static_assert(sizeof(U) == 0, "trncore::mpi::datatype: no MPI datatype for this type");
}

/// A pending non-blocking operation. Move-only; the destructor waits for it (an operation is never left
/// dangling over freed buffers).
class Request {
 public:
  Request() = default;
  /// Takes ownership of `request` (MPI_REQUEST_NULL for an empty Request).
  explicit Request(MPI_Request request) noexcept : request_(request) {}
  /// Takes over `other`'s pending operation (other becomes empty).
  Request(Request&& other) noexcept : request_(std::exchange(other.request_, MPI_REQUEST_NULL)) {}
  /// Waits for this Request's operation, then takes over `other`'s.
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();
  /// Blocks until the operation completes. @throws CommunicationError when MPI_Wait fails.
  void wait();
  /// True when no operation is pending.
  bool done() const noexcept { return request_ == MPI_REQUEST_NULL; }

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
};

/// A communicator the library owns: a duplicate (MPI_Comm_dup) of the caller's, so the library's messages
/// never match the caller's, with MPI_ERRORS_RETURN so failures become CommunicationError. Move-only; the
/// destructor frees the duplicate. Calls on one Communicator must come from one thread at a time (MPI is
/// initialised with MPI_THREAD_FUNNELED by Environment).
class Communicator {
 public:
  /// Duplicates `comm`. @throws CommunicationError when MPI is not initialised or the duplicate fails.
  explicit Communicator(MPI_Comm comm);
  /// A duplicate of MPI_COMM_WORLD.
  static Communicator world();
  /// Takes over `other`'s communicator (other holds MPI_COMM_NULL afterwards).
  Communicator(Communicator&& other) noexcept
      : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_) {}
  /// Frees this communicator, then takes over `other`'s.
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  ~Communicator();

  /// This process's rank in [0, size()).
  int rank() const noexcept { return rank_; }
  /// Number of processes.
  int size() const noexcept { return size_; }
  /// The owned MPI communicator, for calls this layer does not wrap (do not free it).
  MPI_Comm native() const noexcept { return comm_; }
  /// Another duplicate of the same group (MPI_Comm_dup).
  Communicator duplicate() const { return Communicator(comm_); }
  /// MPI_Comm_split: processes with the same color form one communicator, ranked by key (ties by rank).
  /// Collective. @throws CommunicationError.
  Communicator split(int color, int key) const;
  /// MPI_Barrier. Collective.
  void barrier() const;

  /// Broadcasts `data` from `root` to every rank (each passes a span of the same size). Collective.
  template <class T>
  void broadcast(std::span<T> data, int root) const {
    for (std::int64_t at = 0; at < static_cast<std::int64_t>(data.size()); at += detail::max_chunk) {
      const auto n = std::min<std::int64_t>(detail::max_chunk, static_cast<std::int64_t>(data.size()) - at);
      detail::check(MPI_Bcast(data.data() + at, static_cast<int>(n), datatype<T>(), root, comm_), "MPI_Bcast");
    }
  }
  /// Blocking send of `data` to `dest` with `tag`.
  template <class T>
  void send(std::span<const T> data, int dest, int tag) const {
    for (std::int64_t at = 0; at < static_cast<std::int64_t>(data.size()); at += detail::max_chunk) {
      const auto n = std::min<std::int64_t>(detail::max_chunk, static_cast<std::int64_t>(data.size()) - at);
      detail::check(MPI_Send(data.data() + at, static_cast<int>(n), datatype<T>(), dest, tag, comm_), "MPI_Send");
    }
  }
  /// Blocking receive of exactly data.size() elements from `source` with `tag`.
  template <class T>
  void recv(std::span<T> data, int source, int tag) const {
    for (std::int64_t at = 0; at < static_cast<std::int64_t>(data.size()); at += detail::max_chunk) {
      const auto n = std::min<std::int64_t>(detail::max_chunk, static_cast<std::int64_t>(data.size()) - at);
      detail::check(
          MPI_Recv(data.data() + at, static_cast<int>(n), datatype<T>(), source, tag, comm_, MPI_STATUS_IGNORE),
          "MPI_Recv");
    }
  }
  /// Non-blocking send (at most 2³⁰ elements). The buffer must outlive the Request.
  template <class T>
  Request isend(std::span<const T> data, int dest, int tag) const {
    MPI_Request r = MPI_REQUEST_NULL;
    detail::check(MPI_Isend(data.data(), detail::to_count(static_cast<std::int64_t>(data.size()), "MPI_Isend"),
                            datatype<T>(), dest, tag, comm_, &r),
                  "MPI_Isend");
    return Request(r);
  }
  /// Non-blocking receive (at most 2³⁰ elements). The buffer must outlive the Request.
  template <class T>
  Request irecv(std::span<T> data, int source, int tag) const {
    MPI_Request r = MPI_REQUEST_NULL;
    detail::check(MPI_Irecv(data.data(), detail::to_count(static_cast<std::int64_t>(data.size()), "MPI_Irecv"),
                            datatype<T>(), source, tag, comm_, &r),
                  "MPI_Irecv");
    return Request(r);
  }
  /// Every rank's `data` (sizes may differ), concatenated in rank order, on every rank. Collective.
  /// @throws trncore::ResourceExhausted when the total exceeds MPI's int counts.
  template <class T>
  std::vector<T> allgatherv(std::span<const T> data) const {
    const auto counts = allgather_counts(static_cast<std::int64_t>(data.size()), "allgatherv");
    std::vector<int> c(counts.size()), d(counts.size());
    const auto total = displacements(counts, c, d, "allgatherv");
    std::vector<T> out(static_cast<std::size_t>(total));
    detail::check(MPI_Allgatherv(data.data(), c[static_cast<std::size_t>(rank_)], datatype<T>(), out.data(), c.data(),
                                 d.data(), datatype<T>(), comm_),
                  "MPI_Allgatherv");
    return out;
  }
  /// Every rank's `data` concatenated in rank order on `root` (empty elsewhere). Collective.
  template <class T>
  std::vector<T> gatherv(std::span<const T> data, int root) const {
    const auto counts = allgather_counts(static_cast<std::int64_t>(data.size()), "gatherv");
    std::vector<int> c(counts.size()), d(counts.size());
    const auto total = displacements(counts, c, d, "gatherv");
    std::vector<T> out(rank_ == root ? static_cast<std::size_t>(total) : 0);
    detail::check(MPI_Gatherv(data.data(), c[static_cast<std::size_t>(rank_)], datatype<T>(), out.data(), c.data(),
                              d.data(), datatype<T>(), root, comm_),
                  "MPI_Gatherv");
    return out;
  }
  /// All-to-all with per-destination counts: `data` holds send_counts[0] elements for rank 0, then
  /// send_counts[1] for rank 1, …; returns what every rank sent to this one, in source-rank order. Collective.
  template <class T>
  std::vector<T> alltoallv(std::span<const T> data, std::span<const std::int64_t> send_counts) const {
    std::vector<int> sc(static_cast<std::size_t>(size_)), sd(sc.size()), rc(sc.size()), rd(sc.size());
    std::vector<std::int64_t> recv_counts(sc.size());
    exchange_counts(send_counts, recv_counts);
    displacements(send_counts, sc, sd, "alltoallv");
    const auto total = displacements(recv_counts, rc, rd, "alltoallv");
    std::vector<T> out(static_cast<std::size_t>(total));
    detail::check(MPI_Alltoallv(data.data(), sc.data(), sd.data(), datatype<T>(), out.data(), rc.data(), rd.data(),
                                datatype<T>(), comm_),
                  "MPI_Alltoallv");
    return out;
  }
  /// The maximum of `value` over all ranks (exact). Collective.
  template <class T>
  T allreduce_max(T value) const {
    T out{};
    detail::check(MPI_Allreduce(&value, &out, 1, datatype<T>(), MPI_MAX, comm_), "MPI_Allreduce");
    return out;
  }
  /// The minimum of `value` over all ranks (exact). Collective.
  template <class T>
  T allreduce_min(T value) const {
    T out{};
    detail::check(MPI_Allreduce(&value, &out, 1, datatype<T>(), MPI_MIN, comm_), "MPI_Allreduce");
    return out;
  }
  /// True on every rank when `value` is true on every rank. Collective.
  bool all_of(bool value) const;
  /// True on every rank when `value` is true on some rank. Collective.
  bool any_of(bool value) const;

 private:
  std::vector<std::int64_t> allgather_counts(std::int64_t count, std::string_view what) const;
  void exchange_counts(std::span<const std::int64_t> send_counts, std::span<std::int64_t> recv_counts) const;
  static std::int64_t displacements(std::span<const std::int64_t> counts, std::vector<int>& c, std::vector<int>& d,
                                    std::string_view what);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace trncore::mpi
