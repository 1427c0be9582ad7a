#include "records/session.h"

#include <array>
#include <ctime>
#include <unistd.h>

namespace rl {
const char* toString(SessionStatus s)
{
    switch (s) {
    case SessionStatus::Running: return "running";
    case SessionStatus::Complete: return "complete";
    case SessionStatus::Cancelled: return "cancelled";
    case SessionStatus::Failed: return "failed";
    case SessionStatus::Incomplete: return "incomplete";
    }
    return "complete";
}

std::optional<SessionStatus> sessionStatusFromString(std::string_view s)
{
    for (auto st : {SessionStatus::Running, SessionStatus::Complete, SessionStatus::Cancelled,
                    SessionStatus::Failed, SessionStatus::Incomplete})
        if (s == toString(st))
            return st;
    return std::nullopt;
}

std::string nowIso8601() { return iso8601(std::time(nullptr)); }

std::string iso8601(std::time_t t)
{
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::array<char, 32> buf{};
    std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf.data();
}

std::string hostName()
{
    std::array<char, 256> buf{};
    if (gethostname(buf.data(), buf.size() - 1) != 0)
        return "unknown";
    return buf.data();
}
} // namespace rl
