#pragma once
// A fixed team of pinned threads that run one function together and finish together, so a timed
// region covers all of them. The calling thread is member 0; the others wait on a barrier.
#include <barrier>
#include <functional>
#include <thread>
#include <vector>

namespace rl::kernels {

class WorkerTeam
{
public:
    // Pins member i to CPU i modulo the CPUs this process may use (best effort).
    explicit WorkerTeam(int threads);
    ~WorkerTeam();
    WorkerTeam(const WorkerTeam&) = delete;
    WorkerTeam& operator=(const WorkerTeam&) = delete;

    int size() const { return m_size; }
    // Runs fn(member) on every member and returns when all are done.
    void run(const std::function<void(int member)>& fn);

private:
    void loop(int member);

    int m_size;
    std::barrier<> m_start;
    std::barrier<> m_done;
    const std::function<void(int)>* m_fn = nullptr;
    bool m_quit = false;
    std::vector<int> m_cpus;
    std::vector<unsigned char> m_callerAffinity; // restored on destruction (cpu_set_t bytes)
    std::vector<std::thread> m_threads;
};

// Pins the calling thread to the member-th allowed CPU; false when not possible.
bool pinCurrentThread(int member);
} // namespace rl::kernels
