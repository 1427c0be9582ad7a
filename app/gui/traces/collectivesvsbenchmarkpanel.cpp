#include "gui/traces/collectivesvsbenchmarkpanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>
#include <set>
#include <variant>

#include "collectives/tierpeak.h"
#include "jobtracker.h"
#include "resulttableview.h"
#include "model/measuredrun.h"
#include "store/workspace.h"
#include "units/units.h"
#include "textconv.h"
#include "tonelabel.h"

namespace rl {
namespace {
// Display text plus the raw number (bytes, GB/s as stored, fraction) for sorting, copy and tests.
charts::ResultCell numberCell(const QString& text, double raw, const QString& tip = {})
{
    auto cell = charts::numberCell(text, raw);
    cell.tip = tip;
    return cell;
}

// In the display unit, as the headers say.
QString gbs(double v) { return std::isfinite(v) ? QString::number(units::displayBandwidth(v), 'f', 1) : QObject::tr("n/a"); }
QString percent(double v) { return qs(units::formatPercent(v, 0)); }

QString joined(const std::set<int>& values)
{
    QStringList list;
    for (int v : values)
        list << QString::number(v);
    return list.join(QStringLiteral(", "));
}
// The columns in the display unit (it may change between two fills). Two-line titles keep the
// twelve columns within the view.
std::vector<charts::ResultColumn> columns()
{
    const auto tr = [](const char* text) { return CollectivesVsBenchmarkPanel::tr(text); };
    const QString unit = QString::fromLatin1(units::bandwidthUnitName(units::displayBandwidthUnit()));
    using P = CollectivesVsBenchmarkPanel;
    std::vector<charts::ResultColumn> c(P::ColumnCount);
    c[P::RankColumn] = {tr("Rank"), tr("The trace's rank")};
    c[P::OpColumn] = {tr("Op"), {}};
    c[P::DtypeColumn] = {tr("Dtype"), {}};
    c[P::RanksColumn] = {tr("Ranks"), tr("Ranks in the collective's communicator")};
    c[P::SizeColumn] = {tr("Size"), tr("Bytes per rank, as nccl-tests counts them")};
    c[P::CallsColumn] = {tr("Calls"), tr("Calls of this shape in the trace")};
    c[P::MeanTimeColumn] = {tr("Mean time\n(µs)"), tr("Mean kernel time per call")};
    c[P::TraceBusbwColumn] = {tr("Trace busbw\n(%1)").arg(unit), tr("From the mean call")};
    c[P::BestBusbwColumn] = {tr("Best call\nbusbw (%1)").arg(unit),
                             tr("From the fastest call: NCCL/RCCL kernel time includes waiting for late peers")};
    c[P::BenchmarkBusbwColumn] = {tr("Benchmark\nbusbw (%1)").arg(unit),
                                  tr("The benchmark's busbw at this op and size, interpolated log-log")};
    c[P::RatioColumn] = {tr("Achieved\n(%)"), tr("Trace busbw (mean call) / benchmark busbw")};
    c[P::BestRatioColumn] = {tr("Best call\nachieved (%)"), tr("Best call busbw / benchmark busbw")};
    return c;
}
} // namespace

CollectivesVsBenchmarkPanel::CollectivesVsBenchmarkPanel(QWidget* parent)
    : QWidget(parent), m_pointsJob(new JobTracker(this))
{
    m_benchmark = new QComboBox;
    m_benchmark->setObjectName(QStringLiteral("benchmarkSession"));
    m_benchmark->setToolTip(tr("A collective benchmark session of this workspace (nccl-tests, rccl-tests, OSU, "
                               "ridgeline-bench): its busbw at each trace collective's op and size, interpolated "
                               "log-log between measured sizes"));
    m_benchmark->setMinimumContentsLength(40);
    m_benchmark->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_status->setObjectName(QStringLiteral("collectivesStatus"));
    m_status->setWordWrap(true);
    m_warning = new QLabel;
    m_warning->setObjectName(QStringLiteral("rankWarning"));
    setLabelTone(m_warning, LabelTone::Warning);
    m_warning->setWordWrap(true);
    m_warning->hide();

    m_table = new charts::ResultTableView;
    m_table->setObjectName(QStringLiteral("collectiveTable"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Each collective shape the trace recorded, per rank, against the benchmark"));

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Benchmark:")));
    top->addWidget(m_benchmark);
    top->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_warning);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);

    connect(m_benchmark, &QComboBox::currentIndexChanged, this, &CollectivesVsBenchmarkPanel::loadBenchmarkPoints);
    showRows();
}

void CollectivesVsBenchmarkPanel::setWorkspace(const QString& path)
{
    if (path == m_workspace)
        return;
    m_workspace = path;
    m_points.clear();
    const QSignalBlocker block(m_benchmark);
    m_benchmark->clear();
    showRows();
}

namespace {
constexpr int kDeviceRole = Qt::UserRole + 1;
}

void CollectivesVsBenchmarkPanel::setSession(const charts::TraceChartData& data)
{
    m_data = data.isTrace() ? data : charts::TraceChartData{};
    std::vector<std::string> names;
    for (const auto& k : m_data.kernels)
        names.push_back(k.name);
    m_traceDevice = qs(model::deviceFromKernelNames(names));
    if (m_data.isTrace() && m_data.session.id != m_chosenFor) {
        const std::int64_t before = benchmark();
        chooseBenchmarkForTrace();
        if (benchmark() != before)
            return; // loadBenchmarkPoints (through the combo) shows the rows
    }
    if (m_data.isTrace() && benchmark() != 0 && m_points.empty() && !m_pointsJob->isRunning()) {
        loadBenchmarkPoints(); // the first trace: the benchmark's points were not read without one
        return;
    }
    showRows();
}

void CollectivesVsBenchmarkPanel::chooseBenchmarkForTrace()
{
    m_chosenFor = m_data.session.id;
    if (m_traceDevice.isEmpty() || m_benchmark->count() == 0)
        return; // nothing to match: the user's or the first benchmark stays
    if (m_benchmark->currentData(kDeviceRole).toString() == m_traceDevice)
        return;
    int match = -1;
    for (int i = 0; i < m_benchmark->count() && match < 0; ++i)
        if (m_benchmark->itemData(i, kDeviceRole).toString() == m_traceDevice)
            match = i;
    m_benchmark->setCurrentIndex(match);
}

QString CollectivesVsBenchmarkPanel::benchmarkDevice() const
{
    return m_benchmark->currentIndex() >= 0 ? m_benchmark->currentData(kDeviceRole).toString() : QString();
}

void CollectivesVsBenchmarkPanel::setSessions(const std::vector<Session>& sessions)
{
    const std::int64_t current = benchmark();
    {
        const QSignalBlocker block(m_benchmark);
        m_benchmark->clear();
        for (const auto& s : sessions)
            if (s.kind == kind::Collectives) {
                m_benchmark->addItem(tr("#%1 %2").arg(s.id).arg(qs(s.title)), QVariant::fromValue<qint64>(s.id));
                const int i = m_benchmark->count() - 1;
                m_benchmark->setItemData(i, tr("%1 %2, %3").arg(qs(s.tool), qs(s.toolVersion), qs(s.created)),
                                         Qt::ToolTipRole);
                // The GPU it ran on: the tool's device lines, else what its title or host says.
                const auto devices = sessionDevices(s);
                m_benchmark->setItemData(
                    i, qs(devices.empty() ? model::deviceInText(s.title + ' ' + s.host) : devices.front()), kDeviceRole);
            }
        const int keep = m_benchmark->findData(QVariant::fromValue<qint64>(current));
        m_benchmark->setCurrentIndex(keep >= 0 ? keep : (m_benchmark->count() > 0 ? 0 : -1));
        if (keep < 0 && m_data.isTrace())
            chooseBenchmarkForTrace();
    }
    if (benchmark() != current || (benchmark() != 0 && m_points.empty()))
        loadBenchmarkPoints();
    else
        showRows();
}

void CollectivesVsBenchmarkPanel::setBenchmark(std::int64_t sessionId)
{
    m_benchmark->setCurrentIndex(m_benchmark->findData(QVariant::fromValue<qint64>(sessionId)));
}

std::int64_t CollectivesVsBenchmarkPanel::benchmark() const
{
    return m_benchmark->currentIndex() >= 0 ? m_benchmark->currentData().toLongLong() : 0;
}

void CollectivesVsBenchmarkPanel::loadBenchmarkPoints()
{
    m_points.clear();
    const std::int64_t id = benchmark();
    // Read only while a trace is shown: a benchmark of millions of points is not held (nor read,
    // beside the charts' own read of it) for a tab that has nothing to compare.
    if (id == 0 || m_workspace.isEmpty() || !m_data.isTrace()) {
        m_pointsJob->cancel();
        showRows();
        return;
    }
    m_status->setText(tr("Reading benchmark #%1…").arg(id));
    using Points = std::variant<std::vector<CollectivePoint>, QString>;
    const std::string path = m_workspace.toStdString();
    m_pointsJob->start<Points>(
        [path, id](auto&) -> Points {
            try {
                store::Workspace ws(path);
                return ws.collectivePoints(id);
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this](Points out) {
            if (auto* error = std::get_if<QString>(&out)) {
                showRows();
                m_status->setText(tr("Could not read the benchmark: %1").arg(*error));
                return;
            }
            m_points = std::move(std::get<std::vector<CollectivePoint>>(out));
            showRows();
        });
}

QString CollectivesVsBenchmarkPanel::warning() const { return m_warning->isVisible() ? m_warning->text() : QString(); }

void CollectivesVsBenchmarkPanel::showRows()
{
    m_rows = trace::compareWithBenchmark(m_data.collectives, m_points);
    charts::ResultTable table{columns(), {}, {}}; // the display unit may have changed since
    m_warning->hide();
    if (!m_data.isTrace())
        m_status->setText(tr("Select a trace session."));
    else if (m_rows.empty())
        m_status->setText(tr("The trace recorded no collectives with their arguments (sizes come from the NCCL/RCCL "
                             "kernel arguments Kineto records with record_shapes)."));
    else if (m_benchmark->count() == 0)
        m_status->setText(tr("No collective benchmark in this workspace: import an nccl-tests, rccl-tests or OSU "
                             "output, or run one (File ▸ New collective benchmark)."));
    else if (benchmark() == 0 && !m_traceDevice.isEmpty())
        m_status->setText(tr("No collective benchmark of an %1 in this workspace (the trace's kernels are %1's): "
                             "choose one of another device to compare anyway, or import or run one on an %1.")
                              .arg(m_traceDevice));
    else
        m_status->setText(tr("%1 collective shape(s) of session %2 against benchmark #%3 (%4 points).")
                              .arg(m_rows.size())
                              .arg(m_data.session.id)
                              .arg(benchmark())
                              .arg(m_points.size()));

    // busbw only compares at the same rank count: the bus factor corrects for the algorithm, not
    // for the topology (8 ranks in one node vs 16 over the network).
    std::set<int> traceRanks, benchRanks;
    for (const auto& r : m_rows)
        traceRanks.insert(r.call.nranks);
    for (const auto& p : m_points)
        benchRanks.insert(p.nranks);
    QStringList warnings;
    if (!traceRanks.empty() && !benchRanks.empty() && traceRanks != benchRanks)
        warnings << tr("Rank counts differ: the trace's collectives ran on %1 rank(s), the benchmark on %2. "
                       "busbw at another rank count (and topology) is a rough reference only.")
                        .arg(joined(traceRanks), joined(benchRanks));
    if (!m_rows.empty() && !m_traceDevice.isEmpty() && !benchmarkDevice().isEmpty() && benchmarkDevice() != m_traceDevice)
        warnings << tr("Devices differ: the trace ran on an %1, the benchmark on an %2: the percentages compare two "
                       "machines.")
                        .arg(m_traceDevice, benchmarkDevice());
    if (!warnings.isEmpty()) {
        m_warning->setText(warnings.join(u' '));
        m_warning->show();
    }
    // Nothing to compare: no benchmark to choose.
    m_benchmark->setEnabled(!m_rows.empty());

    const QString noBench = benchmark() ? tr("The benchmark did not measure this op, or this size lies outside its sweep")
                                        : tr("Choose a benchmark session");
    for (const auto& r : m_rows) {
        const auto& c = r.call;
        const bool known = std::isfinite(r.benchmarkBusbwGBs);
        auto& row = table.rows.emplace_back(ColumnCount);
        row[RankColumn] = numberCell(QString::number(c.rank), c.rank);
        row[OpColumn] = charts::textCell(qs(c.op));
        row[DtypeColumn] = charts::textCell(qs(c.dtype));
        row[RanksColumn] = numberCell(QString::number(c.nranks), c.nranks);
        row[SizeColumn] = numberCell(qs(units::formatBytes(double(c.bytes))), double(c.bytes), tr("%L1 bytes").arg(c.bytes));
        row[CallsColumn] = numberCell(QString::number(c.count), double(c.count));
        row[MeanTimeColumn] = numberCell(QString::number(c.meanUs(), 'f', 1), c.meanUs());
        row[TraceBusbwColumn] = numberCell(gbs(c.busbwGBs), c.busbwGBs);
        row[BestBusbwColumn] = numberCell(gbs(c.bestBusbwGBs), c.bestBusbwGBs);
        row[BenchmarkBusbwColumn] = numberCell(gbs(r.benchmarkBusbwGBs), r.benchmarkBusbwGBs, known ? QString() : noBench);
        row[RatioColumn] = numberCell(percent(r.meanEfficiency()), r.meanEfficiency(), known ? QString() : noBench);
        row[BestRatioColumn] = numberCell(percent(r.bestEfficiency()), r.bestEfficiency(), known ? QString() : noBench);
    }
    m_table->setTable(std::move(table));
    emit comparisonChanged();
}
} // namespace rl
