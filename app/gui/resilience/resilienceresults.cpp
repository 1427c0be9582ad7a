#include "gui/resilience/resilienceresults.h"

#include <QHeaderView>
#include <QTableWidget>
#include <QTreeWidget>

#include "textconv.h"
#include "units/duration.h"
#include "units/units.h"

namespace rl {
namespace {
QString bytes(double b) { return qs(units::formatBytes(b)); }
QString duration(double s) { return qs(units::formatDuration(s)); }
QString rate(double gbs) { return gbs > 0 ? qs(units::formatBandwidth(gbs)) : QObject::tr("no limit"); }

void addRow(QTableWidget* t, const QString& quantity, const QString& value, const QString& basis)
{
    const int row = t->rowCount();
    t->insertRow(row);
    auto* q = new QTableWidgetItem(quantity);
    auto* v = new QTableWidgetItem(value);
    v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto* b = new QTableWidgetItem(basis);
    b->setToolTip(basis);
    for (auto* item : {q, v, b})
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    t->setItem(row, 0, q);
    t->setItem(row, 1, v);
    t->setItem(row, 2, b);
}

void addSection(QTableWidget* t, const QString& title)
{
    const int row = t->rowCount();
    t->insertRow(row);
    auto* item = new QTableWidgetItem(title);
    QFont f = item->font();
    f.setBold(true);
    item->setFont(f);
    item->setFlags(Qt::ItemIsEnabled);
    t->setItem(row, 0, item);
    t->setSpan(row, 0, 1, 3);
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

void showResilienceFigures(QTableWidget* t, const ResilienceOutcome& o)
{
    t->clearSpans();
    t->setRowCount(0);
    if (!o.plan)
        return;
    const auto& p = *o.plan;
    const auto& sz = p.size;
    const auto& tm = p.times;
    const auto& in = o.inputs;
    const QString storage = qs(in.storage.source);
    const QString sharding = qs(sz.sharding);

    addSection(t, QObject::tr("Checkpoint"));
    addRow(t, QObject::tr("GPUs and nodes"), QObject::tr("%1 GPUs on %2 nodes").arg(sz.ranks).arg(p.nodes),
           qs(o.subject) + QObject::tr("; %1 GPUs per node").arg(in.gpusPerNode));
    addRow(t, QObject::tr("Held per GPU: weights"), bytes(sz.heldWeights), QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Held per GPU: gradients"), bytes(sz.heldGradients), QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Held per GPU: optimizer states"), bytes(sz.heldOptimizer),
           QObject::tr("memory model; ") + sharding);
    addRow(t, QObject::tr("Checkpoint per rank (busiest writer)"), bytes(sz.maxRankBytes),
           QObject::tr("saved: %1; %2").arg(contentsText(in.contents), sharding));
    addRow(t, QObject::tr("Checkpoint per rank (mean)"), bytes(sz.meanRankBytes),
           QObject::tr("total over %1 ranks").arg(sz.ranks));
    addRow(t, QObject::tr("Checkpoint total"), bytes(sz.totalBytes),
           QObject::tr("every saved byte once, written by %1 ranks").arg(sz.writers));
    addRow(t, QObject::tr("Read back per rank on restart"), bytes(sz.loadRankBytes),
           QObject::tr("every replica reads its state; %1 in total").arg(bytes(sz.loadTotalBytes)));

    addSection(t, QObject::tr("Save and load"));
    addRow(t, QObject::tr("Storage write / read"),
           QObject::tr("%1 / %2 aggregate").arg(rate(in.storage.writeAggregateGBs), rate(in.storage.readAggregateGBs)),
           storage + QObject::tr("; per rank %1 / %2")
                         .arg(rate(in.storage.writePerRankGBs), rate(in.storage.readPerRankGBs)));
    addRow(t, QObject::tr("Save, synchronous"), duration(tm.syncSaveS),
           QObject::tr("slowest of the busiest rank at its rate and the total at the aggregate rate; ") + storage);
    addRow(t, QObject::tr("Save, async: training blocked"), duration(tm.asyncBlockingS),
           QObject::tr("device-to-host snapshot at %1 per GPU (typed)").arg(rate(in.snapshotGBs)));
    addRow(t, QObject::tr("Save, async: drain in the background"), duration(tm.asyncDrainS), storage);
    addRow(t, QObject::tr("Async: pinned host memory per GPU"), bytes(tm.hostBytesPerRank),
           QObject::tr("the busiest rank's snapshot"));
    addRow(t, QObject::tr("Load on restart"), duration(tm.loadS), storage);
    addRow(t, QObject::tr("Restart (relaunch + load)"), duration(p.restartS),
           QObject::tr("relaunch %1 + load %2").arg(duration(in.relaunchS), duration(tm.loadS)));

    addSection(t, QObject::tr("Failures and interval"));
    addRow(t, QObject::tr("Node MTBF"), duration(in.nodeMtbfHours * 3600), qs(in.mtbfSource));
    addRow(t, QObject::tr("Job MTBF"), duration(p.jobMtbfS),
           QObject::tr("node MTBF / %1 nodes (independent exponential failures)").arg(p.nodes));
    addRow(t, QObject::tr("Checkpoint cost C"), duration(p.checkpointCostS),
           in.async ? QObject::tr("async: the snapshot blocks training") : QObject::tr("sync: the save blocks training"));
    addRow(t, QObject::tr("Young interval"), duration(p.youngS), QObject::tr("sqrt(2 C M), M = job MTBF (Young 1974)"));
    addRow(t, QObject::tr("Daly interval"), duration(p.dalyS),
           QObject::tr("sqrt(2CM)[1 + (1/3)sqrt(C/2M) + (1/9)(C/2M)] - C (Daly 2006)"));
    addRow(t, QObject::tr("Interval used"), duration(p.intervalS),
           p.intervalS > p.dalyS * (1 + 1e-9) ? QObject::tr("raised to the async drain time")
                                               : QObject::tr("Daly's optimum"));
    addRow(t, QObject::tr("Expected goodput"), qs(units::formatPercent(p.goodput, 2)),
           QObject::tr("useful / wall time in Daly's model at the interval used, restart %1, job MTBF %2")
               .arg(duration(p.restartS), duration(p.jobMtbfS)));
    for (const auto& n : p.notes)
        addRow(t, QObject::tr("Note"), QString(), qs(n));
    t->resizeColumnToContents(0);
    t->resizeColumnToContents(1);
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
