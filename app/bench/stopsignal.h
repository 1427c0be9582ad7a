#pragma once
// SIGTERM and SIGINT end an MPI subcommand of ridgeline-bench between two measurements, never in
// the middle of one: the handler only notes the signal, and the command asks between measurements
// whether any rank saw one, so all ranks leave together and rank 0 still writes the end record.
#include <mpi.h>

namespace rl::bench {
void installStopHandlers();
int stopSignal(); // 0, or the signal that arrived (here or, once shared, on another rank)
// Rank 0 of `comm` decides for everyone in it (one broadcast); true when it saw a signal.
bool stopBroadcast(MPI_Comm comm);
// Any rank of `comm` that saw a signal stops them all (one reduction); true when one did.
bool stopAgreed(MPI_Comm comm);
} // namespace rl::bench
