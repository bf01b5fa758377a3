#pragma once
/// @file
/// trncore_mpi, the suite's MPI layer (docs/distributed.md): Environment, Communicator and Request,
/// CollectiveCheck, ordered_sum, ProcessGrid and the block-cyclic layout. Link trnsci::trncore_mpi
/// (find_package(trncore COMPONENTS mpi)).

#include <trncore/mpi/block_cyclic.hpp>
#include <trncore/mpi/collective_check.hpp>
#include <trncore/mpi/communicator.hpp>
#include <trncore/mpi/environment.hpp>
#include <trncore/mpi/ordered_sum.hpp>
#include <trncore/mpi/ranges.hpp>
