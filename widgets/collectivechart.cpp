#include "collectivechart.h"

#include <cmath>

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QSignalBlocker>

#include "textconv.h"
#include "callout.h"
#include "chartcontent.h"
#include "chartexport.h"
#include "units/units.h"

namespace rl::charts {

CollectiveChart::CollectiveChart(QWidget* parent)
    : ChartFrame(parent)
    , m_content(new ChartContent(chart(), this))
    , m_kindCombo(new QComboBox(this))
    , m_metricCombo(new QComboBox(this))
    , m_scalingCombo(new QComboBox(this))
    , m_fitCheck(new QCheckBox(tr("α–β fit"), this))
{
    view()->setObjectName(QStringLiteral("chartView"));
    view()->setToolTip(tr("Drag to zoom, right-click to zoom out; click a legend entry to hide its series"));

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

    addToolbarWidget(m_kindCombo);
    addToolbarWidget(m_metricCombo);
    addToolbarWidget(m_scalingCombo);
    addToolbarWidget(m_fitCheck);

    connect(m_kindCombo, &QComboBox::currentIndexChanged, this,
            [this] { setKind(static_cast<ChartKind>(m_kindCombo->currentData().toInt())); });
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
            [this] { setMetric(static_cast<BandwidthMetric>(m_metricCombo->currentData().toInt())); });
    connect(m_scalingCombo, &QComboBox::currentIndexChanged, this,
            [this] { setScalingBytes(m_scalingCombo->currentData().toLongLong()); });
    connect(m_fitCheck, &QCheckBox::toggled, this, &CollectiveChart::setShowFits);
    connect(m_content, &ChartContent::hoverChanged, this, &CollectiveChart::onHover);
    connect(m_content, &ChartContent::fitsChanged, this, &CollectiveChart::fitsChanged);
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
    callout()->hide();
    chart()->zoomReset();
    m_content->setData(m_kind, m_content->sharedData(), m_options);
    updateEmptyState();
}

void CollectiveChart::updateEmptyState()
{
    setEmptyText(m_content->emptyReason());
}

void CollectiveChart::setSessions(std::vector<SessionCurves> sessions)
{
    setSessions(std::make_shared<const std::vector<SessionCurves>>(std::move(sessions)));
}

void CollectiveChart::setSessions(SharedSessions sessions, std::optional<SizeChartData> prepared)
{
    callout()->hide();
    chart()->zoomReset();
    m_content->setData(m_kind, std::move(sessions), m_options, std::move(prepared));
    updateEmptyState();
}

void CollectiveChart::setSessionsUndrawn(SharedSessions sessions, std::optional<SizeChartData> prepared)
{
    callout()->hide();
    m_content->setDataUndrawn(m_kind, std::move(sessions), m_options, std::move(prepared));
}

SizeChartRequest CollectiveChart::sizeChartRequest() const
{
    SizeChartRequest r = m_content->sizeChartRequest();
    r.kind = m_kind;
    r.options = m_options;
    return r;
}

void CollectiveChart::drawIfUndrawn()
{
    if (m_content->isUndrawn())
        rebuild();
}

bool CollectiveChart::isUndrawn() const
{
    return m_content->isUndrawn();
}

const std::vector<SessionCurves>& CollectiveChart::sessions() const
{
    return m_content->data();
}

void CollectiveChart::pointsAppended(std::int64_t sessionId)
{
    // An undrawn tab only drops the data prepared without these points; it reads them when shown.
    const bool undrawn = m_content->isUndrawn();
    m_content->pointsAppended(sessionId);
    if (undrawn)
        return;
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

const std::vector<FitCurve>& CollectiveChart::fits() const
{
    return m_content->fits();
}

QString CollectiveChart::title() const
{
    return m_content->title();
}

void CollectiveChart::onHover(const QString& text, QPointF value, QAbstractSeries* series, bool visible)
{
    if (visible && !text.isEmpty())
        callout()->show(text, value, series);
    else
        callout()->hide();
}

ChartOptions CollectiveChart::exportOptions() const
{
    ChartOptions o = m_options;
    o.width = exportSize().width();
    o.height = exportSize().height();
    return o;
}

QString CollectiveChart::populateExport(QChart* chart) const
{
    return populateCollectiveChart(chart, m_kind, m_content->data(), exportOptions());
}

std::string CollectiveChart::exportCsv() const
{
    return collectiveCsv(m_kind, m_content->data(), m_options);
}

std::vector<std::int64_t> CollectiveChart::exportSessionIds() const
{
    std::vector<std::int64_t> ids;
    for (const auto& s : m_content->data())
        ids.push_back(s.session.id);
    return ids;
}

QString CollectiveChart::exportProblem(bool data) const
{
    return qs(collectiveExportProblem(m_kind, m_content->data(), data ? ExportedPart::Data : ExportedPart::Image));
}
} // namespace rl::charts
