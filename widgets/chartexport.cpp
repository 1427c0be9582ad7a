#include "chartexport.h"

#include <QChart>
#include <QGraphicsLayout>

#include "chartcontent.h"
#include "units/units.h"
#include "textconv.h"

namespace rl::charts {
namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}
} // namespace

QString describeParameters(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& o)
{
    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION) % QStringLiteral(" ")
        % QLatin1String(toString(kind)) % QStringLiteral(" chart; metric: ")
        % (o.metric == BandwidthMetric::BusBw ? QStringLiteral("busbw") : QStringLiteral("algbw"));
    if (kind == ChartKind::Bandwidth || kind == ChartKind::Latency) {
        d += QStringLiteral("; alpha-beta fits: ");
        if (!o.showFits)
            d += QStringLiteral("off");
        else if (o.fitMinBytes <= 0 && o.fitMaxBytes == INT64_MAX)
            d += QStringLiteral("all sizes");
        else
            d += qs(units::formatBytes(static_cast<double>(o.fitMinBytes))) % QStringLiteral(" to ")
                % qs(units::formatBytes(static_cast<double>(o.fitMaxBytes)));
    }
    if (kind == ChartKind::Scaling)
        d += QStringLiteral("; message size: ") % qs(units::formatBytes(static_cast<double>(o.scalingBytes)))
            % QStringLiteral(" (nearest available per session)");
    if (kind == ChartKind::Compare && sessions.size() == 2)
        d += QStringLiteral("; ratio B / A with A = session ") % QString::number(sessions[0].session.id)
            % QStringLiteral(", B = session ") % QString::number(sessions[1].session.id);
    d += QStringLiteral("; sessions:");
    for (const auto& s : sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title)
            % QStringLiteral(" (") % qs(s.session.tool)
            % (s.session.host.empty() ? QString() : QStringLiteral(", ") % qs(s.session.host))
            % QStringLiteral(", ") % qs(s.session.created) % QStringLiteral(", ")
            % QString::number(sessionPointCount(s)) % QStringLiteral(" points)");
    return d;
}

bool exportChartFile(const ChartFiller& fill, const std::function<std::string()>& csv, QSize size,
                     const QString& path, QString* error)
{
    const auto format = views::exportFormatFor(path.toStdString());
    if (!format)
        return fail(error, qs(views::unknownExportFormat(path.toStdString())));
    if (*format == views::ExportFormat::Csv)
        return writeChartText(csv(), path, error);
    return writeChartImage(fill, size, path, error);
}

QString populateCollectiveChart(QChart* chart, ChartKind kind, const std::vector<SessionCurves>& sessions,
                                const ChartOptions& options)
{
    auto* content = new ChartContent(chart, chart); // lives as long as the chart it fills
    content->setData(kind, sessions, options);
    chart->layout()->activate(); // label density follows the laid-out plot width
    content->fitLabelsToPlotArea();
    return describeParameters(kind, sessions, options);
}

bool exportChart(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                 const QString& path, QString* error)
{
    if (const std::string problem = collectiveExportProblem(kind, sessions, exportedPartFor(path.toStdString()));
        !problem.empty() && views::exportFormatFor(path.toStdString()))
        return fail(error, path % QStringLiteral(": ") % qs(problem));
    return exportChartFile([&](QChart* chart) { return populateCollectiveChart(chart, kind, sessions, options); },
                           [&] { return collectiveCsv(kind, sessions, options); }, QSize(options.width, options.height),
                           path, error);
}

bool exportChartData(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                     const QString& path, QString* error)
{
    if (const std::string problem = collectiveExportProblem(kind, sessions); !problem.empty())
        return fail(error, path % QStringLiteral(": ") % qs(problem));
    return writeChartText(collectiveCsv(kind, sessions, options), path, error);
}
} // namespace rl::charts
