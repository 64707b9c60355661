#include "mpi_session.hpp"

#include <mpi.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace handoff::bench::mpi {
namespace {

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed");
}

}  // namespace

mpi_session::mpi_session(int& argc, char**& argv) {
  check(MPI_Init(&argc, &argv), "MPI_Init");
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &ranks_), "MPI_Comm_size");
  MPI_Comm host = MPI_COMM_NULL;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host),
        "MPI_Comm_split_type");
  check(MPI_Comm_rank(host, &local_rank_), "MPI_Comm_rank");
  MPI_Comm_free(&host);
}

mpi_session::~mpi_session() {
  MPI_Finalize();
}

void mpi_session::barrier() const {
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

double mpi_session::max_over_ranks(double value) const {
  double result = 0.0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

std::uint64_t mpi_session::sum_over_ranks(std::uint64_t value) const {
  std::uint64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD), "MPI_Allreduce");
  return result;
}

ncclUniqueId mpi_session::broadcast_from_rank_0(const ncclUniqueId& id) const {
  ncclUniqueId shared = id;
  check(MPI_Bcast(&shared, sizeof(shared), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return shared;
}

void mpi_session::abort_all(const char* why, int exit_code) const noexcept {
  std::fprintf(stderr, "handoff_bench_mpi: rank %d of %d: %s; aborting every rank\n", rank_, ranks_,
               why);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::abort();
}

}  // namespace handoff::bench::mpi
