#include "gui/resilience/resilienceresults.h"

#include <QTreeWidget>

#include "textconv.h"
#include "units/duration.h"
#include "units/units.h"

namespace rl {
namespace {
QString bytes(double b) { return qs(units::formatBytes(b)); }
QString duration(double s) { return qs(units::formatDuration(s)); }
QString rate(double gbs) { return gbs > 0 ? qs(units::formatBandwidth(gbs)) : QObject::tr("no limit"); }

void addRow(charts::ResultTable& t, const QString& quantity, const QString& value, QVariant number,
            const QString& basis)
{
    t.rows.push_back(
        {charts::textCell(quantity), charts::numberCell(value, std::move(number)), charts::textCell(basis)});
}

void addSection(charts::ResultTable& t, const QString& title)
{
    auto cell = charts::textCell(title);
    cell.bold = true;
    // Short enough for the quantity column: the rest of the row stays empty.
    t.rows.push_back({std::move(cell)});
}

QString contentsText(const resilience::CheckpointContents& c)
{
    QStringList parts;
    if (c.weights)
        parts << QObject::tr("bf16 weights");
    if (c.optimizer)
        parts << QObject::tr("fp32 optimizer states (12 B/param)");
    if (c.gradients)
        parts << QObject::tr("gradients");
    return parts.join(QStringLiteral(", "));
}
} // namespace

std::vector<charts::ResultColumn> resilienceFigureColumns()
{
    return {{QObject::tr("Quantity"), QObject::tr("What the plan computes: checkpoint size, save and load times, "
                                                  "failures and the checkpoint interval")},
            {QObject::tr("Value"), QObject::tr("Each with its unit: bytes (B, KiB … TiB), durations (ms, s, min, h), "
                                               "rates in GB/s, goodput in %")},
            {QObject::tr("Basis"), QObject::tr("The memory model, session, typed value or published formula the "
                                               "value rests on")}};
}

charts::ResultTable resilienceFigures(const ResilienceOutcome& o)
{
    charts::ResultTable t{resilienceFigureColumns(), {}, {}};
    if (!o.plan)
        return t;
    const auto& p = *o.plan;
    const auto& sz = p.size;
    const auto& tm = p.times;
    const auto& in = o.inputs;
    const QString storage = qs(in.storage.source);
    const QString sharding = qs(sz.sharding);

    addSection(t, QObject::tr("Checkpoint"));
    addRow(t, QObject::tr("GPUs and nodes"), QObject::tr("%1 GPUs on %2 nodes").arg(sz.ranks).arg(p.nodes), sz.ranks,
           qs(o.subject) + QObject::tr("; %1 GPUs per node").arg(in.gpusPerNode));
    addRow(t, QObject::tr("Held per GPU: weights"), bytes(sz.heldWeights), sz.heldWeights,
           QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Held per GPU: gradients"), bytes(sz.heldGradients), sz.heldGradients,
           QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Held per GPU: optimizer states"), bytes(sz.heldOptimizer), sz.heldOptimizer,
           QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Checkpoint per rank (busiest writer)"), bytes(sz.maxRankBytes), sz.maxRankBytes,
           QObject::tr("saved: %1; %2").arg(contentsText(in.contents), sharding));
    addRow(t, QObject::tr("Checkpoint per rank (mean)"), bytes(sz.meanRankBytes), sz.meanRankBytes,
           QObject::tr("total over %1 ranks").arg(sz.ranks));
    addRow(t, QObject::tr("Checkpoint total"), bytes(sz.totalBytes), sz.totalBytes,
           QObject::tr("every saved byte once, written by %1 ranks").arg(sz.writers));
    addRow(t, QObject::tr("Read back per rank on restart"), bytes(sz.loadRankBytes), sz.loadRankBytes,
           QObject::tr("every replica reads its state; %1 in total").arg(bytes(sz.loadTotalBytes)));

    addSection(t, QObject::tr("Save and load"));
    addRow(t, QObject::tr("Storage write / read"),
           QObject::tr("%1 / %2 aggregate").arg(rate(in.storage.writeAggregateGBs), rate(in.storage.readAggregateGBs)),
           in.storage.writeAggregateGBs,
           storage + QObject::tr("; per rank %1 / %2")
                         .arg(rate(in.storage.writePerRankGBs), rate(in.storage.readPerRankGBs)));
    addRow(t, QObject::tr("Save, synchronous"), duration(tm.syncSaveS), tm.syncSaveS,
           QObject::tr("slowest of the busiest rank at its rate and the total at the aggregate rate; ") + storage);
    addRow(t, QObject::tr("Save, async: training blocked"), duration(tm.asyncBlockingS), tm.asyncBlockingS,
           QObject::tr("device-to-host snapshot at %1 per GPU (typed)").arg(rate(in.snapshotGBs)));
    addRow(t, QObject::tr("Save, async: drain in the background"), duration(tm.asyncDrainS), tm.asyncDrainS, storage);
    addRow(t, QObject::tr("Async: pinned host memory per GPU"), bytes(tm.hostBytesPerRank), tm.hostBytesPerRank,
           QObject::tr("the busiest rank's snapshot"));
    addRow(t, QObject::tr("Load on restart"), duration(tm.loadS), tm.loadS, storage);
    addRow(t, QObject::tr("Restart (relaunch + load)"), duration(p.restartS), p.restartS,
           QObject::tr("relaunch %1 + load %2").arg(duration(in.relaunchS), duration(tm.loadS)));

    addSection(t, QObject::tr("Failures and interval"));
    addRow(t, QObject::tr("Node MTBF"), duration(in.nodeMtbfHours * 3600), in.nodeMtbfHours * 3600, qs(in.mtbfSource));
    addRow(t, QObject::tr("Job MTBF"), duration(p.jobMtbfS), p.jobMtbfS,
           QObject::tr("node MTBF / %1 nodes (independent exponential failures)").arg(p.nodes));
    addRow(t, QObject::tr("Checkpoint cost C"), duration(p.checkpointCostS), p.checkpointCostS,
           in.async ? QObject::tr("async: the snapshot blocks training") : QObject::tr("sync: the save blocks training"));
    addRow(t, QObject::tr("Young interval"), duration(p.youngS), p.youngS,
           QObject::tr("sqrt(2 C M), M = job MTBF (Young 1974)"));
    addRow(t, QObject::tr("Daly interval"), duration(p.dalyS), p.dalyS,
           QObject::tr("sqrt(2CM)[1 + (1/3)sqrt(C/2M) + (1/9)(C/2M)] - C (Daly 2006)"));
    addRow(t, QObject::tr("Interval used"), duration(p.intervalS), p.intervalS,
           p.intervalS > p.dalyS * (1 + 1e-9) ? QObject::tr("raised to the async drain time")
                                               : QObject::tr("Daly's optimum"));
    addRow(t, QObject::tr("Expected goodput"), qs(units::formatPercent(p.goodput, 2)), p.goodput,
           QObject::tr("useful / wall time in Daly's model at the interval used, restart %1, job MTBF %2")
               .arg(duration(p.restartS), duration(p.jobMtbfS)));
    for (const auto& n : p.notes)
        addRow(t, QObject::tr("Note"), QString(), {}, qs(n));
    return t;
}

QString showReshape(QTreeWidget* tree, const ResilienceOutcome& o)
{
    tree->clear();
    if (!o.reshape)
        return {};
    const auto& r = *o.reshape;
    QList<QTreeWidgetItem*> items;
    for (const auto& rank : r.ranks) {
        auto* top = new QTreeWidgetItem({qs(resilience::toString(rank.to)), bytes(rank.bytes),
                                         QObject::tr("%n old file(s)", nullptr, rank.files), QString()});
        top->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        for (const auto& s : rank.reads) {
            auto* child = new QTreeWidgetItem({qs(resilience::toString(s.from)), bytes(s.bytes),
                                               qs(s.state + " (" + s.part + ")"), qs(s.what)});
            child->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            top->addChild(child);
        }
        items << top;
    }
    tree->addTopLevelItems(items);
    for (int c = 0; c < 3; ++c)
        tree->resizeColumnToContents(c);
    QString summary = QObject::tr("Checkpoint %1 in %2 old files; %3 new ranks read %4 in total, %5 the busiest "
                                  "(mean %6).")
                          .arg(bytes(r.uniqueBytes))
                          .arg(r.oldFiles)
                          .arg(r.ranks.size())
                          .arg(bytes(r.totalReadBytes), bytes(r.maxRankBytes), bytes(r.meanRankBytes));
    if (o.inputs.storage.readAggregateGBs > 0)
        summary += QObject::tr(" Every rank reads from storage: %1 (%2).")
                       .arg(duration(r.storageReadS), qs(o.inputs.storage.source));
    else
        summary += QObject::tr(" No storage rates: no read time.");
    if (r.readOnceScatterS > 0)
        summary += QObject::tr(" Read once and scatter over the network: %1 (typed per-rank network GB/s).")
                       .arg(duration(r.readOnceScatterS));
    return summary;
}
} // namespace rl
