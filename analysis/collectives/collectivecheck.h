#pragma once
// Inputs and expected results for the runner's correctness check, free of MPI. Every input is a
// small integer, v(rank, i) = ((7 i + 13 rank) mod 31) - 15, so float32 sums over up to 2^19
// ranks are exact and max/min are exact in every type; the reduced value of element i depends
// only on i mod 31, so expectations cost O(count) whatever the rank count.
//
// Where results live (MPI semantics, also with MPI_IN_PLACE):
//   all_reduce      recv[0..count)            in place: the input is in recv
//   reduce_scatter  recv[0..count)            in place: recv holds all count x n inputs
//   all_gather      recv[0..count x n)        in place: own block at recv[rank x count]
//   broadcast       recv[0..count)            out of place the root sends from send
//   all_to_all      recv[0..count x n)        in place: the input is in recv
#include <cstdint>

#include "collectives/collectivesweep.h"

namespace rl {

double checkInputValue(int rank, std::int64_t index);

// Fills this rank's buffers for the checked call: inputs where the call reads them, and a value
// no correct result can hold everywhere the call writes, so an element MPI leaves untouched
// counts as wrong. send must hold shape.sendElems elements, recv shape.recvElems (in place the
// larger of the two: see bufferBytes()).
void fillCheckBuffers(const PlannedPoint& p, int rank, int nranks, void* send, void* recv);

// Number of elements of this rank's result that differ from the expectation for `expect`
// (normally the point that was run; a different one must give wrong elements).
std::int64_t countWrongElements(const PlannedPoint& expect, int rank, int nranks, const void* send,
                                const void* recv);
} // namespace rl
