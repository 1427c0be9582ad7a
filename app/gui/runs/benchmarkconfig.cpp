#include "gui/runs/benchmarkconfig.h"
#include "gui/runs/jsonreaders.h"

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
    return sentence(request().validate());
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

int BenchmarkConfig::expectedPoints() const { return request().expectedPoints(); }

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

runs::RunRequest BenchmarkConfig::request() const
{
    runs::RunRequest r = runs::RunRequest::defaults(runs::RunKind::Collectives);
    r.launch = launch.toLaunch();
    r.title = title.toStdString();
    for (const auto& a : runnerArguments())
        r.args.push_back(a.toStdString());
    return r;
}

QStringList BenchmarkConfig::cliArguments(const QString& workspace) const { return rl::cliArguments(workspace, request()); }

QStringList cliArguments(const QString& workspace, const runs::RunRequest& request)
{
    QStringList args{QStringLiteral("--db"), workspace};
    for (const auto& a : request.toCliArgs())
        args << QString::fromStdString(a);
    return args;
}

namespace {
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
                       {QStringLiteral("launch"), launch.toJson()},
                       {QStringLiteral("title"), title}};
}

BenchmarkConfig BenchmarkConfig::fromJson(const QJsonObject& json)
{
    BenchmarkConfig c;
    const int version = json.value(QStringLiteral("version")).toInt();
    if (version != kJsonVersion && version != 1)
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
    if (version == 1) { // the launch's fields at the top, "local" meaning local mpirun
        c.launch = LaunchSettings::fromJson(json, c.launch);
        if (json.value(QStringLiteral("launcher")).toString() == QLatin1String("local"))
            c.launch.mode = LaunchSettings::Mode::LocalMpirun;
    } else {
        c.launch = LaunchSettings::fromJson(json.value(QStringLiteral("launch")).toObject(), c.launch);
    }
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
