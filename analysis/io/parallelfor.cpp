#include "io/parallelfor.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older kernels refuse it (EINVAL)
#endif

namespace rl {

int workThreads(int wanted)
{
    if (wanted > 0)
        return wanted;
    return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 8);
}

void parallelFor(std::size_t count, const std::function<void(std::size_t)>& work, int threads)
{
    const auto n = std::min<std::size_t>(std::size_t(workThreads(threads)), count);
    if (n <= 1) {
        for (std::size_t i = 0; i < count; ++i)
            work(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::mutex failed;
    std::exception_ptr error;
    const auto worker = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < count;) {
            try {
                work(i);
            } catch (...) {
                std::lock_guard lock(failed);
                if (!error)
                    error = std::current_exception();
                next = count; // hand out no more
            }
        }
    };
    std::vector<std::thread> helpers;
    helpers.reserve(n - 1);
    for (std::size_t t = 1; t < n; ++t)
        helpers.emplace_back(worker);
    worker();
    for (auto& h : helpers)
        h.join();
    if (error)
        std::rethrow_exception(error);
}

void prefaultInParallel(void* data, std::size_t bytes, int threads)
{
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page; // whole pages only
    const auto to = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
    if (to <= from)
        return;
    const std::size_t pages = (to - from) / page;
    const auto n = static_cast<std::size_t>(workThreads(threads));
    // A few MB a call: the call holds the process's memory map lock, and a long one held up every
    // other thread's mmap (a GUI thread's allocation waited 180-230 ms behind a 272 MB call).
    constexpr std::uintptr_t chunk = std::uintptr_t(4) << 20;
    parallelFor(n, [&](std::size_t k) {
        const std::uintptr_t a = from + pages * k / n * page, b = from + pages * (k + 1) / n * page;
        for (std::uintptr_t c = a; c < b; c += chunk)
            madvise(reinterpret_cast<void*>(c), std::min(chunk, b - c), MADV_POPULATE_WRITE);
    }, threads);
}
} // namespace rl
