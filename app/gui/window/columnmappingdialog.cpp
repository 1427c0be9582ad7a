#include "gui/window/columnmappingdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <string>
#include <vector>

#include "io/inputfile.h"
#include "trace/trainlogparse.h"
#include "textconv.h"
#include "tonelabel.h"

namespace rl {
namespace {
std::string chosen(const QComboBox* c) { return c->currentData().toString().toStdString(); }

constexpr int kPreviewLines = 8;
} // namespace

ColumnMappingDialog::ColumnMappingDialog(const QString& path, QWidget* parent) : QDialog(parent), m_path(path)
{
    setObjectName(QStringLiteral("columnMappingDialog"));
    setWindowTitle(tr("Training log columns — %1").arg(QFileInfo(path).fileName()));
    setMinimumWidth(560); // room for the preview lines and long column names

    std::string head;
    QString readError;
    try {
        head = io::InputFile::head(path.toStdString());
        for (const auto& c : trace::trainTableColumns(head))
            m_columns << qs(c);
    } catch (const std::exception& e) {
        readError = qs(e.what());
    }

    auto* intro = new QLabel(tr("Which column holds what? Columns left at “(none)” are not imported. The "
                                "step column is required."));
    intro->setWordWrap(true);
    auto* form = new QFormLayout;
    auto row = [form](const QString& label, QWidget* w) { form->addRow(label, w); };
    m_step = addColumnCombo(QStringLiteral("step"), tr("The step (iteration) number of each row"));
    row(tr("Step:"), m_step);
    m_loss = addColumnCombo(QStringLiteral("loss"), tr("Training loss"));
    row(tr("Loss:"), m_loss);
    m_stepTime = addColumnCombo(QStringLiteral("stepTime"), tr("Time one step took"));
    m_stepTimeUnit = new QComboBox;
    m_stepTimeUnit->setObjectName(QStringLiteral("stepTimeUnit"));
    m_stepTimeUnit->setToolTip(tr("The unit of the step-time column; it is stored in milliseconds"));
    m_stepTimeUnit->addItem(tr("ms"), 1.0);
    m_stepTimeUnit->addItem(tr("s"), 1000.0);
    m_stepTimeUnit->addItem(tr("µs"), 0.001);
    auto* stepTimeRow = new QHBoxLayout;
    stepTimeRow->addWidget(m_stepTime, 1);
    stepTimeRow->addWidget(m_stepTimeUnit);
    form->addRow(tr("Step time:"), stepTimeRow);
    m_tokens = addColumnCombo(QStringLiteral("tokensPerSec"), tr("Throughput of the whole job, tokens per second"));
    row(tr("Tokens/s:"), m_tokens);
    m_tflops = addColumnCombo(QStringLiteral("tflops"), tr("Model TFLOP/s per GPU"));
    row(tr("TFLOP/s per GPU:"), m_tflops);
    m_mfu = addColumnCombo(QStringLiteral("mfu"), tr("Model FLOPs utilisation"));
    m_mfuPercent = new QCheckBox(tr("values are %"));
    m_mfuPercent->setObjectName(QStringLiteral("mfuPercent"));
    m_mfuPercent->setToolTip(tr("Checked: 41.2 means 41.2 %; unchecked: a fraction such as 0.412"));
    auto* mfuRow = new QHBoxLayout;
    mfuRow->addWidget(m_mfu, 1);
    mfuRow->addWidget(m_mfuPercent);
    form->addRow(tr("MFU:"), mfuRow);
    m_wallTime = addColumnCombo(QStringLiteral("wallTime"), tr("Wall-clock time of the row, seconds (a timestamp or "
                                                              "the time since the start)"));
    row(tr("Wall time (s):"), m_wallTime);
    m_lr = addColumnCombo(QStringLiteral("learningRate"), tr("Learning rate"));
    row(tr("Learning rate:"), m_lr);
    m_gradNorm = addColumnCombo(QStringLiteral("gradNorm"), tr("Gradient norm"));
    row(tr("Grad norm:"), m_gradNorm);

    auto* preview = new QPlainTextEdit;
    preview->setObjectName(QStringLiteral("preview"));
    preview->setReadOnly(true);
    preview->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    preview->setToolTip(tr("The first lines of the file"));
    preview->setPlainText(qs(head).split(u'\n').mid(0, kPreviewLines).join(u'\n'));
    preview->setMaximumHeight(preview->fontMetrics().lineSpacing() * (kPreviewLines + 2));

    m_problem = new QLabel;
    m_problem->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_problem->setObjectName(QStringLiteral("mappingProblem"));
    setLabelTone(m_problem, LabelTone::Error);
    m_problem->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(preview);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    std::vector<std::string> names;
    for (const auto& c : m_columns)
        names.push_back(c.toStdString());
    setMapping(trace::guessColumns(names));
    if (!readError.isEmpty())
        m_problem->setText(readError);
    else if (m_columns.isEmpty())
        m_problem->setText(tr("No header found: the first line is neither a CSV/TSV header nor a JSON object."));
    updateAcceptable();
    connect(m_step, &QComboBox::currentIndexChanged, this, &ColumnMappingDialog::updateAcceptable);
}

QComboBox* ColumnMappingDialog::addColumnCombo(const QString& name, const QString& tip)
{
    auto* combo = new QComboBox;
    combo->setObjectName(QStringLiteral("column_") + name);
    combo->setToolTip(tip);
    combo->addItem(tr("(none)"), QString());
    for (const auto& c : m_columns)
        combo->addItem(c, c);
    return combo;
}

trace::ColumnMapping ColumnMappingDialog::mapping() const
{
    trace::ColumnMapping m;
    m.step = chosen(m_step);
    m.loss = chosen(m_loss);
    m.stepTime = chosen(m_stepTime);
    m.stepTimeScale = m_stepTimeUnit->currentData().toDouble();
    m.tokensPerSec = chosen(m_tokens);
    m.tflops = chosen(m_tflops);
    m.mfu = chosen(m_mfu);
    m.mfuPercent = m_mfuPercent->isChecked();
    m.wallTime = chosen(m_wallTime);
    m.learningRate = chosen(m_lr);
    m.gradNorm = chosen(m_gradNorm);
    return m;
}

void ColumnMappingDialog::setMapping(const trace::ColumnMapping& m)
{
    const std::pair<QComboBox*, const std::string*> fields[] = {
        {m_step, &m.step},     {m_loss, &m.loss},         {m_stepTime, &m.stepTime}, {m_tokens, &m.tokensPerSec},
        {m_tflops, &m.tflops}, {m_mfu, &m.mfu},           {m_wallTime, &m.wallTime}, {m_lr, &m.learningRate},
        {m_gradNorm, &m.gradNorm}};
    for (const auto& [combo, name] : fields)
        combo->setCurrentIndex(std::max(0, combo->findData(qs(*name))));
    const int unit = m_stepTimeUnit->findData(m.stepTimeScale);
    m_stepTimeUnit->setCurrentIndex(unit >= 0 ? unit : 0);
    m_mfuPercent->setChecked(m.mfuPercent);
}

QString ColumnMappingDialog::problem() const { return m_problem->text(); }

void ColumnMappingDialog::updateAcceptable()
{
    const bool hasColumns = !m_columns.isEmpty();
    const bool hasStep = !chosen(m_step).empty();
    if (hasColumns)
        m_problem->setText(hasStep ? QString() : tr("Choose the column that holds the step number."));
    m_problem->setVisible(!m_problem->text().isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(hasColumns && hasStep);
}
} // namespace rl
