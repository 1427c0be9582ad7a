#include "gui/runs/gputoolconfig.h"

#include <QJsonArray>
#include <QObject>
#include <QRegularExpression>

#include <cstdint>
#include <optional>

#include "gui/runs/benchmarkconfig.h" // cliArguments
#include "gui/runs/formfields.h"
#include "gui/runs/jsonreaders.h"
#include "tools/gputools.h"
#include "units/units.h"

namespace rl {
namespace {
using jsonread::read;

// The saved names of GpuToolConfig::Recipe, in its order.
const QStringList kRecipeNames{QStringLiteral("shapes"), QStringLiteral("square"), QStringLiteral("max-achievable"),
                               QStringLiteral("model")};

std::optional<std::int64_t> bytes(const QString& text)
{
    const auto v = units::parseBytes(text.trimmed().toStdString());
    if (!v || *v <= 0)
        return std::nullopt;
    return v;
}
} // namespace

runs::RunKind GpuToolConfig::kind() const
{
    const auto* k = runs::runKindOfTool(tool.toStdString());
    return k ? k->kind : runs::RunKind::NcclTests;
}

QString GpuToolConfig::subcommand() const { return QString::fromLatin1(runs::info(kind()).subcommand); }

QStringList GpuToolConfig::environmentList() const { return form::settingLines(environment); }

QStringList GpuToolConfig::shapeList() const
{
    return shapes.split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
}

QString GpuToolConfig::validate() const
{
    if (!tools::toolKind(tool.toStdString()))
        return QObject::tr("Unknown tool '%1'.").arg(tool);
    // What only the form can get wrong (its text fields); the rest is the request's to say.
    if (isNcclTests()) {
        if (!bytes(minBytes))
            return QObject::tr("Minimum size '%1' is not a size such as 8, 1K or 256M.").arg(minBytes);
        if (!bytes(maxBytes))
            return QObject::tr("Maximum size '%1' is not a size such as 8, 1K or 256M.").arg(maxBytes);
        if (useIncrement && !bytes(increment))
            return QObject::tr("Increment '%1' is not a size such as 1M.").arg(increment);
        if (!useIncrement && factor < 2)
            return QObject::tr("The size factor must be at least 2.");
        if (dtype.trimmed().isEmpty() || dtype.contains(u' '))
            return QObject::tr("Choose a data type (-d).");
    } else if (recipe == Recipe::Square) {
        const auto from = units::parseInt(squareFrom.trimmed().toStdString());
        const auto to = units::parseInt(squareTo.trimmed().toStdString());
        if (!from || *from < 1)
            return QObject::tr("Square sweep start '%1' is not a positive number.").arg(squareFrom);
        if (!to || *to < *from)
            return QObject::tr("Square sweep end '%1' is not a number at least the start.").arg(squareTo);
    } else if (recipe == Recipe::Shapes && shapeList().isEmpty()) {
        return QObject::tr("Give at least one shape, e.g. 4096x4096x4096 or 8192x1024x4096xNT.");
    }
    if (pointTimeout < 1)
        return QObject::tr("The point timeout must be at least one second.");
    return sentence(request().validate());
}

int GpuToolConfig::expectedPoints() const { return validate().isEmpty() ? request().expectedPoints() : 0; }

runs::RunRequest GpuToolConfig::request() const
{
    runs::RunRequest r = runs::RunRequest::defaults(kind());
    const auto text = [](const QString& s) { return s.trimmed().toStdString(); };
    if (isNcclTests()) {
        r.ops.clear();
        for (const auto& op : ops)
            r.ops.push_back(op.toStdString());
        r.args = {"-b", text(minBytes), "-e", text(maxBytes)};
        if (useIncrement)
            r.args.insert(r.args.end(), {"-i", text(increment)});
        else
            r.args.insert(r.args.end(), {"-f", std::to_string(factor)});
        r.args.insert(r.args.end(), {"-g", std::to_string(gpus), "-n", std::to_string(iters), "-w",
                                     std::to_string(warmup), "-d", text(dtype), "-o", text(redop), "-c",
                                     check ? "1" : "0", "-z", blocking ? "1" : "0", "-G", std::to_string(graph)});
    } else {
        runs::GemmSelection& g = r.gemm;
        switch (recipe) {
        case Recipe::Shapes:
            for (const auto& s : shapeList())
                g.shapes.push_back(s.toStdString());
            break;
        case Recipe::Square: g.square = text(squareFrom) + ":" + text(squareTo); break;
        case Recipe::MaxAchievable:
            g.recipe = "max-achievable";
            g.cus = cus;
            break;
        case Recipe::Model:
            g.recipe = "model";
            g.config = text(modelConfig);
            g.parallel = text(parallel);
            break;
        }
        g.dtype = text(gemmDtype);
        g.iters = gemmIters;
        g.coldIters = coldIters;
    }
    for (const auto& a : form::words(extraArgs))
        r.args.push_back(a.toStdString());
    r.launch = launch.toLaunch();
    for (const auto& e : environmentList())
        r.env.push_back(e.toStdString());
    r.pointTimeoutS = pointTimeout;
    r.title = title.toStdString();
    return r;
}

QStringList GpuToolConfig::cliArguments(const QString& workspace) const { return rl::cliArguments(workspace, request()); }

QJsonObject GpuToolConfig::toJson() const
{
    QJsonObject json{{QStringLiteral("version"), kJsonVersion},
                       {QStringLiteral("tool"), tool},
                       {QStringLiteral("ops"), QJsonArray::fromStringList(ops)},
                       {QStringLiteral("minBytes"), minBytes},
                       {QStringLiteral("maxBytes"), maxBytes},
                       {QStringLiteral("useIncrement"), useIncrement},
                       {QStringLiteral("factor"), factor},
                       {QStringLiteral("increment"), increment},
                       {QStringLiteral("gpus"), gpus},
                       {QStringLiteral("iters"), iters},
                       {QStringLiteral("warmup"), warmup},
                       {QStringLiteral("dtype"), dtype},
                       {QStringLiteral("redop"), redop},
                       {QStringLiteral("check"), check},
                       {QStringLiteral("blocking"), blocking},
                       {QStringLiteral("graph"), graph},
                       {QStringLiteral("gemmDtype"), gemmDtype},
                       {QStringLiteral("recipe"), kRecipeNames.value(static_cast<int>(recipe))},
                       {QStringLiteral("shapes"), shapes},
                       {QStringLiteral("squareFrom"), squareFrom},
                       {QStringLiteral("squareTo"), squareTo},
                       {QStringLiteral("cus"), cus},
                       {QStringLiteral("modelConfig"), modelConfig},
                       {QStringLiteral("parallel"), parallel},
                       {QStringLiteral("gemmIters"), gemmIters},
                       {QStringLiteral("coldIters"), coldIters},
                       {QStringLiteral("environment"), environment},
                       {QStringLiteral("extraArgs"), extraArgs},
                       {QStringLiteral("pointTimeout"), pointTimeout},
                       {QStringLiteral("title"), title}};
    const QJsonObject l = launch.toJson(); // the launch keys at the top level, as before
    for (auto it = l.begin(); it != l.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

GpuToolConfig GpuToolConfig::fromJson(const QJsonObject& json)
{
    GpuToolConfig c;
    if (json.value(QStringLiteral("version")).toInt() != kJsonVersion)
        return c;
    read(json, "tool", c.tool);
    if (!tools::toolKind(c.tool.toStdString()))
        c.tool = GpuToolConfig{}.tool;
    read(json, "ops", c.ops);
    read(json, "minBytes", c.minBytes);
    read(json, "maxBytes", c.maxBytes);
    read(json, "useIncrement", c.useIncrement);
    read(json, "factor", c.factor);
    read(json, "increment", c.increment);
    read(json, "gpus", c.gpus);
    read(json, "iters", c.iters);
    read(json, "warmup", c.warmup);
    read(json, "dtype", c.dtype);
    read(json, "redop", c.redop);
    read(json, "check", c.check);
    read(json, "blocking", c.blocking);
    read(json, "graph", c.graph);
    read(json, "gemmDtype", c.gemmDtype);
    if (const int r = kRecipeNames.indexOf(json.value(QStringLiteral("recipe")).toString()); r >= 0)
        c.recipe = static_cast<Recipe>(r);
    read(json, "shapes", c.shapes);
    read(json, "squareFrom", c.squareFrom);
    read(json, "squareTo", c.squareTo);
    read(json, "cus", c.cus);
    read(json, "modelConfig", c.modelConfig);
    read(json, "parallel", c.parallel);
    read(json, "gemmIters", c.gemmIters);
    read(json, "coldIters", c.coldIters);
    read(json, "environment", c.environment);
    read(json, "extraArgs", c.extraArgs);
    c.launch = LaunchSettings::fromJson(json, c.launch);
    read(json, "pointTimeout", c.pointTimeout);
    read(json, "title", c.title);
    return c;
}
} // namespace rl
