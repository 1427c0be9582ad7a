#include "importers/importer.h"

#include <algorithm>

namespace rl {
ProgressTicker::ProgressTicker(const ImportInput& input, const ImportOptions& options)
    : m_input(input), m_options(options), m_step(std::max<std::int64_t>(1, input.sizeOnDisk / 1000))
{
}

bool ProgressTicker::tick()
{
    if (m_cancelled)
        return false;
    if (!m_options.progress || !m_input.bytesReadOnDisk)
        return true;
    if ((++m_calls & 63u) != 0) // reading the position costs a call into zlib; sample it
        return true;
    const std::int64_t done = m_input.bytesReadOnDisk();
    if (done - m_lastReported < m_step)
        return true;
    m_lastReported = done;
    if (!m_options.progress(done, m_input.sizeOnDisk))
        m_cancelled = true;
    return !m_cancelled;
}
} // namespace rl
