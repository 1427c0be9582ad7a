#pragma once
// One process-wide cancel flag for the kernel benchmarks: SIGINT/SIGTERM set it, the sweeps check
// it between points and end their session "cancelled" instead of dying mid-line.
namespace rl::kernels {
bool cancelRequested();
void requestCancel();
void resetCancel();                // tests
void installCancelSignalHandlers(); // SIGINT, SIGTERM
} // namespace rl::kernels
