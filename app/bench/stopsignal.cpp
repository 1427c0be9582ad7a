#include "stopsignal.h"

#include <csignal>

namespace rl::bench {
namespace {
volatile std::sig_atomic_t g_stopSignal = 0;
extern "C" void onStopSignal(int sig) { g_stopSignal = sig; }

// A signal another rank saw, kept here too: the command's end record names it.
void noteStopSignal(int sig)
{
    if (sig)
        g_stopSignal = sig;
}
} // namespace

void installStopHandlers()
{
    struct sigaction sa = {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
}

int stopSignal() { return g_stopSignal; }

bool stopBroadcast(MPI_Comm comm)
{
    int stop = g_stopSignal;
    MPI_Bcast(&stop, 1, MPI_INT, 0, comm);
    noteStopSignal(stop);
    return stop != 0;
}

bool stopAgreed(MPI_Comm comm)
{
    int mine = g_stopSignal, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
    if (!mine)
        noteStopSignal(any);
    return any != 0;
}
} // namespace rl::bench
