#include "gemmefficiencychart.h"
#include "niceticks.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "log2axis.h"
#include "textconv.h"
#include "units/units.h"

namespace rl::charts {
namespace {
const QColor kColors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                          QColor(0x94, 0x67, 0xbd), QColor(0xff, 0x7f, 0x0e), QColor(0x17, 0xbe, 0xcf)};
} // namespace

QString GemmEfficiencyChart::populate(QChart* chart, const KernelChartData& data, const GemmEfficiencyOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<GemmEfficiencyDrawn>(chart);
    const auto g = gemmEfficiencyGeometry(data, o);
    double xLo = INFINITY, xHi = -INFINITY, yHi = 0;
    for (const auto& sw : g.sweeps)
        for (const auto& p : sw.points) {
            if (p.x > 0) {
                xLo = std::min(xLo, std::log2(p.x));
                xHi = std::max(xHi, std::log2(p.x));
            }
            yHi = std::max(yHi, p.value);
        }
    if (!std::isfinite(xLo)) {
        xLo = 7;
        xHi = 13;
    }
    const int width = chart->size().width() >= 200 ? qRound(chart->size().width()) : 1200;
    auto* x = makeLog2Axis(xLo, xHi, std::max(4, width / 80), &countLabel);
    x->setTitleText(chartText(qs(g.dimTitle) % QStringLiteral(" (elements)")));
    auto* y = new QValueAxis;
    y->setTitleText(g.percent ? QStringLiteral("Achieved (% of peak)") : QStringLiteral("Achieved (GFLOP/s)"));
    y->setRange(0, g.percent ? std::max(105.0, yHi * 1.05) : std::max(1.0, yHi * 1.1));
    y->applyNiceNumbers();
    y->setLabelFormat(g.percent ? QStringLiteral("%g") : QStringLiteral("%.0f")); // "%g": 1e+06 GFLOP/s
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    std::size_t index = 0;
    for (const auto& sw : g.sweeps) {
        auto* line = new QLineSeries;
        line->setName(chartText(sw.name));
        line->setPen(QPen(kColors[index % std::size(kColors)], 2));
        line->setPointsVisible(true);
        QList<QPointF> points;
        for (const auto& p : sw.points)
            if (p.x > 0)
                points << QPointF(std::log2(p.x), p.value);
        line->replace(points);
        attachSeries(chart, line, x, y);
        drawn.sweeps.push_back(line);
        ++index;
    }

    if (!g.predicted.empty()) {
        // Percent values share the left axis; GFLOP/s get a right axis for the efficiency.
        QValueAxis* py = y;
        if (!g.percent) {
            py = new QValueAxis;
            py->setTitleText(QStringLiteral("Predicted wave-quantisation efficiency (%)"));
            py->setRange(0, 105);
            py->setTickCount(y->tickCount());
            py->setLabelFormat(QStringLiteral("%g"));
            chart->addAxis(py, Qt::AlignRight);
        }
        auto* predicted = new QLineSeries;
        predicted->setName(QStringLiteral("Predicted wave efficiency (%1 CUs, %2×%3 tiles)")
                               .arg(g.computeUnits)
                               .arg(o.tile.tm)
                               .arg(o.tile.tn));
        predicted->setPen(QPen(QColor(0x50, 0x50, 0x50), 1.5, Qt::DashLine));
        QList<QPointF> points;
        for (const auto& [px, eff] : g.predicted)
            if (px > 0)
                points << QPointF(std::log2(px), eff * 100);
        predicted->replace(points);
        attachSeries(chart, predicted, x, py);
    }

    QString title = QStringLiteral("GEMM efficiency vs ") % qs(g.dimTitle);
    for (std::size_t i = 0; i < data.sessions.size(); ++i)
        title += (i ? QStringLiteral(", ") : QStringLiteral(" — ")) % qs(data.sessions[i].session.title);
    if (o.hardware)
        title += QStringLiteral(" — predicted for ") % qs(o.hardware->name);
    if (g.sweeps.empty())
        title += QStringLiteral(" — no GEMM points");
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    chart->legend()->setAlignment(Qt::AlignBottom);

    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION)
        % QStringLiteral(" GEMM efficiency chart; swept: ") % qs(g.dimTitle) % QStringLiteral("; metric: ")
        % (g.percent ? QStringLiteral("% of peak") : QStringLiteral("GFLOP/s"));
    if (o.hardware)
        d += QStringLiteral("; wave quantisation for %1 (%2 CUs), tile %3x%4")
                 .arg(qs(o.hardware->id))
                 .arg(g.computeUnits)
                 .arg(o.tile.tm)
                 .arg(o.tile.tn);
    d += QStringLiteral("; sessions:");
    for (const auto& s : data.sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title);
    return d;
}

bool GemmEfficiencyChart::exportChart(const KernelChartData& data, const GemmEfficiencyOptions& options, QSize size,
                                      const QString& path, QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, data, options); },
                           [&] { return gemmEfficiencyCsv(data, options); }, size, path, error);
}

GemmEfficiencyChart::GemmEfficiencyChart(QWidget* parent)
    : ChartFrame(parent)
    , m_tileM(new QSpinBox(this))
    , m_tileN(new QSpinBox(this))
    , m_readoutValue(new QSpinBox(this))
    , m_readout(new QLabel(this))
{
    view()->setObjectName(QStringLiteral("gemmEfficiencyView"));
    for (auto* tile : {m_tileM, m_tileN}) {
        tile->setRange(16, 1024);
        tile->setSingleStep(16);
        tile->setValue(256);
        tile->setToolTip(tr("Output tile of the GEMM kernel (rows x columns) the wave-quantisation prediction "
                            "assumes; 256x256 is typical of MI300X hipBLASLt, 128x256 of H100 cuBLAS"));
        connect(tile, &QSpinBox::editingFinished, this,
                [this] { setTileShape({m_tileM->value(), m_tileN->value()}); });
    }
    m_tileM->setObjectName(QStringLiteral("tileM"));
    m_tileN->setObjectName(QStringLiteral("tileN"));
    m_readoutValue->setObjectName(QStringLiteral("fastSizeValue"));
    m_readoutValue->setRange(1, 1 << 30);
    m_readoutValue->setValue(4096);
    m_readoutValue->setToolTip(tr("A size of the swept dimension: the readout gives its predicted efficiency "
                                  "and the nearest multiples of 64 predicted at 90 % or better"));
    m_readout->setObjectName(QStringLiteral("fastSizeReadout"));
    m_readout->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_readout->setWordWrap(true);
    connect(m_readoutValue, &QSpinBox::valueChanged, this, &GemmEfficiencyChart::updateReadout);
    addToolbarWidget(new QLabel(tr("Tile:"), this));
    addToolbarWidget(m_tileM);
    addToolbarWidget(new QLabel(QStringLiteral("×"), this));
    addToolbarWidget(m_tileN);
    addToolbarSpacing(12);
    addToolbarWidget(new QLabel(tr("Nearest fast size for:"), this));
    addToolbarWidget(m_readoutValue);
    addToolbarWidget(m_readout, 1);
    rebuild();
}

GemmEfficiencyChart::~GemmEfficiencyChart() = default;

void GemmEfficiencyChart::setData(const KernelChartData& data)
{
    m_data = data;
    rebuild();
}

void GemmEfficiencyChart::setMetric(GemmYMetric metric)
{
    if (metric == m_options.metric)
        return;
    m_options.metric = metric;
    rebuild();
}

void GemmEfficiencyChart::setHardwareProfile(const std::optional<HardwareProfile>& profile)
{
    m_options.hardware = profile;
    rebuild();
}

void GemmEfficiencyChart::setTileShape(model::TileShape tile)
{
    m_options.tile = tile;
    const QSignalBlocker bm(m_tileM), bn(m_tileN);
    m_tileM->setValue(tile.tm);
    m_tileN->setValue(tile.tn);
    rebuild();
}

void GemmEfficiencyChart::setReadoutValue(std::int64_t value)
{
    m_readoutValue->setValue(static_cast<int>(std::clamp<std::int64_t>(value, 1, m_readoutValue->maximum())));
    updateReadout();
}

QString GemmEfficiencyChart::readoutText() const
{
    return m_readout->text();
}

void GemmEfficiencyChart::updateReadout()
{
    if (m_geometry.sweeps.empty()) {
        m_readout->clear();
        return;
    }
    m_readout->setText(qs(describeFastSize(nearestFastSize(m_geometry, m_readoutValue->value()), m_geometry)));
}

void GemmEfficiencyChart::setTitle(const std::string& title)
{
    m_options.title = title;
    rebuild();
}

void GemmEfficiencyChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    m_geometry = gemmEfficiencyGeometry(m_data, m_options);
    populate(chart(), m_data, m_options);
    updateReadout();
    const auto& sweeps = drawnOn<GemmEfficiencyDrawn>(chart())->sweeps;
    for (std::size_t index = 0; index < sweeps.size(); ++index)
        answerHover(sweeps[index], [this, index](QPointF pointer) -> std::optional<HoverHit> {
            if (index >= m_geometry.sweeps.size())
                return std::nullopt;
            const GemmSweepPoint* best = nullptr;
            for (const auto& p : m_geometry.sweeps[index].points)
                if (p.x > 0 && (!best || std::abs(std::log2(p.x) - pointer.x()) < std::abs(std::log2(best->x) - pointer.x())))
                    best = &p;
            if (!best)
                return std::nullopt;
            QString text = qs(m_geometry.sweeps[index].name) % QLatin1Char('\n') % qs(describeGemmPoint(best->point));
            if (best->predicted >= 0)
                text += QStringLiteral("\npredicted wave efficiency ") % qs(units::formatPercent(best->predicted));
            return HoverHit{text, QPointF(std::log2(best->x), best->value)};
        });
}
} // namespace rl::charts
