// A private copy of the scene-based rendering in chartexport.cpp, which is tied to the collective
// chart kinds: the shared widgets/chartimage.h did not exist yet when these charts were written.
#include "tracechartexport.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "chartexport.h"

namespace rl::charts {
namespace {
constexpr int kDpi = 96; // export geometry is in pixels at 96 dpi, whatever the screen says

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QString software()
{
    return QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION);
}

QByteArray xmpMetadata(const QString& title, const QString& description)
{
    return (QStringLiteral("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
                           "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
                           "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                           "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                           "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>")
            % title.toHtmlEscaped()
            % QStringLiteral("</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li xml:lang='x-default'>")
            % description.toHtmlEscaped()
            % QStringLiteral("</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
                             "<?xpacket end='w'?>"))
        .toUtf8();
}
} // namespace

bool renderTraceChart(const ChartPopulator& populate, QSize size, const QString& path, QString* error)
{
    const auto format = exportFormatForPath(path);
    if (!format || *format == ExportFormat::Csv)
        return fail(error, path % QStringLiteral(": unknown image format (use .png, .svg or .pdf)"));
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return fail(error, path % QStringLiteral(": export size %1x%2 px is out of range").arg(size.width()).arg(size.height()));

    // Render from a scene, not a view: no window, no screen, same layout on every machine.
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    chart->setAnimationOptions(QChart::NoAnimation);
    const QRectF rect(QPointF(0, 0), QSizeF(size));
    chart->setGeometry(rect);
    const QString description = populate(chart);
    chart->layout()->activate();
    scene.setSceneRect(rect);
    const QString title = chart->title();

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    switch (*format) {
    case ExportFormat::Png: {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
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
        writer.setText(QStringLiteral("Software"), software());
        if (!writer.write(image))
            return fail(error, path % QStringLiteral(": ") % writer.errorString());
        break;
    }
    case ExportFormat::Svg: {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size);
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
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / kDpi, size.height() * 72.0 / kDpi), QPageSize::Point,
                                  QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(title);
        pdf.setCreator(software());
        pdf.setDocumentXmpMetadata(xmpMetadata(title, description));
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

bool writeTextFile(const std::string& text, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0
        || !file.commit())
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    return true;
}
} // namespace rl::charts
