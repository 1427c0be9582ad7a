#include "gui/sizing/plantext.h"

#include <QCoreApplication>
#include <QStringList>

#include "model/validation.h"
#include "plan/launchargs.h"
#include "plan/layout.h"
#include "textconv.h"
#include "units/units.h"
#include "units/memory.h"

namespace rl::plantext {
namespace {
QString tr(const char* s) { return QCoreApplication::translate("rl::PlanWindow", s); }
QString time(double seconds) { return qs(units::formatTime(seconds * 1e6)); }
} // namespace

QString count(double v)
{
    // As ridgeline-cli plan writes counts ("1,234,567"), whatever the locale.
    const QString digits = QString::number((long long)(v + 0.5));
    QString out;
    for (qsizetype i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1].isDigit())
            out += QLatin1Char(',');
        out += digits[i];
    }
    return out;
}

QString countsLine(const plan::PlanResult& r)
{
    const auto& c = r.counts;
    return tr("%1 %2 combinations in %3 on %4 thread(s): %5 illegal, %6 out of memory, %7 ranked%8.")
        .arg(r.cancelled ? tr("Cancelled after") : tr("Searched"), count(c.enumerated), time(r.seconds))
        .arg(r.threads)
        .arg(count(c.illegalTotal()), count(c.outOfMemoryTotal()), count(c.ranked),
             r.cancelled ? tr(" (partial counts)") : QString());
}

QString bandSentence(const plan::PlanResult& r)
{
    return tr("Expected error of each step time: %1; mean %2. Layouts within the median of #1 are marked '=' (a "
              "tie: the model cannot tell them apart).")
        .arg(qs(model::describe(r.band)), qs(model::describeBias(r.band)));
}

QString details(const plan::PlanRow& row, const plan::PlanRow& best, const model::ModelConfig& c,
                const plan::Cluster& cl, const std::string& config, const std::string& hardware)
{
    const auto& s = row.step;
    QStringList out;
    out << tr("#%1%2: %3 · step %4 · %5 tokens/s · MFU %6")
               .arg(row.rank)
               .arg(row.tieWithBest ? tr(" (tie with #1)") : QString())
               .arg(qs(plan::degreesText(row.layout, row.parallel.dp)), time(s.stepSeconds),
                    qs(units::formatCount(s.tokensPerSecond)), qs(units::formatPercent(s.mfu, 1)));
    out << tr("Layout: %1").arg(qs(plan::toSpec(row.layout)));
    if (row.rank > 1)
        out << tr("vs #1: +%1 (%2)")
                   .arg(qs(units::formatPercent(row.gapToBest, 1)), qs(plan::explainGap(s, best.step)));
    out << QString() << tr("Step time breakdown (one step, the busiest pipeline stage):");
    const struct
    {
        const char* what;
        double seconds;
    } parts[] = {{"GEMM", s.gemmSeconds},
                 {"element-wise", s.elementwiseSeconds},
                 {"recompute", s.recomputeSeconds},
                 {"pipeline bubble", s.bubbleSeconds},
                 {"exposed DP communication", s.exposedDpSeconds},
                 {"exposed TP communication", s.exposedTpSeconds},
                 {"exposed EP communication", s.exposedEpSeconds},
                 {"exposed PP / CP communication", s.exposedOtherSeconds},
                 {"optimizer (and gradient accumulation)", s.optimizerSeconds + s.gradAccumulationSeconds}};
    for (const auto& p : parts)
        out << QStringLiteral("  %1 %2 %3")
                   .arg(tr(p.what) + QLatin1Char(':'), -40)
                   .arg(time(p.seconds), 10)
                   .arg(s.stepSeconds > 0 ? qs(units::formatPercent(p.seconds / s.stepSeconds, 1)) : QString(), 8);
    out << QStringLiteral("  %1 %2").arg(tr("step:"), -40).arg(time(s.stepSeconds), 10);
    out << tr("Memory per GPU: %1 (%2)%3")
               .arg(qs(units::formatMemory(s.memory.total())), qs(model::memoryPartsText(s.memory)),
                    s.memoryCapacity > 0
                        ? tr(" of %1, %2 usable").arg(qs(units::formatMemory(s.memoryCapacity)),
                                                      qs(units::formatMemory(s.usableMemory())))
                        : QString());
    out << QString() << tr("Megatron-LM / Megatron-Bridge:");
    out << qs(plan::shellLines(plan::megatronArgs(c, row.layout, cl, row.parallel))).trimmed().prepend(QStringLiteral("    "));
    out << QString() << tr("torchtitan (job config):");
    out << qs(plan::torchtitanToml(c, row.layout, cl)).trimmed();
    out << QString() << tr("The same prediction:");
    out << qs(plan::sizeCommand(config, hardware, c, row.layout, cl, row.parallel));
    return out.join(QLatin1Char('\n'));
}
} // namespace rl::plantext
