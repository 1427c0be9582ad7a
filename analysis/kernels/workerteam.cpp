#include "kernels/workerteam.h"

#include <pthread.h>
#include <sched.h>

namespace rl::kernels {
namespace {
std::vector<int> allowedCpus()
{
    std::vector<int> cpus;
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &allowed))
                cpus.push_back(cpu);
    return cpus;
}

bool pinTo(const std::vector<int>& cpus, int member)
{
    if (cpus.empty())
        return false;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[static_cast<std::size_t>(member) % cpus.size()], &one);
    return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
}
} // namespace

bool pinCurrentThread(int member) { return pinTo(allowedCpus(), member); }

WorkerTeam::WorkerTeam(int threads)
    : m_size(threads < 1 ? 1 : threads), m_start(m_size), m_done(m_size)
{
    // Read the allowed CPUs before pinning anyone: threads inherit the creator's mask.
    m_cpus = allowedCpus();
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) == 0) {
        const auto* bytes = reinterpret_cast<const unsigned char*>(&mine);
        m_callerAffinity.assign(bytes, bytes + sizeof mine);
    }
    for (int i = 1; i < m_size; ++i)
        m_threads.emplace_back([this, i] { loop(i); });
    // The caller is member 0 for the team's lifetime; its affinity is given back afterwards.
    pinTo(m_cpus, 0);
}

WorkerTeam::~WorkerTeam()
{
    m_quit = true; // published to the members by the barrier
    m_start.arrive_and_wait();
    for (auto& t : m_threads)
        t.join();
    if (m_callerAffinity.size() == sizeof(cpu_set_t))
        sched_setaffinity(0, sizeof(cpu_set_t), reinterpret_cast<const cpu_set_t*>(m_callerAffinity.data()));
}

void WorkerTeam::loop(int member)
{
    pinTo(m_cpus, member);
    for (;;) {
        m_start.arrive_and_wait();
        if (m_quit)
            return;
        (*m_fn)(member);
        m_done.arrive_and_wait();
    }
}

void WorkerTeam::run(const std::function<void(int)>& fn)
{
    m_fn = &fn;
    m_start.arrive_and_wait();
    fn(0);
    m_done.arrive_and_wait();
}
} // namespace rl::kernels
