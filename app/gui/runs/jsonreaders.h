#pragma once
// Readers of saved dialog configurations that keep the default when a hand-edited or older file has
// the wrong type for a key (BenchmarkConfig, GpuToolConfig).
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVariant>

namespace rl::jsonread {
inline void read(const QJsonObject& o, const char* k, QString& out)
{
    if (const auto v = o.value(QLatin1String(k)); v.isString())
        out = v.toString();
}
inline void read(const QJsonObject& o, const char* k, int& out)
{
    if (const auto v = o.value(QLatin1String(k)); v.isDouble())
        out = v.toInt(out);
}
inline void read(const QJsonObject& o, const char* k, bool& out)
{
    if (const auto v = o.value(QLatin1String(k)); v.isBool())
        out = v.toBool();
}
inline void read(const QJsonObject& o, const char* k, QStringList& out)
{
    if (const auto v = o.value(QLatin1String(k)); v.isArray())
        out = v.toVariant().toStringList();
}
} // namespace rl::jsonread
