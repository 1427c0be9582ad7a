#include "chartimage.h"

#include <cmath>

#include <QAbstractAxis>
#include <QBuffer>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QImage>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPen>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "io/markup.h"
#include "textconv.h"
#include "views/exportformat.h"

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

QByteArray escaped(const QString& text)
{
    return QByteArray::fromStdString(io::escapeMarkup(text.toStdString()));
}

QByteArray xmpMetadata(const QString& title, const QString& description)
{
    return (QStringLiteral("<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>"
                           "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF "
                           "xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
                           "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'>"
                           "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>")
            % QString::fromUtf8(escaped(title))
            % QStringLiteral("</rdf:li></rdf:Alt></dc:title><dc:description><rdf:Alt><rdf:li xml:lang='x-default'>")
            % QString::fromUtf8(escaped(description))
            % QStringLiteral("</rdf:li></rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>"
                             "<?xpacket end='w'?>"))
        .toUtf8();
}

// QSvgGenerator (Qt 6.4) writes its title and description into <title> and <desc> unescaped: a
// session title with "&" or "<" made the file not XML, and "<script>" became live script in a
// browser and in the HTML report. The generator gets none; they are written here, escaped, as the
// first children of <svg> (where it puts its own, left empty and removed).
QByteArray withMetadata(QByteArray svg, const QString& title, const QString& description)
{
    for (const QByteArrayView empty : {QByteArrayView("<title></title>"), QByteArrayView("<desc></desc>")}) {
        const auto at = svg.indexOf(empty);
        if (at >= 0)
            svg.remove(at, empty.size());
    }
    const auto root = svg.indexOf("<svg");
    const auto rootEnd = root < 0 ? -1 : svg.indexOf('>', root);
    if (rootEnd < 0)
        return svg;
    const QByteArray metadata = "\n<title>" % escaped(title) % "</title>\n<desc>" % escaped(description) % "</desc>";
    return svg.insert(rootEnd + 1, metadata);
}
} // namespace

bool writeChartImage(const ChartFiller& fill, QSize size, const QString& path, QString* error)
{
    const auto format = views::exportFormatFor(path.toStdString());
    if (!format || !views::isImageFormat(*format))
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
    const QString description = fill(chart);
    chart->layout()->activate();
    scene.setSceneRect(rect);
    // Chart titles are HTML to QtCharts (chartText); the files' metadata holds what it shows.
    const QString title = chartPlainText(chart->title());

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    if (*format == views::ExportFormat::Png) {
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
    } else if (*format == views::ExportFormat::Svg) {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(rect);
        svg.setResolution(kDpi);
        QPainter painter;
        if (!painter.begin(&svg))
            return fail(error, path % QStringLiteral(": cannot start SVG output"));
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, rect, rect);
        painter.end();
        const QByteArray out = withMetadata(buffer.data(), title, description);
        if (file.write(out) != out.size())
            return fail(error, path % QStringLiteral(": ") % file.errorString());
    } else {
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
    }
    if (!file.commit())
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    return true;
}

bool writeChartText(const std::string& text, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0
        || !file.commit())
        return fail(error, path % QStringLiteral(": ") % file.errorString());
    return true;
}

void clearChart(QChart* chart)
{
    chart->removeAllSeries();
    const auto axes = chart->axes();
    for (auto* a : axes) {
        chart->removeAxis(a);
        delete a;
    }
}

QColor plotBackground(const QChart* chart)
{
    // Qt's own themes paint the background with a gradient, whose brush colour is black.
    const QBrush& brush = chart->backgroundBrush();
    if (const QGradient* g = brush.gradient(); g && !g->stops().isEmpty())
        return g->stops().front().second;
    return brush.color();
}

bool darkPlot(const QChart* chart)
{
    return plotBackground(chart).lightness() < 128;
}

QColor legibleOn(const QChart* chart, QColor color)
{
    // The charts pick their colours for a light plot; on a dark one (the window's dark palette) a
    // dark colour keeps its hue but takes the mirrored lightness, so it stays visible.
    if (darkPlot(chart) && color.lightness() < 128)
        color = QColor::fromHsl(color.hslHue(), color.hslSaturation(), 255 - color.lightness(), color.alpha());
    return color;
}

void softenMinorGrid(const QChart* chart, QAbstractAxis* axis)
{
    // Qt's themes draw the minor grid as strong as the major one: on a log axis with eight minor
    // lines a decade, the dark theme's strikes through every label on the plot.
    QPen pen = axis->minorGridLinePen();
    const QColor back = plotBackground(chart), line = axis->gridLinePen().color();
    pen.setColor(QColor((back.red() * 3 + line.red()) / 4, (back.green() * 3 + line.green()) / 4,
                        (back.blue() * 3 + line.blue()) / 4));
    axis->setMinorGridLinePen(pen);
}

void attachSeries(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y)
{
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

QScatterSeries* addChartLabel(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, QPointF at, const QString& text,
                              QColor color)
{
    auto* s = new QScatterSeries;
    s->setName(text);
    s->append(at);
    s->setMarkerSize(1);
    s->setColor(Qt::transparent);
    s->setBorderColor(Qt::transparent);
    // "@xPoint"/"@yPoint" are the only placeholders; any other text is drawn as it is.
    s->setPointLabelsFormat(text);
    s->setPointLabelsColor(legibleOn(chart, color));
    s->setPointLabelsVisible(true);
    s->setPointLabelsClipping(false);
    attachSeries(chart, s, x, y);
    hideFromLegend(chart, s);
    return s;
}

std::size_t nearestByX(const QList<QPointF>& points, double x)
{
    std::size_t best = 0;
    double bestD = INFINITY;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const double d = std::fabs(points[i].x() - x);
        if (d < bestD) {
            bestD = d;
            best = static_cast<std::size_t>(i);
        }
    }
    return best;
}

void hideFromLegend(QChart* chart, QAbstractSeries* series)
{
    for (auto* m : chart->legend()->markers(series))
        m->setVisible(false);
}
} // namespace rl::charts
