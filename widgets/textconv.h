#pragma once
// The conversion the chart and panel files all need: std::string to QString for display.
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace rl {
inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QStringList qs(const std::vector<std::string>& list)
{
    QStringList out;
    for (const auto& s : list)
        out << qs(s);
    return out;
}
} // namespace rl
