#include "stopsignal.h"

#include <csignal>

namespace rl::bench {
namespace {
volatile std::sig_atomic_t g_stopSignal = 0;
extern "C" void onStopSignal(int sig) { g_stopSignal = sig; }
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

void noteStopSignal(int sig)
{
    if (sig)
        g_stopSignal = sig;
}

bool stopBroadcast(MPI_Comm comm)
{
    int stop = g_stopSignal;
    MPI_Bcast(&stop, 1, MPI_INT, 0, comm);
    noteStopSignal(stop);
    return stop != 0;
}
} // namespace rl::bench
