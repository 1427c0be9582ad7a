#include "chartexport.h"

#include <QChart>
#include <QFile>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "chartcontent.h"
#include "units/units.h"

namespace rl::charts {
namespace {
constexpr int kDpi = 96; // export geometry is in pixels at 96 dpi, whatever the screen says

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QString xmlEscaped(const QString& s)
{
    return s.toHtmlEscaped();
}
} // namespace

std::optional<ExportFormat> exportFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    if (suffix == QLatin1String("csv"))
        return ExportFormat::Csv;
    return std::nullopt;
}

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
            % QStringLiteral(" (") % qs(s.session.tool) % QStringLiteral(", ") % qs(s.session.host)
            % QStringLiteral(", ") % qs(s.session.created) % QStringLiteral(", ")
            % QString::number(s.points.size()) % QStringLiteral(" points)");
    return d;
}

bool exportChart(ChartKind kind, const std::vector<SessionCurves>& sessions, const ChartOptions& options,
                 const QString& path, QString* error)
{
    const auto format = exportFormatForPath(path);
    if (!format)
        return fail(error, path % QStringLiteral(": unknown export format (use .png, .svg, .pdf or .csv)"));
    if (*format == ExportFormat::Csv)
        return exportChartData(kind, sessions, options, path, error);
    if (kind == ChartKind::Compare && sessions.size() != 2)
        return fail(error, path % QStringLiteral(": compare needs exactly two sessions, got %1").arg(sessions.size()));
    if (options.width < 16 || options.height < 16 || options.width > 20000 || options.height > 20000)
        return fail(error, path % QStringLiteral(": export size %1x%2 px is out of range").arg(options.width).arg(options.height));

    // Render from a scene, not a view: no window, no screen, same layout on every machine.
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    chart->setAnimationOptions(QChart::NoAnimation);
    const QRectF rect(0, 0, options.width, options.height);
    chart->setGeometry(rect);
    ChartContent content(chart);
    content.setData(kind, sessions, options);
    chart->layout()->activate();
    content.fitLabelsToPlotArea();
    scene.setSceneRect(rect);

    const QString title = content.title();
    const QString description = describeParameters(kind, sessions, options);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path % QStringLiteral(": ") % file.errorString());

    switch (*format) {
    case ExportFormat::Png: {
        QImage image(options.width, options.height, QImage::Format_ARGB32_Premultiplied);
        image.setDotsPerMeterX(qRound(kDpi / 0.0254));
        image.setDotsPerMeterY(qRound(kDpi / 0.0254));
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            scene.render(&painter, rect, rect);
        }
        QImageWriter writer(&file, "png");
        writer.setText(QStringLiteral("Title"), title);
        writer.setText(QStringLiteral("Description"), description);
        writer.setText(QStringLiteral("Software"), QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION));
        if (!writer.write(image))
            return fail(error, path % QStringLiteral(": ") % writer.errorString());
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(rect.size().toSize());
        svg.setViewBox(rect);
        svg.setResolution(kDpi);
        svg.setTitle(title);
        svg.setDescription(description);
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(error, path % QStringLiteral(": cannot start SVG output: ") % file.errorString());
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, rect, rect);
        painter.end();
        break;
    }
    case ExportFormat::Pdf: {
        QPdfWriter pdf(&file);
        pdf.setResolution(kDpi);
        pdf.setPageSize(QPageSize(QSizeF(options.width * 72.0 / kDpi, options.height * 72.0 / kDpi),
                                  QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION));
        pdf.setDocumentXmpMetadata(
            (QStringLiteral("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
                            "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
                            "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                            "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                            "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>")
             % xmlEscaped(title)
             % QStringLiteral("</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li xml:lang='x-default'>")
             % xmlEscaped(description)
             % QStringLiteral("</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
                              "<?xpacket end='w'?>"))
                .toUtf8());
        QPainter painter;
        if (!painter.begin(&pdf))
            return fail(error, path % QStringLiteral(": cannot start PDF output: ") % file.errorString());
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, QRectF(0, 0, pdf.width(), pdf.height()), rect);
        painter.end();
        break;
    }
    case ExportFormat::Csv: break;
    }
    if (!file.commit())
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    return true;
}
} // namespace rl::charts
