#include "kernels/cancelflag.h"

#include <atomic>
#include <csignal>

namespace rl::kernels {
namespace {
// Lock-free, so setting it is async-signal-safe.
std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onCancelSignal(int) { g_cancel.store(true, std::memory_order_relaxed); }
} // namespace

bool cancelRequested() { return g_cancel.load(std::memory_order_relaxed); }
void requestCancel() { g_cancel.store(true); }
void resetCancel() { g_cancel.store(false); }

void installCancelSignalHandlers()
{
    struct sigaction sa = {};
    sa.sa_handler = onCancelSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}
} // namespace rl::kernels
