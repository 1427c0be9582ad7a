// The MoE explorer's "best per shape on a cluster" mode: every shape at its own best layout
// (plan::runShapeSearch, as `ridgeline-cli moe-sweep --best-layout` builds its request), the base
// shape ringed on the scatter with plan::placeBase's verdict, and a chosen shape handed to the
// config editor with its best layout.
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>
#include <variant>

#include "calibrationpicker.h"
#include "gui/sizing/denseaxesfields.h"
#include "jobtracker.h"
#include "model/calibration.h"
#include "model/hardwareprofileloader.h"
#include "gui/sizing/moeexplorer.h"
#include "moescatterchart.h"
#include "plan/layout.h"
#include "gui/sizing/recipefields.h"
#include "textconv.h"
#include "units/units.h"
#include "tonelabel.h"

namespace rl {
namespace {
using ShapeOutcome = std::variant<plan::ShapeSearchResult, QString>;

// ridgeline-cli moe-sweep's defaults for what the explorer has no field for: the training sequence
// (--seq) and the decode question (--decode-batch, --context; one GPU).
constexpr int kSeqLen = 4096;
constexpr int kDecodeBatch = 1;
constexpr int kDecodeContext = 4096;

// A --fix error for a field that is not --fix: "--fix tp=x: ..." -> "tp=x: ...".
QString fixMessage(const std::string& what)
{
    QString s = qs(what);
    for (const auto& prefix : {QStringLiteral("--fix: "), QStringLiteral("--fix ")})
        if (s.startsWith(prefix))
            return s.mid(prefix.size());
    return s;
}

// toSpec on several lines, broken at commas: the hover callout must stay inside the plot area.
QString wrappedSpec(const std::string& spec, int width = 44)
{
    QString out, line;
    for (const QString& item : qs(spec).split(QLatin1Char(','))) {
        if (!line.isEmpty() && line.size() + 1 + item.size() > width) {
            out += line + QStringLiteral(",\n");
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(",")) + item;
    }
    return out + line;
}

bool sameShape(const model::MoeSweepRow& a, const model::MoeSweepRow& b)
{
    return a.experts == b.experts && a.topK == b.topK && a.sharedExperts == b.sharedExperts &&
           a.expertWidth == b.expertWidth && a.dModel == b.dModel && a.ffnWidth == b.ffnWidth && a.layers == b.layers;
}

// The degrees as the config editor's "Parallel layout" field takes them (parseParallelSpec).
QString editorParallel(const model::ParallelConfig& p)
{
    QString s = QStringLiteral("dp=%1,tp=%2,pp=%3,ep=%4,cp=%5").arg(p.dp).arg(p.tp).arg(p.pp).arg(p.ep).arg(p.cp);
    if (p.etp > 0)
        s += QStringLiteral(",etp=%1").arg(p.etp);
    if (p.vpp > 1)
        s += QStringLiteral(",vpp=%1").arg(p.vpp);
    return s;
}
} // namespace

void MoeExplorer::buildBestLayoutFields(QFormLayout* form)
{
    m_gpus = new QSpinBox;
    m_gpus->setObjectName(QStringLiteral("moeGpus"));
    m_gpus->setRange(1, 1'000'000);
    m_gpus->setValue(64);
    m_gpus->setSuffix(tr(" GPUs"));
    m_gpus->setToolTip(tr("GPUs in the cluster: every layout of every shape uses all of them (--gpus)"));
    m_gpusPerNode = new QSpinBox;
    m_gpusPerNode->setObjectName(QStringLiteral("moeGpusPerNode"));
    m_gpusPerNode->setRange(0, 1024);
    m_gpusPerNode->setSuffix(tr(" GPUs"));
    m_gpusPerNode->setToolTip(tr("GPUs per node (scale-up domain): tensor parallelism stays inside a node; "
                                 "\"profile's\" takes the hardware profile's (--gpus-per-node)"));
    m_globalBatch = new QSpinBox;
    m_globalBatch->setObjectName(QStringLiteral("moeGlobalBatch"));
    m_globalBatch->setRange(1, 100'000'000);
    m_globalBatch->setValue(256);
    m_globalBatch->setSuffix(tr(" sequences"));
    m_globalBatch->setToolTip(tr("Sequences per optimizer step, %1 tokens each (--global-batch)").arg(kSeqLen));
    for (auto* s : {m_gpus, m_gpusPerNode, m_globalBatch})
        s->setKeyboardTracking(false);
    const auto updatePerNode = [this] {
        int n = 0;
        try {
            n = findHardwareProfile(m_hardware->currentText().toStdString()).gpusPerNode;
        } catch (const std::exception&) {
            // an unknown profile is reported when the search runs
        }
        m_gpusPerNode->setSpecialValueText(n > 0 ? tr("profile's (%1 GPUs)").arg(n) : tr("profile's"));
    };
    updatePerNode();
    connect(m_hardware, &QComboBox::currentTextChanged, this, updatePerNode);

    // A row each: side by side they set the width of the form's column beside the chart.
    form->addRow(tr("Cluster:"), m_gpus);
    form->addRow(tr("GPUs per node:"), m_gpusPerNode);
    form->addRow(tr("Global batch:"), m_globalBatch);

    QStringList dims;
    for (int d = 0; d < plan::kDimCount; ++d)
        dims << QLatin1String(plan::dimName(plan::Dim(d)));
    m_fix = new QLineEdit;
    m_fix->setObjectName(QStringLiteral("moeFix"));
    m_fix->setPlaceholderText(tr("e.g. tp=1,cp=1,pp=1,ep=1,zero=1"));
    m_fix->setClearButtonEnabled(true);
    m_fix->setToolTip(tr("Keep only these layout values in every shape's search (ridgeline-cli plan --fix syntax): "
                         "name=value items separated by commas, '|' between alternatives.\nDimensions: %1.\n"
                         "Example: tp=1,cp=1,pp=1,ep=1,zero=1 for pure ZeRO-1 data parallelism; "
                         "recompute=none|selective,dtype=bf16 narrows two more. Empty: the whole space.")
                          .arg(dims.join(QStringLiteral(", "))));
    m_fixError = new QLabel;
    m_fixError->setObjectName(QStringLiteral("moeFixError"));
    m_fixError->setTextFormat(Qt::PlainText); // quotes what was typed
    m_fixError->setWordWrap(true);
    setLabelTone(m_fixError, LabelTone::Error);
    m_fixError->setVisible(false);
    m_fixRow = new QWidget;
    auto* fix = new QVBoxLayout(m_fixRow);
    fix->setContentsMargins(0, 0, 0, 0);
    fix->setSpacing(2);
    fix->addWidget(m_fix);
    fix->addWidget(m_fixError);
    form->addRow(tr("Fix:"), m_fixRow);

    connect(m_fix, &QLineEdit::textChanged, this, &MoeExplorer::checkFix);
    connect(m_layoutMode, &QComboBox::currentIndexChanged, this, &MoeExplorer::updateLayoutMode);
}

MoeExplorer::LayoutMode MoeExplorer::layoutMode() const
{
    return static_cast<LayoutMode>(m_layoutMode->currentData().toInt());
}

void MoeExplorer::setLayoutMode(LayoutMode mode) { m_layoutMode->setCurrentIndex(m_layoutMode->findData(int(mode))); }

void MoeExplorer::updateLayoutMode()
{
    const bool best = layoutMode() == LayoutMode::BestPerShape;
    m_form->setRowVisible(m_parallel, !best);
    for (QWidget* cluster : std::initializer_list<QWidget*>{m_gpus, m_gpusPerNode, m_globalBatch})
        m_form->setRowVisible(cluster, best);
    m_form->setRowVisible(m_fixRow, best);
    m_parallel->setEnabled(!best);
    m_recipe->setSearched(best);
    m_run->setToolTip(best ? tr("Search every shape's best layout on the cluster in the background, one shape after "
                                "another")
                           : tr("Evaluate every experts × top-k × shared (× width) combination in the background"));
}

bool MoeExplorer::checkFix()
{
    try {
        plan::LayoutSpace syntax; // applyFix checks names and values, not what a model allows
        plan::applyFix(syntax, m_fix->text().trimmed().toStdString());
    } catch (const std::exception& e) {
        m_fixError->setText(tr("Fix: %1").arg(fixMessage(e.what())));
        m_fixError->setVisible(true);
        return false;
    }
    m_fixError->clear();
    m_fixError->setVisible(false);
    return true;
}

QString MoeExplorer::baseVerdict() const { return m_shapes ? qs(plan::placeBase(*m_shapes)) : QString(); }

void MoeExplorer::runShapeSearch()
{
    m_chosen.reset();
    m_open->setEnabled(false);
    if (!checkFix()) {
        m_status->setText(m_fixError->text());
        Q_EMIT sweepFailed(m_status->text());
        return;
    }
    const std::string preset = m_model->currentText().toStdString();
    const std::string hardware = m_hardware->currentText().toStdString();
    const std::string fix = m_fix->text().trimmed().toStdString();
    const std::string dtype = m_recipe->dtype().toStdString();
    const model::Framework framework = m_recipe->framework(); // not searched: the user's stack
    const std::shared_ptr<const model::Calibration> calibration = m_calibration->calibration();
    const auto hold = static_cast<model::SweepHold>(m_hold->currentData().toInt());
    const int gpus = m_gpus->value(), perNode = m_gpusPerNode->value(), globalBatch = m_globalBatch->value();
    // A dense base's axes (denseaxesfields.h), or the MoE ones.
    std::optional<model::DenseSweepSpec> dense;
    if (m_denseBase) {
        QString error;
        dense = m_dense->axes(hold, &error);
        if (!dense) {
            m_status->setText(error);
            Q_EMIT sweepFailed(error);
            return;
        }
    }
    const auto parsed = m_denseBase ? std::optional<model::MoeSweepSpec>(model::MoeSweepSpec{}) : sweepAxes(hold);
    if (!parsed)
        return;
    const model::MoeSweepSpec axes = *parsed;
    m_sweptPreset = preset;
    m_sweptHardware = m_hardware->currentText();
    m_sweptBasis = m_calibration->summary();
    m_shapeGpus = gpus;
    m_shapeGlobalBatch = globalBatch;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0); // indeterminate until the first shape is done
    m_progress->setVisible(true);
    m_status->setText(tr("Searching the best layout of each shape of %1 on %2 × %3…")
                          .arg(m_model->currentText())
                          .arg(gpus)
                          .arg(m_hardware->currentText()));
    m_job->start<ShapeOutcome>(
        [preset, hardware, fix, dtype, framework, calibration, hold, axes, dense, gpus, perNode,
         globalBatch](JobControl<ShapeOutcome>& control) -> ShapeOutcome {
            try {
                // The request ridgeline-cli moe-sweep --best-layout builds (runBestLayoutSweep).
                const auto hw = findHardwareProfile(hardware);
                plan::ShapeSearchRequest req;
                req.sweep = axes;
                req.sweep.base = model::loadPreset(preset);
                req.sweep.hold = hold;
                if (dense) {
                    req.dense = dense;
                    req.dense->base = req.sweep.base;
                }
                req.sweep.parallel.dtype = dtype;
                req.sweep.decode.batch = kDecodeBatch;
                req.sweep.decode.contextTokens = kDecodeContext;
                req.sweep.decode.tp = 1;
                req.plan.base.hardware = hw;
                req.plan.base.layout.framework = framework;
                req.plan.base.calibration = calibration->choice();
                req.plan.cluster = {gpus, perNode > 0 ? perNode : hw.gpusPerNode, globalBatch, kSeqLen};
                req.fix = fix;
                return plan::runShapeSearch(req, *calibration, [&control](std::size_t done, std::size_t total) {
                    control.setProgress(static_cast<std::int64_t>(done), static_cast<std::int64_t>(total),
                                        QStringLiteral("shape %1 of %2").arg(done).arg(total));
                    return !control.isCanceled();
                });
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this, perNode, hardware](ShapeOutcome out) {
            m_run->setEnabled(true);
            m_cancel->setEnabled(false);
            m_progress->setVisible(false);
            if (auto* err = std::get_if<QString>(&out)) {
                m_status->setText(*err);
                Q_EMIT sweepFailed(*err);
                return;
            }
            try {
                m_shapeGpusPerNode = perNode > 0 ? perNode : findHardwareProfile(hardware).gpusPerNode;
            } catch (const std::exception&) {
                m_shapeGpusPerNode = perNode;
            }
            showShapes(std::get<plan::ShapeSearchResult>(std::move(out)));
        });
}

void MoeExplorer::showShapes(plan::ShapeSearchResult result)
{
    model::MoeSweepResult sweep;
    sweep.heldValue = result.heldValue;
    sweep.cancelled = result.cancelled;
    charts::MoeMarks marks;
    marks.baseName = qs(m_sweptPreset);
    for (std::size_t i = 0; i < result.rows.size(); ++i) {
        const auto& sr = result.rows[i];
        sweep.rows.push_back(sr.row);
        if (sr.base)
            marks.base = static_cast<long>(i);
        QString note = sr.base ? tr("base shape (%1)\n").arg(marks.baseName) : QString();
        note += sr.best ? tr("best layout of %1 ranked:\n%2")
                              .arg(QLocale().toString(static_cast<qlonglong>(sr.ranked)), wrappedSpec(plan::toSpec(sr.best->layout)))
                        : tr("no layout of the space is legal and fits");
        marks.notes.push_back(note);
    }
    m_shapes = std::move(result);
    m_result = sweep;
    m_chart->setResult(std::move(sweep), std::move(marks));
    const auto& rows = m_shapes->rows;
    const auto none = std::count_if(rows.begin(), rows.end(), [](const auto& r) { return !r.best; });
    const QString noLayout = none == 0 ? QString()
                             : none == static_cast<long>(rows.size())
                                 ? tr("; no shape has a layout that is legal and fits: loosen Fix or add GPUs")
                                 : tr(", %1 with no layout that is legal and fits (grey, not on the front)").arg(none);
    m_status->setText(tr("%1 shapes, each at its best layout on %2 × %3 (%4 per node), global batch %5 sequences × "
                         "%6 tokens; %7 on the Pareto front%8. Decode at batch %9, context %10 tokens, one GPU. "
                         "Searched in %11; hover a point for its best layout, click to select it. Timed with %12.")
                          .arg(rows.size())
                          .arg(m_shapeGpus)
                          .arg(m_sweptHardware)
                          .arg(m_shapeGpusPerNode)
                          .arg(m_shapeGlobalBatch)
                          .arg(kSeqLen)
                          .arg(m_chart->paretoOrder().size())
                          .arg(noLayout)
                          .arg(kDecodeBatch)
                          .arg(kDecodeContext)
                          .arg(qs(units::formatTime(m_shapes->seconds * 1e6)), m_sweptBasis));
    m_verdict->setText(tr("Base shape (%1): %2.").arg(qs(m_sweptPreset), baseVerdict()));
    m_verdict->setVisible(true);
    Q_EMIT sweepFinished(static_cast<int>(rows.size()));
}

void MoeExplorer::selectShape(const model::MoeSweepRow& row)
{
    const auto it = std::find_if(m_shapes->rows.begin(), m_shapes->rows.end(),
                                 [&](const plan::ShapeRow& s) { return sameShape(s.row, row); });
    if (it == m_shapes->rows.end())
        return;
    QString text = charts::MoeScatterChart::describe(it->row);
    text += it->best ? tr(" · best layout: %1 (step %2)")
                           .arg(qs(plan::toSpec(it->best->layout)), qs(units::formatTime(it->best->step.stepSeconds * 1e6)))
                     : tr(" · no layout of the space is legal and fits");
    m_selected->setText((it->base ? tr("Base shape: ") : QString()) + text);
    m_chosen = it->row;
    m_open->setEnabled(it->best.has_value());
    m_open->setToolTip(it->best ? tr("Load this shape with its best layout into the config editor")
                                : tr("This shape has no layout to load: none is legal and fits"));
}

void MoeExplorer::openShape()
{
    const auto it = std::find_if(m_shapes->rows.begin(), m_shapes->rows.end(),
                                 [&](const plan::ShapeRow& s) { return sameShape(s.row, *m_chosen); });
    if (it == m_shapes->rows.end() || !it->best)
        return;
    try {
        auto c = sweptModel(it->row, !it->base);
        const auto& p = it->best->parallel;
        c.seqLen = p.seqLen; // the editor sizes at the model's sequence length
        // The editor has no field for an uneven stage split or DP overlap switched off: say so rather
        // than show another step time without a word.
        QStringList lost;
        if (p.pp > 1 && (p.firstStageLayers > 0 || p.lastStageLayers > 0) &&
            it->best->layout.stages.split != plan::StageSplit::Even)
            lost << tr("stages=%1").arg(qs(plan::toString(it->best->layout.stages)));
        if (p.dpOverlap == 0)
            lost << QStringLiteral("dp-overlap=off");
        if (p.tpOverlap > 0)
            lost << QStringLiteral("tp-overlap=on");
        if (!lost.isEmpty())
            m_status->setText(tr("The config editor has no field for %1: its step time can differ from the point's.")
                                  .arg(lost.join(QStringLiteral(", "))));
        Q_EMIT configChosen(c, p, editorParallel(p), m_sweptHardware, qs(it->best->layout.attention));
    } catch (const std::exception& e) {
        m_status->setText(qs(e.what()));
    }
}
} // namespace rl
