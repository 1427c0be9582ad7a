#include "collectivechart.h"

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "callout.h"
#include "chartcontent.h"
#include "chartexport.h"
#include "filedialogs.h"
#include "units/units.h"

namespace rl::charts {

CollectiveChart::CollectiveChart(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_view(new QChartView(m_chart, this))
    , m_empty(new QLabel(this))
    , m_content(new ChartContent(m_chart, this))
    , m_callout(new Callout(m_chart))
    , m_kindCombo(new QComboBox(this))
    , m_metricCombo(new QComboBox(this))
    , m_scalingCombo(new QComboBox(this))
    , m_fitCheck(new QCheckBox(tr("α–β fit"), this))
    , m_resetZoom(new QPushButton(tr("Reset zoom"), this))
    , m_export(new QPushButton(tr("Export…"), this))
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_view->setObjectName(QStringLiteral("chartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setRubberBand(QChartView::RectangleRubberBand);
    m_view->setToolTip(tr("Drag to zoom, right-click to zoom out; click a legend entry to hide its series"));

    m_empty->setObjectName(QStringLiteral("chartEmptyState"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_empty->hide();

    m_kindCombo->setObjectName(QStringLiteral("chartKindCombo"));
    m_kindCombo->setToolTip(tr("What to plot"));
    m_kindCombo->addItem(tr("Bandwidth"), static_cast<int>(ChartKind::Bandwidth));
    m_kindCombo->addItem(tr("Latency"), static_cast<int>(ChartKind::Latency));
    m_kindCombo->addItem(tr("Scaling"), static_cast<int>(ChartKind::Scaling));
    m_kindCombo->addItem(tr("Compare (B / A)"), static_cast<int>(ChartKind::Compare));

    m_metricCombo->setObjectName(QStringLiteral("metricCombo"));
    m_metricCombo->setToolTip(tr("Bus bandwidth (comparable across rank counts) or algorithm bandwidth (size / time)"));
    m_metricCombo->addItem(tr("busbw"), static_cast<int>(BandwidthMetric::BusBw));
    m_metricCombo->addItem(tr("algbw"), static_cast<int>(BandwidthMetric::AlgBw));

    m_scalingCombo->setObjectName(QStringLiteral("scalingSizeCombo"));
    m_scalingCombo->setToolTip(tr("Message size for the scaling view (nearest measured size per session)"));
    for (int e = 10; e <= 34; e += 2)
        m_scalingCombo->addItem(QString::fromStdString(units::formatBytes(std::ldexp(1.0, e))),
                                QVariant::fromValue<qint64>(qint64{1} << e));

    m_fitCheck->setObjectName(QStringLiteral("showFitsCheck"));
    m_fitCheck->setToolTip(tr("Overlay the latency-bandwidth model t = α + n / β fitted per op and session"));
    m_resetZoom->setObjectName(QStringLiteral("resetZoomButton"));
    m_resetZoom->setToolTip(tr("Show all data again after zooming"));
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setToolTip(tr("Save the chart as PNG, SVG or PDF, or its data as CSV"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_kindCombo);
    bar->addWidget(m_metricCombo);
    bar->addWidget(m_scalingCombo);
    bar->addWidget(m_fitCheck);
    bar->addStretch(1);
    bar->addWidget(m_resetZoom);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_empty, 1);

    connect(m_kindCombo, &QComboBox::currentIndexChanged, this,
            [this] { setKind(static_cast<ChartKind>(m_kindCombo->currentData().toInt())); });
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
            [this] { setMetric(static_cast<BandwidthMetric>(m_metricCombo->currentData().toInt())); });
    connect(m_scalingCombo, &QComboBox::currentIndexChanged, this,
            [this] { setScalingBytes(m_scalingCombo->currentData().toLongLong()); });
    connect(m_fitCheck, &QCheckBox::toggled, this, &CollectiveChart::setShowFits);
    connect(m_resetZoom, &QPushButton::clicked, this, &CollectiveChart::resetZoom);
    connect(m_export, &QPushButton::clicked, this, &CollectiveChart::exportWithDialog);
    connect(m_content, &ChartContent::hoverChanged, this, &CollectiveChart::onHover);
    connect(m_content, &ChartContent::fitsChanged, this, &CollectiveChart::fitsChanged);
    // A zoom or resize moves the points; a callout left behind would point at nothing.
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { m_callout->hide(); });
    syncControls();
    rebuild();
}

CollectiveChart::~CollectiveChart() = default;

void CollectiveChart::syncControls()
{
    const QSignalBlocker b1(m_kindCombo), b2(m_metricCombo), b3(m_scalingCombo), b4(m_fitCheck);
    m_kindCombo->setCurrentIndex(m_kindCombo->findData(static_cast<int>(m_kind)));
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(static_cast<int>(m_options.metric)));
    m_metricCombo->setEnabled(m_kind != ChartKind::Latency);
    const int si = m_scalingCombo->findData(QVariant::fromValue<qint64>(m_options.scalingBytes));
    if (si >= 0)
        m_scalingCombo->setCurrentIndex(si);
    m_scalingCombo->setVisible(m_kind == ChartKind::Scaling);
    m_fitCheck->setChecked(m_options.showFits);
    m_fitCheck->setEnabled(m_kind == ChartKind::Bandwidth || m_kind == ChartKind::Latency);
}

void CollectiveChart::rebuild()
{
    m_callout->hide();
    m_chart->zoomReset();
    m_content->setData(m_kind, m_content->data(), m_options);
    updateEmptyState();
}

void CollectiveChart::updateEmptyState()
{
    const QString reason = m_content->emptyReason();
    m_empty->setText(reason);
    m_empty->setVisible(!reason.isEmpty());
    m_view->setVisible(reason.isEmpty());
}

void CollectiveChart::setSessions(std::vector<SessionCurves> sessions)
{
    m_callout->hide();
    m_chart->zoomReset();
    m_content->setData(m_kind, std::move(sessions), m_options);
    updateEmptyState();
}

const std::vector<SessionCurves>& CollectiveChart::sessions() const
{
    return m_content->data();
}

void CollectiveChart::appendPoint(std::int64_t sessionId, const CollectivePoint& point)
{
    m_content->appendPoint(sessionId, point);
    updateEmptyState(); // a live point can give two sessions their first common size
}

void CollectiveChart::setKind(ChartKind kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind;
    syncControls();
    rebuild();
    Q_EMIT kindChanged(kind);
}

void CollectiveChart::setMetric(BandwidthMetric metric)
{
    if (metric == m_options.metric)
        return;
    m_options.metric = metric;
    syncControls();
    rebuild();
    Q_EMIT metricChanged(metric);
}

void CollectiveChart::setShowFits(bool show)
{
    if (show == m_options.showFits)
        return;
    m_options.showFits = show;
    syncControls();
    rebuild();
}

void CollectiveChart::setFitRange(std::int64_t minBytes, std::int64_t maxBytes)
{
    if (minBytes == m_options.fitMinBytes && maxBytes == m_options.fitMaxBytes)
        return;
    m_options.fitMinBytes = minBytes;
    m_options.fitMaxBytes = maxBytes;
    rebuild();
}

void CollectiveChart::setScalingBytes(std::int64_t bytes)
{
    if (bytes == m_options.scalingBytes)
        return;
    m_options.scalingBytes = bytes;
    syncControls();
    rebuild();
}

void CollectiveChart::setExportSize(int width, int height)
{
    m_options.width = width;
    m_options.height = height;
}

const std::vector<FitCurve>& CollectiveChart::fits() const
{
    return m_content->fits();
}

QString CollectiveChart::hoverText() const
{
    return m_callout->isVisible() ? m_callout->text() : QString();
}

QString CollectiveChart::title() const
{
    return m_content->title();
}

void CollectiveChart::resetZoom()
{
    m_chart->zoomReset();
}

void CollectiveChart::onHover(const QString& text, QPointF value, QAbstractSeries* series, bool visible)
{
    if (visible && !text.isEmpty())
        m_callout->show(text, value, series);
    else
        m_callout->hide();
}

bool CollectiveChart::exportTo(const QString& path, QString* error) const
{
    return exportChart(m_kind, m_content->data(), m_options, path, error);
}

void CollectiveChart::exportWithDialog()
{
    const QString png = tr("PNG image (*.png)"), svg = tr("SVG image (*.svg)"), pdf = tr("PDF document (*.pdf)"),
                  csv = tr("CSV data (*.csv)");
    QString filter = png;
    std::vector<std::int64_t> ids;
    for (const auto& s : m_content->data())
        ids.push_back(s.session.id);
    QString path = filedialogs::saveFile(this, m_settings, filedialogs::Purpose::Export, tr("Export chart"),
                                         filedialogs::exportFileName(QString::fromLatin1(toString(m_kind)), ids,
                                                                     QStringLiteral("png")),
                                         png % QStringLiteral(";;") % svg % QStringLiteral(";;") % pdf
                                             % QStringLiteral(";;") % csv,
                                         &filter);
    if (path.isEmpty())
        return;
    // The chosen filter decides the format; its suffix is added when the name has none.
    if (QFileInfo(path).suffix().isEmpty()) {
        const QString suffix = filter.section(QLatin1String("*."), 1).section(QLatin1Char(')'), 0, 0);
        path += QLatin1Char('.') % suffix;
    }
    QString error;
    if (!exportTo(path, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}
} // namespace rl::charts
