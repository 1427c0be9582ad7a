#include "benchmarkconfig.h"
#include "jsonreaders.h"

#include <QJsonArray>
#include <QRegularExpression>

#include "collectives/collectivesweep.h"
#include "units/units.h"

namespace rl {

QString BenchmarkConfig::validate() const
{
    if (ops.isEmpty())
        return QObject::tr("Choose at least one operation.");
    if (dtypes.isEmpty())
        return QObject::tr("Choose at least one data type.");
    try { // the runner's own parsers, so the dialog never builds a command the runner rejects
        parseOpList(ops.join(u',').toStdString());
        parseDtypeList(dtypes.join(u',').toStdString());
        parseRedopList(redop.toStdString());
    } catch (const std::invalid_argument& e) {
        return QString::fromStdString(e.what());
    }
    const auto lo = units::parseBytes(minBytes.toStdString());
    const auto hi = units::parseBytes(maxBytes.toStdString());
    if (!lo || *lo <= 0)
        return QObject::tr("Minimum size '%1' is not a size such as 8, 1K or 256M.").arg(minBytes);
    if (!hi || *hi <= 0)
        return QObject::tr("Maximum size '%1' is not a size such as 8, 1K or 256M.").arg(maxBytes);
    if (*hi < *lo)
        return QObject::tr("Maximum size is below the minimum size.");
    if (factor < 2)
        return QObject::tr("The size factor must be at least 2.");
    if (np < 1)
        return QObject::tr("At least one rank is needed.");
    if (launcher == Launcher::Hostfile && hostfile.isEmpty())
        return QObject::tr("Choose a hostfile.");
    if (launcher == Launcher::Template && !launchTemplate.contains(QStringLiteral("{bench}")))
        return QObject::tr("The launcher template must contain {bench}.");
    return {};
}

std::vector<std::int64_t> BenchmarkConfig::sizes() const
{
    const auto lo = units::parseBytes(minBytes.toStdString());
    const auto hi = units::parseBytes(maxBytes.toStdString());
    std::vector<std::int64_t> out;
    if (!lo || !hi || *lo <= 0 || *hi < *lo || factor < 2)
        return out;
    for (std::int64_t s = *lo; s <= *hi; s *= factor) {
        out.push_back(s);
        if (s > INT64_MAX / factor)
            break;
    }
    return out;
}

int BenchmarkConfig::expectedPoints() const
{
    return static_cast<int>(ops.size() * dtypes.size() * sizes().size()) * (inPlace ? 2 : 1);
}

QStringList BenchmarkConfig::runnerArguments() const
{
    QStringList args{QStringLiteral("--ops"), ops.join(u','),
                     QStringLiteral("-b"), minBytes,
                     QStringLiteral("-e"), maxBytes,
                     QStringLiteral("-f"), QString::number(factor),
                     QStringLiteral("-d"), dtypes.join(u','),
                     QStringLiteral("-o"), redop,
                     QStringLiteral("--inplace"), inPlace ? QStringLiteral("both") : QStringLiteral("0")};
    if (iterations > 0)
        args << QStringLiteral("-n") << QString::number(iterations);
    if (warmup >= 0)
        args << QStringLiteral("-w") << QString::number(warmup);
    return args;
}

QStringList BenchmarkConfig::cliArguments(const QString& workspace) const
{
    QStringList args{QStringLiteral("--db"), workspace, QStringLiteral("run"), QStringLiteral("collectives"),
                     QStringLiteral("--np"), QString::number(np)};
    switch (launcher) {
    case Launcher::LocalMpirun:
        break;
    case Launcher::Hostfile:
        args << QStringLiteral("--hostfile") << hostfile;
        break;
    case Launcher::Template:
        args << QStringLiteral("--launcher") << launchTemplate << QStringLiteral("--nodes") << QString::number(nodes)
             << QStringLiteral("--ppn") << QString::number(ppn);
        break;
    }
    if (launcher != Launcher::Template && !mpirun.isEmpty())
        args << QStringLiteral("--mpirun") << mpirun;
    if (launcher != Launcher::Template)
        for (const auto& a : mpirunOptions.split(u' ', Qt::SkipEmptyParts))
            args << QStringLiteral("--mpirun-arg") << a;
    if (!title.isEmpty())
        args << QStringLiteral("--title") << title;
    args << QStringLiteral("--");
    args << runnerArguments();
    return args;
}

namespace {
const char* launcherName(BenchmarkConfig::Launcher l)
{
    switch (l) {
    case BenchmarkConfig::Launcher::LocalMpirun: return "local";
    case BenchmarkConfig::Launcher::Hostfile: return "hostfile";
    case BenchmarkConfig::Launcher::Template: return "template";
    }
    return "local";
}

using jsonread::read;
} // namespace

QJsonObject BenchmarkConfig::toJson() const
{
    return QJsonObject{{QStringLiteral("version"), kJsonVersion},
                       {QStringLiteral("ops"), QJsonArray::fromStringList(ops)},
                       {QStringLiteral("minBytes"), minBytes},
                       {QStringLiteral("maxBytes"), maxBytes},
                       {QStringLiteral("factor"), factor},
                       {QStringLiteral("dtypes"), QJsonArray::fromStringList(dtypes)},
                       {QStringLiteral("redop"), redop},
                       {QStringLiteral("inPlace"), inPlace},
                       {QStringLiteral("iterations"), iterations},
                       {QStringLiteral("warmup"), warmup},
                       {QStringLiteral("np"), np},
                       {QStringLiteral("launcher"), QLatin1String(launcherName(launcher))},
                       {QStringLiteral("hostfile"), hostfile},
                       {QStringLiteral("mpirun"), mpirun},
                       {QStringLiteral("mpirunOptions"), mpirunOptions},
                       {QStringLiteral("launchTemplate"), launchTemplate},
                       {QStringLiteral("nodes"), nodes},
                       {QStringLiteral("ppn"), ppn},
                       {QStringLiteral("title"), title}};
}

BenchmarkConfig BenchmarkConfig::fromJson(const QJsonObject& json)
{
    BenchmarkConfig c;
    if (json.value(QStringLiteral("version")).toInt() != kJsonVersion)
        return c;
    read(json, "ops", c.ops);
    read(json, "minBytes", c.minBytes);
    read(json, "maxBytes", c.maxBytes);
    read(json, "factor", c.factor);
    read(json, "dtypes", c.dtypes);
    read(json, "redop", c.redop);
    read(json, "inPlace", c.inPlace);
    read(json, "iterations", c.iterations);
    read(json, "warmup", c.warmup);
    read(json, "np", c.np);
    for (auto l : {Launcher::LocalMpirun, Launcher::Hostfile, Launcher::Template})
        if (json.value(QStringLiteral("launcher")).toString() == QLatin1String(launcherName(l)))
            c.launcher = l;
    read(json, "hostfile", c.hostfile);
    read(json, "mpirun", c.mpirun);
    read(json, "mpirunOptions", c.mpirunOptions);
    read(json, "launchTemplate", c.launchTemplate);
    read(json, "nodes", c.nodes);
    read(json, "ppn", c.ppn);
    read(json, "title", c.title);
    return c;
}

QString shellJoin(const QString& program, const QStringList& arguments)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_./:=,+@%-]+$"));
    QStringList parts;
    for (const auto& a : QStringList{program} + arguments) {
        if (!a.isEmpty() && safe.match(a).hasMatch())
            parts << a;
        else
            parts << u'\'' + QString(a).replace(u'\'', QStringLiteral("'\\''")) + u'\'';
    }
    return parts.join(u' ');
}
} // namespace rl
