#include "attentionchart.h"

#include <algorithm>
#include <cmath>

#include <QCategoryAxis>
#include <QChart>
#include <QComboBox>
#include <QLabel>
#include <QLegend>
#include <QPen>
#include <QLogValueAxis>
#include <QValueAxis>

#include "callout.h"
#include "chartexport.h"
#include "log2axis.h"
#include "niceticks.h"
#include "textconv.h"

namespace rl::charts {
namespace {
// A backend's hue, shared by the profile's kernels of the same family: PyTorch's flash backend is
// FlashAttention-2, so it and the paper's FA2 bars are one colour (solid measured, dashed published).
QColor backendColor(const std::string& backend)
{
    if (backend == "flash" || backend == "fa2")
        return QColor(0x1f, 0x77, 0xb4);
    if (backend == "cudnn")
        return QColor(0x2c, 0xa0, 0x2c);
    if (backend == "efficient")
        return QColor(0xff, 0x7f, 0x0e);
    if (backend == "math")
        return QColor(0xd6, 0x27, 0x28);
    if (backend == "fa3")
        return QColor(0x94, 0x67, 0xbd);
    if (backend == "triton")
        return QColor(0x8c, 0x56, 0x4b);
    return QColor(0x7f, 0x7f, 0x7f);
}

// Measured lines solid (backward dash-dot), published ones dashed; the causal mask a lighter shade,
// the smaller head dim a thinner line, so an unfiltered view still tells them apart.
QPen curvePen(const QChart* chart, const AttentionCurve& c, int largestHeadDim)
{
    QColor color = backendColor(c.backend);
    if (c.causal)
        color = color.lighter(140);
    const bool thin = c.headDim < largestHeadDim;
    Qt::PenStyle style = c.reference ? Qt::DashLine : c.pass == "backward" ? Qt::DashDotLine : Qt::SolidLine;
    return QPen(legibleOn(chart, color), c.reference || thin ? 1.5 : 2.2, style);
}

QString filterText(const AttentionFilter& f)
{
    QStringList parts;
    parts << (f.pass.empty() ? QStringLiteral("forward and backward") : qs(f.pass));
    parts << (!f.causal ? QStringLiteral("with and without causal mask")
                        : *f.causal ? QStringLiteral("causal") : QStringLiteral("no mask"));
    parts << (f.headDim ? QStringLiteral("head dim %1").arg(f.headDim) : QStringLiteral("every head dim"));
    return parts.join(QStringLiteral(", "));
}
} // namespace

QString AttentionChart::populate(QChart* chart, const KernelChartData& data, const AttentionChartOptions& o)
{
    clearChart(chart);
    auto& drawn = freshDrawn<AttentionDrawn>(chart);
    const auto g = attentionGeometry(data, o);
    const double xLo = g.seqMin > 0 ? std::log2(double(g.seqMin)) : 9;
    const double xHi = g.seqMax > 0 ? std::log2(double(g.seqMax)) : 13;
    // Before the first layout the chart has no size: assume the default export width.
    const int width = chart->size().width() >= 200 ? qRound(chart->size().width()) : 1200;
    auto* x = makeLog2Axis(xLo, std::max(xHi, xLo + 1), std::max(4, width / 90), &countLabel);
    x->setTitleText(QStringLiteral("Sequence length (tokens)"));
    // The backends span decades (PyTorch's math path near 25 TFLOP/s, cuDNN near 680 on an H200):
    // over 10x between the slowest and fastest point drawn, the axis is logarithmic, else the
    // slow backends lie flat on zero.
    double lowest = 0;
    for (const auto& c : g.curves)
        for (const auto& p : c.points)
            if (p.tflops > 0 && (lowest == 0 || p.tflops < lowest))
                lowest = p.tflops;
    QAbstractAxis* y = nullptr;
    if (lowest > 0 && g.tflopsMax > 10 * lowest) {
        auto* log = new QLogValueAxis;
        log->setBase(10);
        const double lo = std::pow(10.0, std::floor(std::log10(lowest)));
        const double hi = std::pow(10.0, std::ceil(std::log10(g.tflopsMax * 1.08)));
        log->setRange(lo, hi);
        log->setLabelFormat(logTickFormat(lo, hi));
        log->setMinorTickCount(-1);
        y = log;
    } else {
        auto* linear = new QValueAxis;
        linear->setRange(0, g.tflopsMax > 0 ? g.tflopsMax * 1.08 : 1);
        linear->applyNiceNumbers();
        linear->setLabelFormat(QStringLiteral("%g"));
        y = linear;
    }
    y->setTitleText(QStringLiteral("TFLOP/s (FlashAttention convention)"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    int largestHeadDim = 0;
    for (const auto& c : g.curves)
        largestHeadDim = std::max(largestHeadDim, c.headDim);
    for (const auto& c : g.curves) {
        auto* line = new QLineSeries;
        line->setName(chartText(c.name));
        line->setPen(curvePen(chart, c, largestHeadDim));
        QList<QPointF> points;
        for (const auto& p : c.points)
            points << QPointF(std::log2(double(p.seq)), p.tflops);
        line->replace(points);
        // Five measured lengths: the markers say where the line is measured, not drawn between.
        line->setPointsVisible(!c.reference);
        line->setMarkerSize(6);
        drawn.curves.push_back(line);
        attachSeries(chart, line, x, y);
    }

    QString title = QStringLiteral("Attention");
    int titled = 0;
    for (const auto& s : data.sessions)
        if (!attentionPoints(s.session).empty())
            title += (titled++ ? QStringLiteral(", ") : QStringLiteral(" — ")) % qs(s.session.title);
    if (g.allMeasuredPoints == 0)
        title += QStringLiteral(" — no attention rates");
    else
        title += QStringLiteral(" (") % filterText(o.filter) % QLatin1Char(')');
    chart->setTitle(chartText(o.title.empty() ? title : qs(o.title)));
    chart->legend()->setVisible(true);
    // One entry a line at the side: the names are long ("fa3 forward, d=128 (h100-sxm, published)")
    // and a row of them under the plot cut each to "fa3 forward, d=1...".
    chart->legend()->setAlignment(Qt::AlignRight);

    QString d = QStringLiteral("Ridgeline ") % QStringLiteral(RIDGELINE_VERSION)
        % QStringLiteral(" attention chart; TFLOP/s = FLOPs / median time, forward 4*b*h*s^2*d FLOPs (half with a "
                         "causal mask), backward 2.5x; %1; %2 measured curves, %3 published")
              .arg(filterText(o.filter))
              .arg(g.measuredCurves)
              .arg(int(g.curves.size()) - g.measuredCurves);
    if (o.hardware)
        d += QStringLiteral("; published rates from hardware profile ") % qs(o.hardware->id);
    d += QStringLiteral("; sessions:");
    for (const auto& s : data.sessions)
        d += QStringLiteral(" [") % QString::number(s.session.id) % QStringLiteral("] ") % qs(s.session.title)
            % (s.session.host.empty() ? QString() : QStringLiteral(" (") % qs(s.session.host) % QStringLiteral(")"));
    return d;
}

bool AttentionChart::exportChart(const KernelChartData& data, const AttentionChartOptions& options, QSize size,
                                 const QString& path, QString* error)
{
    return exportChartFile([&](QChart* chart) { return populate(chart, data, options); },
                           [&] { return attentionCsv(data, options); }, size, path, error);
}

AttentionChart::AttentionChart(QWidget* parent)
    : ChartFrame(parent), m_headDim(new QComboBox(this)), m_pass(new QComboBox(this)), m_mask(new QComboBox(this)),
      m_note(new QLabel(this))
{
    view()->setObjectName(QStringLiteral("attentionView"));
    m_headDim->setObjectName(QStringLiteral("attentionHeadDim"));
    m_headDim->setToolTip(tr("The head dim of the curves drawn (a kernel's rate moves with it)"));
    m_pass->setObjectName(QStringLiteral("attentionPass"));
    m_pass->setToolTip(tr("Forward, backward (2.5x the forward FLOPs) or both"));
    m_mask->setObjectName(QStringLiteral("attentionMask"));
    m_mask->setToolTip(tr("Without the causal mask, with it (half the FLOPs, counted as such) or both"));
    m_note->setObjectName(QStringLiteral("attentionNote"));
    m_note->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText); // names profiles
    addToolbarWidget(new QLabel(tr("Head dim:"), this));
    addToolbarWidget(m_headDim);
    addToolbarWidget(new QLabel(tr("Pass:"), this));
    addToolbarWidget(m_pass);
    addToolbarWidget(new QLabel(tr("Mask:"), this));
    addToolbarWidget(m_mask);
    addToolbarSpacing(12);
    addToolbarWidget(m_note, 1);
    for (auto* box : {m_headDim, m_pass, m_mask})
        connect(box, &QComboBox::currentIndexChanged, this, &AttentionChart::filterChosen);
    fillFilterBoxes({});
    rebuild();
}

AttentionChart::~AttentionChart() = default;

void AttentionChart::fillFilterBoxes(const AttentionChoices& c)
{
    const QSignalBlocker bh(m_headDim), bp(m_pass), bm(m_mask);
    m_headDim->clear();
    for (int d : c.headDims)
        m_headDim->addItem(QStringLiteral("d=%1").arg(d), d);
    m_headDim->addItem(tr("all"), 0);
    m_pass->clear();
    for (const auto& p : c.passes)
        m_pass->addItem(qs(p), qs(p));
    m_pass->addItem(tr("both"), QString());
    m_mask->clear();
    if (c.nonCausal)
        m_mask->addItem(tr("no mask"), 0);
    if (c.causal)
        m_mask->addItem(tr("causal"), 1);
    m_mask->addItem(tr("both"), 2);
    const auto& f = m_options.filter;
    m_headDim->setCurrentIndex(std::max(0, m_headDim->findData(f.headDim)));
    m_pass->setCurrentIndex(std::max(0, m_pass->findData(qs(f.pass))));
    m_mask->setCurrentIndex(std::max(0, m_mask->findData(!f.causal ? 2 : *f.causal ? 1 : 0)));
}

void AttentionChart::filterChosen()
{
    AttentionFilter f;
    f.headDim = m_headDim->currentData().toInt();
    f.pass = m_pass->currentData().toString().toStdString();
    if (const int mask = m_mask->currentData().toInt(); mask != 2)
        f.causal = mask == 1;
    m_filterChosen = true;
    m_options.filter = f;
    rebuild();
}

void AttentionChart::setData(const KernelChartData& data)
{
    m_data = data;
    const auto choices = attentionChoices(data);
    const auto fallback = defaultAttentionFilter(choices);
    auto& f = m_options.filter;
    if (!m_filterChosen) {
        f = fallback;
    } else { // what the user chose, where these sessions measured it
        if (f.headDim != 0 && !std::count(choices.headDims.begin(), choices.headDims.end(), f.headDim))
            f.headDim = fallback.headDim;
        if (!f.pass.empty() && !std::count(choices.passes.begin(), choices.passes.end(), f.pass))
            f.pass = fallback.pass;
        if (f.causal && !(*f.causal ? choices.causal : choices.nonCausal))
            f.causal = fallback.causal;
    }
    fillFilterBoxes(choices);
    rebuild();
}

void AttentionChart::setHardwareProfile(const std::optional<HardwareProfile>& profile)
{
    m_options.hardware = profile;
    rebuild();
}

void AttentionChart::setFilter(const AttentionFilter& filter)
{
    m_options.filter = filter;
    m_filterChosen = true;
    fillFilterBoxes(attentionChoices(m_data));
    rebuild();
}

void AttentionChart::setTitle(const std::string& title)
{
    m_options.title = title;
    rebuild();
}

void AttentionChart::rebuild()
{
    callout()->hide();
    chart()->zoomReset();
    m_geometry = attentionGeometry(m_data, m_options);
    populate(chart(), m_data, m_options);
    m_note->setText(qs(m_geometry.referenceNote));
    setEmptyText(hasPoints() ? QString()
                             : tr("No attention rates in the selected sessions. A PyTorch probe attention run "
                                  "(File > New PyTorch Probe Run…) keeps them with its session."));
    const auto& curves = drawnOn<AttentionDrawn>(chart())->curves;
    for (std::size_t index = 0; index < curves.size(); ++index)
        answerHover(curves[index], [this, line = curves[index], index](QPointF pointer) -> std::optional<HoverHit> {
            if (index >= m_geometry.curves.size() || line->count() == 0)
                return std::nullopt;
            const std::size_t best = nearestByX(line->points(), pointer.x()); // the curve's points, in order
            return HoverHit{qs(describeAttentionPoint(m_geometry.curves[index], best)), line->at(qsizetype(best))};
        });
}
} // namespace rl::charts
