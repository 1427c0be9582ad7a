#include "gui/sizing/validationview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>
#include <variant>

#include "filedialogs.h"
#include "jobtracker.h"
#include "textconv.h"
#include "units/units.h"
#include "resulttableview.h"
#include "validationchart.h"

namespace rl {
namespace {
using Outcome = std::variant<model::ValidationSummary, QString>;

QString pct(double fraction, bool signedValue = false)
{
    return QString::fromStdString(units::formatPercent(fraction, 1, signedValue));
}

std::vector<charts::ResultColumn> columns()
{
    const auto tr = [](const char* text) { return ValidationView::tr(text); };
    std::vector<charts::ResultColumn> c(ValidationView::ColumnCount);
    c[ValidationView::RunColumn] = {tr("Run"), {}};
    c[ValidationView::SourceColumn] = {tr("Source"), tr("Where the run was published and how its step time was measured")};
    c[ValidationView::HardwareColumn] = {tr("Hardware"), {}};
    c[ValidationView::GpusColumn] = {tr("GPUs"), {}};
    c[ValidationView::MeasuredColumn] = {tr("Measured step (s)"), tr("The published step time")};
    c[ValidationView::PredictedColumn] = {tr("Predicted step (s)"), tr("The uncalibrated model's step time")};
    c[ValidationView::ErrorColumn] = {tr("Error (%)"), tr("(predicted − measured) ÷ measured; amber past ±10 %, red past ±25 %")};
    c[ValidationView::BandColumn] = {tr("Expected error (model)"),
                                     tr("The band the model states next to every prediction: its median and maximum "
                                        "absolute step-time error on the published table")};
    return c;
}

} // namespace

ValidationView::ValidationView(QWidget* parent) : QWidget(parent), m_job(new JobTracker(this))
{
    m_tableChoice = new QComboBox;
    m_tableChoice->setObjectName(QStringLiteral("validationTableChoice"));
    m_tableChoice->addItem(tr("Published runs (Narayanan et al. SC21, Korthikanti et al. 2022)"), int(PublishedRuns));
    m_tableChoice->addItem(tr("Holdout runs (NeMo, DGX Cloud, Megatron-Bridge and llm-foundry on H100 and A100; not used to build the model)"), int(HoldoutRuns));
    m_tableChoice->setToolTip(tr("Which bundled table of published measured runs to predict (ridgeline-cli validate "
                                 "[--table holdout])"));
    m_run = new QPushButton(tr("Run"));
    m_run->setObjectName(QStringLiteral("validationRun"));
    m_run->setToolTip(tr("Predict every run of the table with the uncalibrated model, in the background"));
    auto* copy = new QPushButton(tr("Copy table"));
    copy->setToolTip(tr("Copy the table as tab-separated text (Ctrl+C in the table copies the same)"));
    auto* exportCsvButton = new QPushButton(tr("Export CSV…"));
    exportCsvButton->setObjectName(QStringLiteral("validationExportCsv"));
    exportCsvButton->setToolTip(tr("Every row as CSV, step times in seconds, errors as fractions"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("validationStatus"));
    m_summaryLabel = new QLabel;
    m_summaryLabel->setObjectName(QStringLiteral("validationSummary"));
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_refused = new QLabel;
    m_refused->setObjectName(QStringLiteral("validationRefused"));
    m_refused->setWordWrap(true);
    m_refused->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_table = new charts::ResultTableView;
    m_table->setObjectName(QStringLiteral("validationTable"));
    m_table->setTable({columns(), {}, {}});
    m_table->horizontalHeader()->setSectionResizeMode(SourceColumn, QHeaderView::Stretch);

    m_chart = new charts::ValidationChart;
    m_chart->setObjectName(QStringLiteral("validationChart"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Table:")));
    bar->addWidget(m_tableChoice, 1);
    bar->addWidget(m_run);
    bar->addWidget(copy);
    bar->addWidget(exportCsvButton);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_summaryLabel);
    topLayout->addWidget(m_refused);
    topLayout->addWidget(m_table, 1);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(top);
    splitter->addWidget(m_chart);
    // The chart needs the height to separate the bands; the table scrolls.
    m_chart->setMinimumHeight(360);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_status);
    layout->addWidget(splitter, 1);

    connect(m_run, &QPushButton::clicked, this,
            [this] { run(static_cast<Table>(m_tableChoice->currentData().toInt())); });
    connect(m_tableChoice, &QComboBox::currentIndexChanged, this,
            [this] { run(static_cast<Table>(m_tableChoice->currentData().toInt())); });
    connect(copy, &QPushButton::clicked, m_table, &charts::ResultTableView::copy);
    // The chart's "Export data": its dialog, the CSV suffix rule and the error box.
    connect(exportCsvButton, &QPushButton::clicked, this,
            [this] { m_chart->exportDataWithDialog(QStringLiteral("validation.csv")); });
    connect(m_chart, &charts::ChartFrame::chartExported, this, [this](const QString& f) { m_status->setText(tr("Wrote %1").arg(f)); });
    showSummary();
}

void ValidationView::setSettings(Settings* settings)
{
    m_settings = settings;
    m_chart->setSettings(settings);
}

bool ValidationView::isRunning() const { return m_job->isRunning(); }

void ValidationView::run(Table table)
{
    const std::string path = table == HoldoutRuns ? model::holdoutTablePath() : model::validationTablePath();
    m_tablePath = qs(path);
    m_run->setEnabled(false);
    m_status->setText(tr("Predicting the runs of %1…").arg(m_tablePath));
    m_job->start<Outcome>(
        [path](auto&) -> Outcome {
            try {
                auto summary = model::runValidation(model::loadValidationRuns(path));
                model::modelErrorBand(false); // computed once per process: here, not on the GUI thread
                return summary;
            } catch (const std::exception& e) {
                return qs(e.what());
            }
        },
        [this](Outcome out) {
            m_run->setEnabled(true);
            if (const auto* error = std::get_if<QString>(&out)) {
                m_status->setText(*error);
                Q_EMIT validationFailed(*error);
                return;
            }
            m_summary = std::get<model::ValidationSummary>(std::move(out));
            m_status->setText(tr("Table: %1 · uncalibrated: GEMM efficiency by shape, collectives from the hardware "
                                 "profiles, as ridgeline-cli validate").arg(m_tablePath));
            showSummary();
            Q_EMIT validationFinished(static_cast<int>(m_summary.rows.size()));
        });
}

void ValidationView::showSummary()
{
    const auto& s = m_summary;
    m_chart->setSummary(s, m_tablePath);
    charts::ResultTable table{columns(), {}, {}};
    if (s.rows.empty()) {
        m_table->setTable(std::move(table));
        m_summaryLabel->setText(tr("Press Run to predict the published runs."));
        m_refused->clear();
        return;
    }
    auto bandText = [](const model::ValidationRun& run) {
        const auto band = model::modelErrorBand(run.model.isMoe(), run.hardware, run.parallel.framework);
        return band.rows > 0 ? tr("median %1, max %2").arg(pct(band.median), pct(band.max)) : tr("unknown");
    };
    QStringList refused;
    for (const auto& r : s.rows) {
        auto& row = table.rows.emplace_back(ColumnCount);
        row[RunColumn] = charts::textCell(qs(r.run.id));
        row[SourceColumn] = charts::textCell(qs(r.run.source));
        row[SourceColumn].tip = qs(r.run.source) + QStringLiteral("\n") + qs(r.run.measuredHow);
        row[HardwareColumn] = charts::textCell(qs(r.run.hardware));
        row[GpusColumn] = charts::numberCell(QString::number(r.run.parallel.worldSize()), r.run.parallel.worldSize());
        row[MeasuredColumn] = charts::numberCell(QString::number(r.run.measuredStepSeconds, 'f', 3), r.run.measuredStepSeconds);
        if (r.refused) {
            row[PredictedColumn] = charts::textCell(tr("refused"));
            row[ErrorColumn] = charts::textCell(qs(r.why));
            refused << QStringLiteral("%1: %2").arg(qs(r.run.id), qs(r.why)).toHtmlEscaped();
        } else {
            row[PredictedColumn] = charts::numberCell(QString::number(r.predictedStepSeconds, 'f', 3), r.predictedStepSeconds);
            row[PredictedColumn].tip = tr("Predicted step %1 s\nAttention: %2")
                                           .arg(QString::number(r.predictedStepSeconds, 'f', 3), qs(r.attentionBasis));
            row[ErrorColumn] = charts::numberCell(pct(r.error, true), r.error);
            // Outside the ±25 % the issue allows at most: red; outside ±10 %: amber.
            if (std::abs(r.error) > 0.25)
                row[ErrorColumn].foreground = QColor(0xb0, 0x00, 0x20);
            else if (std::abs(r.error) > 0.10)
                row[ErrorColumn].foreground = QColor(0x9a, 0x60, 0x00);
        }
        row[BandColumn] = charts::textCell(bandText(r.run));
    }
    m_table->setTable(std::move(table));
    const int predicted = static_cast<int>(s.rows.size()) - s.refused;
    m_summaryLabel->setText(tr("<b>%1 of %2 runs predicted</b>, %3 refused · median |error| <b>%4</b> · max |error| "
                               "<b>%5</b> (%6) · mean signed error %7 · %8 predictions above max-achievable")
                                .arg(predicted)
                                .arg(s.rows.size())
                                .arg(s.refused)
                                .arg(pct(s.medianAbsError), pct(s.maxAbsError), qs(s.worstRow).toHtmlEscaped(),
                                     pct(s.meanSignedError, true))
                                .arg(s.aboveMaxAchievable));
    m_refused->setText(refused.isEmpty() ? tr("No row refused.")
                                         : tr("<b>Refused:</b> %1").arg(refused.join(QStringLiteral("; "))));
}

QString ValidationView::summaryText() const { return m_summaryLabel->text(); }

QString ValidationView::tableText() const { return m_table->text(); }

QString ValidationView::exportTo(const QString& fileName) const
{
    QString error;
    return m_chart->exportTo(fileName, &error) ? QString() : error;
}
} // namespace rl
