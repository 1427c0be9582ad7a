#pragma once
// Independent pieces of one job spread over the machine's cores: the loader's decode, the copy of
// each curve's points and the charts of one selection (issue 26 item 11). A shared counter hands
// out the pieces, so one long piece does not hold up the others.
#include <cstddef>
#include <functional>

namespace rl {

// The threads a job uses: `wanted` when positive, else the hardware threads, 1 to 8.
int workThreads(int wanted = 0);

// Runs work(i) for every i in [0, count) on up to `threads` threads (workThreads(threads); the
// calling thread is one of them) and returns when all are done. An exception thrown by a piece
// stops the handing out and is rethrown here, once every thread has stopped.
void parallelFor(std::size_t count, const std::function<void(std::size_t)>& work, int threads = 0);

// Maps in the pages of [data, data + bytes), a share on each of `threads` threads, before one
// thread fills them: a fresh 272 MB vector took 185 ms to build on one thread, mostly in the
// kernel's page faults, and 110 ms after this. Best effort: nothing is done where the kernel
// cannot (Linux before 5.14).
void prefaultInParallel(void* data, std::size_t bytes, int threads = 0);
} // namespace rl
