#include "chartframe.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLegend>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <QXYSeries>

#include "callout.h"
#include "chartexport.h"
#include "filedialogs.h"
#include "settings.h"
#include "textconv.h"
#include "views/collectivecsv.h"
#include "views/exportformat.h"

namespace rl::charts {

ChartFrame::ChartFrame(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_callout(new Callout(m_chart))
    , m_bar(new QHBoxLayout)
    , m_controls(new QHBoxLayout)
    , m_empty(new QLabel(this))
    , m_resetZoom(new QPushButton(tr("Reset zoom"), this))
    , m_export(new QPushButton(tr("Export…"), this))
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    followPalette(); // before the subclass fills the chart: its axes and series take the theme's look
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setRubberBand(QChartView::RectangleRubberBand);
    m_view->setToolTip(tr("Drag to zoom, right-click to zoom out"));

    m_empty->setObjectName(QStringLiteral("chartEmptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setTextFormat(Qt::PlainText); // the reason may name a session or a file
    m_empty->setMargin(24);
    m_empty->hide();

    m_resetZoom->setObjectName(QStringLiteral("resetZoomButton"));
    m_resetZoom->setToolTip(tr("Show all data again after zooming"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Save the chart as PNG, SVG or PDF, or its data as CSV"));

    m_bar->addLayout(m_controls);
    m_bar->addStretch(1);
    m_bar->addWidget(m_resetZoom);
    m_bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(m_bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);

    connect(m_resetZoom, &QPushButton::clicked, this, &ChartFrame::resetZoom);
    connect(m_export, &QPushButton::clicked, this, &ChartFrame::exportWithDialog);
    // A zoom or resize moves the points; a callout left behind would point at nothing.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { m_callout->hide(); });
}

ChartFrame::~ChartFrame() = default;

bool ChartFrame::followPalette()
{
    // Qt Charts does not read the palette: its light theme keeps a white plot in a dark window.
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    const bool changed = m_chart->theme() != theme;
    if (changed) {
        // The theme also resets fonts set once (a chart's smaller legend) and re-colours the series.
        const QFont title = m_chart->titleFont(), legend = m_chart->legend()->font();
        m_chart->setTheme(theme);
        m_chart->setTitleFont(title);
        m_chart->legend()->setFont(legend);
    }
    // Also at the first call: the light theme's own background is a gradient, not the window's Base.
    m_chart->setBackgroundBrush(palette().color(QPalette::Base));
    m_chart->setBackgroundPen(Qt::NoPen);
    m_chart->setTitleBrush(palette().color(QPalette::Text));
    m_chart->legend()->setLabelColor(palette().color(QPalette::Text));
    return changed;
}

void ChartFrame::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    // The application palette changed (Preferences' theme, or the system's while following it):
    // the theme re-coloured every series, so the chart is filled again with its own pens.
    if (event->type() == QEvent::PaletteChange && followPalette())
        rebuild();
}

QString ChartFrame::title() const
{
    return m_chart->title();
}

QString ChartFrame::hoverText() const
{
    return m_callout->isVisible() ? m_callout->text() : QString();
}

void ChartFrame::resetZoom()
{
    m_chart->zoomReset();
}

void ChartFrame::addToolbarWidget(QWidget* widget, int stretch)
{
    m_controls->addWidget(widget, stretch);
    if (stretch > 0) { // the controls, not the gap after them, take the free width
        m_bar->setStretch(0, 1);
        m_bar->setStretch(1, 0);
    }
}

void ChartFrame::addToolbarSpacing(int pixels)
{
    m_controls->addSpacing(pixels);
}

void ChartFrame::answerHover(QXYSeries* series, HoverLookup lookup)
{
    connect(series, &QXYSeries::hovered, this, [this, series, lookup = std::move(lookup)](QPointF pointer, bool state) {
        const auto hit = state ? lookup(pointer) : std::nullopt;
        if (hit)
            m_callout->show(hit->text, hit->at, series);
        else
            m_callout->hide();
    });
}

void ChartFrame::setEmptyText(const QString& text)
{
    m_empty->setText(text);
    m_empty->setVisible(!text.isEmpty());
    m_view->setVisible(text.isEmpty());
}

void ChartFrame::setZoomable(bool zoomable)
{
    m_view->setRubberBand(zoomable ? QChartView::RectangleRubberBand : QChartView::NoRubberBand);
    m_view->setToolTip(zoomable ? tr("Drag to zoom, right-click to zoom out") : QString());
    m_resetZoom->setVisible(zoomable);
}

QSize ChartFrame::exportSize() const
{
    if (m_exportSize)
        return *m_exportSize;
    return m_settings ? m_settings->exportSize() : Settings::kDefaultExportSize;
}

bool ChartFrame::exportTo(const QString& path, QString* error) const
{
    if (const QString problem = exportProblem(charts::exportedPartFor(path.toStdString()) == charts::ExportedPart::Data);
        !problem.isEmpty()) {
        if (error)
            *error = path % QStringLiteral(": ") % problem;
        return false;
    }
    return exportChartFile([this](QChart* chart) { return populateExport(chart); }, [this] { return exportCsv(); },
                           exportSize(), path, error);
}

void ChartFrame::exportWithDialog()
{
    const QString png = tr("PNG image (*.png)"), svg = tr("SVG image (*.svg)"), pdf = tr("PDF document (*.pdf)"),
                  csv = tr("CSV data (*.csv)");
    QString filter = png;
    QString path = filedialogs::saveFile(this, m_settings, filedialogs::Purpose::Export, tr("Export chart"),
                                         filedialogs::exportFileName(exportName(), exportSessionIds(),
                                                                     QStringLiteral("png")),
                                         png % QStringLiteral(";;") % svg % QStringLiteral(";;") % pdf
                                             % QStringLiteral(";;") % csv,
                                         &filter);
    if (path.isEmpty())
        return;
    // The chosen filter decides the format of a name without a known suffix ("run.v2" too).
    if (!views::exportFormatFor(path.toStdString()))
        path = qs(views::withExportSuffix(path.toStdString(), filter == svg   ? views::ExportFormat::Svg
                                                              : filter == pdf ? views::ExportFormat::Pdf
                                                              : filter == csv ? views::ExportFormat::Csv
                                                                              : views::ExportFormat::Png));
    exportReportingFailure(path);
}

QString ChartFrame::exportDataWithDialog(const QString& fileName)
{
    const QString chosen = filedialogs::saveFile(
        this, m_settings, filedialogs::Purpose::Export, tr("Export data"),
        fileName.isEmpty() ? filedialogs::exportFileName(exportName(), exportSessionIds(), QStringLiteral("csv"))
                           : fileName,
        tr("CSV data (*.csv)"));
    if (chosen.isEmpty())
        return {};
    const QString path = qs(views::withExportSuffix(chosen.toStdString(), views::ExportFormat::Csv));
    return exportReportingFailure(path) ? path : QString();
}

bool ChartFrame::exportReportingFailure(const QString& path)
{
    QString error;
    if (!exportTo(path, &error)) {
        QMessageBox::warning(this, tr("Export failed"),
                             plainInAutoText(error.isEmpty() ? path % tr(": export failed") : error));
        return false;
    }
    Q_EMIT chartExported(path);
    return true;
}
} // namespace rl::charts
