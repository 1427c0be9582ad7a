#include "planresultmodel.h"

#include "plan/layout.h"
#include "textconv.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl {
namespace {
QString memoryText(const model::StepEstimate& s)
{
    const QString used = qs(units::formatMemory(s.memory.total()));
    return s.memoryCapacity > 0 ? used + QStringLiteral(" of ") + qs(units::formatMemory(s.memoryCapacity)) : used;
}
} // namespace

PlanResultModel::PlanResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void PlanResultModel::setResults(std::vector<plan::PlanRow> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void PlanResultModel::clear() { setResults({}); }

const plan::PlanRow* PlanResultModel::rowAt(int row) const
{
    return row >= 0 && row < int(m_rows.size()) ? &m_rows[std::size_t(row)] : nullptr;
}

int PlanResultModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int PlanResultModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant PlanResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[ColumnCount] = {
        QT_TR_NOOP("#"), QT_TR_NOOP("tie"), QT_TR_NOOP("step"), QT_TR_NOOP("tokens/s"), QT_TR_NOOP("MFU"),
        QT_TR_NOOP("memory/GPU"), QT_TR_NOOP("layout"), QT_TR_NOOP("micro-batch"), QT_TR_NOOP("recompute"),
        QT_TR_NOOP("SP"), QT_TR_NOOP("ZeRO"), QT_TR_NOOP("dtype"), QT_TR_NOOP("attention"), QT_TR_NOOP("overlap"),
        QT_TR_NOOP("vs #1")};
    static const char* const tips[ColumnCount] = {
        QT_TR_NOOP("Rank among every layout that fits, by predicted step time"),
        QT_TR_NOOP("'=': within the error band's median of #1, a tie: the model cannot tell it apart from #1"),
        QT_TR_NOOP("Predicted time of one optimizer step"),
        QT_TR_NOOP("Tokens trained per second over the whole cluster"),
        QT_TR_NOOP("Model FLOPs utilisation against the device's dense peak"),
        QT_TR_NOOP("Memory per GPU (weights, gradients, optimizer, activations, working buffers, communication buffers) "
                   "of the device's capacity, less what the framework keeps: its CUDA/HIP context and allocator slack"),
        QT_TR_NOOP("Parallel degrees: tensor, pipeline, data, context, virtual pipeline, expert, expert tensor, and "
                   "the pipeline stage split when not even"),
        QT_TR_NOOP("Sequences per micro-batch x micro-batches per data-parallel rank per step"),
        QT_TR_NOOP("Activation recompute: none, selective (attention scores) or full (each layer's forward)"),
        QT_TR_NOOP("Sequence parallel"), QT_TR_NOOP("ZeRO stage (1: distributed optimizer)"),
        QT_TR_NOOP("GEMM dtype"), QT_TR_NOOP("Attention kernel ('by shape': timed as GEMMs by shape)"),
        QT_TR_NOOP("Communication overlaps that are on"),
        QT_TR_NOOP("How much slower than #1, and what grew (shares of #1's step time)")};
    if (role == Qt::DisplayRole)
        return tr(names[section]);
    if (role == Qt::ToolTipRole)
        return tr(tips[section]);
    return {};
}

QVariant PlanResultModel::data(const QModelIndex& index, int role) const
{
    const auto* r = index.isValid() && index.column() < ColumnCount ? rowAt(index.row()) : nullptr;
    if (!r)
        return {};
    switch (role) {
    case Qt::DisplayRole:
        return display(*r, index.column());
    case Qt::ToolTipRole:
        return toolTip(*r, index.column());
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case RankColumn: case StepColumn: case TokensColumn: case MfuColumn: case MemoryColumn: case ZeroColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        case TieColumn: case SpColumn:
            return int(Qt::AlignCenter);
        default:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    case SortRole:
        return sortValue(*r, index.column());
    case StepSecondsRole:
        return r->step.stepSeconds;
    case MemoryBytesRole:
        return r->step.memory.total();
    case RankRole:
        return qlonglong(r->rank);
    case LayoutSpecRole:
        return qs(plan::toSpec(r->layout));
    default:
        return {};
    }
}

QVariant PlanResultModel::display(const plan::PlanRow& r, int column) const
{
    const auto& l = r.layout;
    const auto& s = r.step;
    switch (column) {
    case RankColumn: return qlonglong(r.rank);
    case TieColumn: return r.tieWithBest ? QStringLiteral("=") : QString();
    case StepColumn: return qs(units::formatTime(s.stepSeconds * 1e6));
    case TokensColumn: return QString(qs(units::formatCount(s.tokensPerSecond)) + tr(" tokens/s"));
    case MfuColumn: return qs(units::formatPercent(s.mfu, 1));
    case MemoryColumn: return memoryText(s);
    case LayoutColumn: return qs(plan::degreesText(l, r.parallel.dp));
    case MicroBatchColumn: return QStringLiteral("%1 x %2").arg(l.microBatch).arg(r.parallel.effectiveMicroBatches());
    case RecomputeColumn: return QLatin1String(model::toString(l.recompute));
    case SpColumn: return l.sp ? tr("on") : tr("off");
    case ZeroColumn: return l.zero;
    case DtypeColumn: return qs(l.dtype);
    case AttentionColumn: return l.attention.empty() ? tr("by shape") : qs(l.attention);
    case OverlapColumn: return qs(plan::switchesText(l));
    case GapColumn:
        return r.rank == 1 || m_rows.empty()
                   ? tr("#1")
                   : QString(QStringLiteral("+") + qs(units::formatPercent(r.gapToBest, 1)) + QLatin1Char(' ') +
                             qs(plan::explainGap(s, m_rows.front().step)));
    default: return {};
    }
}

QVariant PlanResultModel::sortValue(const plan::PlanRow& r, int column) const
{
    const auto& l = r.layout;
    const auto& s = r.step;
    switch (column) {
    case RankColumn: return qlonglong(r.rank);
    case TieColumn: return r.tieWithBest ? 1 : 0;
    case StepColumn: return s.stepSeconds;
    case TokensColumn: return s.tokensPerSecond;
    case MfuColumn: return s.mfu;
    case MemoryColumn: return s.memory.total();
    case MicroBatchColumn: return l.microBatch;
    case ZeroColumn: return l.zero;
    case SpColumn: return l.sp ? 1 : 0;
    case GapColumn: return r.gapToBest;
    default: return display(r, column);
    }
}

QVariant PlanResultModel::toolTip(const plan::PlanRow& r, int column) const
{
    const auto& s = r.step;
    switch (column) {
    case TieColumn:
        return r.tieWithBest ? tr("Within the error band's median of #1: the model cannot tell this layout from #1")
                             : QVariant();
    case MemoryColumn: {
        const QString parts = qs(model::memoryPartsText(s.memory));
        if (s.memoryCapacity <= 0)
            return parts;
        return QString(parts + tr("; usable %1 of %2 (%3 kept for the framework)")
                           .arg(qs(units::formatMemory(s.usableMemory())),
                                qs(units::formatMemory(s.memoryCapacity)),
                                qs(units::formatMemory(s.memoryCapacity - s.usableMemory()))));
    }
    case LayoutColumn:
        return qs(plan::toSpec(r.layout));
    case GapColumn:
    case OverlapColumn:
        return display(r, column);
    default:
        return {};
    }
}
} // namespace rl
