#pragma once
// The MPI side of handoff_bench_mpi: MPI launches the ranks and bootstraps NCCL (rank 0's unique
// id, broadcast), and the ranks agree on what each measured. MPI moves no device data here; NCCL
// does.

#include <nccl.h>

#include <cstdint>

namespace handoff::bench::mpi {

class mpi_session {
 public:
  mpi_session(int& argc, char**& argv);
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;
  ~mpi_session();

  int rank() const noexcept { return rank_; }
  int ranks() const noexcept { return ranks_; }
  int local_rank() const noexcept { return local_rank_; }  // among the ranks on this host

  void barrier() const;
  double max_over_ranks(double value) const;
  std::uint64_t sum_over_ranks(std::uint64_t value) const;
  ncclUniqueId broadcast_from_rank_0(const ncclUniqueId& id) const;

  // A rank that fails must take the others down with it: they would wait in a collective forever.
  [[noreturn]] void abort_all(const char* why, int exit_code) const noexcept;

 private:
  int rank_ = 0;
  int ranks_ = 1;
  int local_rank_ = 0;
};

}  // namespace handoff::bench::mpi
