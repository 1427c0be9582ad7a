#include "gui/sizing/profileform.h"
#include "tonelabel.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>

namespace rl {
namespace {
using nlohmann::json;

const char* const kDtypes[] = {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8"};

// "peak_tflops.bf16" -> profile["peak_tflops"]["bf16"]; nullptr when absent.
const json* findKey(const json& profile, const QString& key)
{
    const json* node = &profile;
    for (const auto& part : key.split(u'.')) {
        const std::string k = part.toStdString();
        if (!node->is_object() || !node->contains(k))
            return nullptr;
        node = &(*node)[k];
    }
    return node;
}

json& slot(json& profile, const QString& key)
{
    json* node = &profile;
    for (const auto& part : key.split(u'.'))
        node = &(*node)[part.toStdString()];
    return *node;
}

void eraseKey(json& profile, const QString& key)
{
    const QStringList parts = key.split(u'.');
    json* node = &profile;
    for (qsizetype i = 0; i + 1 < parts.size(); ++i) {
        const std::string k = parts[i].toStdString();
        if (!node->is_object() || !node->contains(k))
            return;
        node = &(*node)[k];
    }
    if (node->is_object())
        node->erase(parts.back().toStdString());
}

QString number(double v) { return QString::number(v, 'g', 12); }
} // namespace

ProfileForm::ProfileForm(QWidget* parent) : QWidget(parent), m_grid(new QGridLayout(this))
{
    setObjectName(QStringLiteral("profileForm"));
    m_grid->setColumnStretch(3, 1);
    m_grid->setVerticalSpacing(3);
    const QString tflops = tr("TFLOP/s");
    addSection(tr("Device"));
    addRow(QStringLiteral("id"), tr("Id"), Kind::Text, {}, tr("What --hardware and the sizing window name it by"));
    addRow(QStringLiteral("name"), tr("Name"), Kind::Text, {}, tr("Full product name"));
    addRow(QStringLiteral("vendor"), tr("Vendor"), Kind::Text, {}, tr("AMD, NVIDIA, ..."));
    addRow(QStringLiteral("gpus_per_node"), tr("GPUs per node"), Kind::Integer, tr("GPUs"), tr("GPUs in one node"));
    addSection(tr("Peak dense compute per GPU (datasheet)"));
    for (const char* dt : kDtypes)
        addRow(QStringLiteral("peak_tflops.") + QLatin1String(dt), QLatin1String(dt), Kind::Sourced, tflops,
               tr("Peak dense %1 TFLOP/s (no sparsity); empty with a note: not published").arg(QLatin1String(dt)));
    addSection(tr("Max achievable per GPU (measured GEMM, where published)"));
    for (const char* dt : kDtypes)
        addRow(QStringLiteral("max_achievable_tflops.") + QLatin1String(dt), QLatin1String(dt), Kind::Sourced, tflops,
               tr("Best %1 TFLOP/s a GEMM reaches; at most the peak").arg(QLatin1String(dt)));
    addSection(tr("Memory"));
    addRow(QStringLiteral("hbm_capacity_gb"), tr("HBM capacity"), Kind::Sourced, tr("GB"),
           tr("Per GPU, GB (10⁹ B): the total the device reports (nvidia-smi's MiB × 0.001048576), not the "
              "datasheet's binary figure (an \"80GB\" H100 reports 85.5 GB)"));
    addRow(QStringLiteral("hbm_bandwidth_gbs"), tr("HBM bandwidth"), Kind::Sourced, tr("GB/s"),
           tr("Per GPU, GB/s (10⁹ B/s)"));
    addRow(QStringLiteral("compute_units"), tr("Compute units"), Kind::Sourced, tr("CUs/SMs"),
           tr("CUs (AMD) or SMs (NVIDIA)"));
    addSection(tr("Scale-up domain"));
    addRow(QStringLiteral("scale_up_gpus"), tr("GPUs in domain"), Kind::Sourced, tr("GPUs"),
           tr("GPUs in one NVLink / xGMI domain"));
    addRow(QStringLiteral("intra_node_link_gbs"), tr("Link bandwidth"), Kind::Sourced, tr("GB/s"),
           tr("Per GPU, one direction, GB/s"));
    addRow(QStringLiteral("intra_node_topology"), tr("Topology"), Kind::Text, {}, tr("e.g. NVLink 4 through NVSwitch"));
    addRow(QStringLiteral("in_switch_reduction"), tr("In-switch reduction"), Kind::Sourced, tr("1 = yes"),
           tr("1 when the switch reduces in the network (NVLink SHARP / NVLS); leave empty otherwise"));
    addSection(tr("Scale-out network"));
    addRow(QStringLiteral("nics_per_node"), tr("NICs per node"), Kind::Sourced, tr("NICs"),
           tr("Backend (compute fabric) NICs per node"));
    addRow(QStringLiteral("nic_line_rate_gbps"), tr("NIC line rate"), Kind::Sourced, tr("Gb/s"),
           tr("Line rate of one NIC in Gb/s (bits)"));
    addRow(QStringLiteral("gpus_per_nic"), tr("GPUs per NIC"), Kind::Sourced, tr("GPUs"), tr("GPUs sharing one NIC"));
    m_grid->setRowStretch(m_grid->rowCount(), 1);
}

void ProfileForm::addSection(const QString& title)
{
    auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    const int r = m_grid->rowCount();
    m_grid->addWidget(label, r, 0, 1, 4);
    if (r > 0)
        label->setContentsMargins(0, 8, 0, 0);
}

void ProfileForm::addRow(const QString& key, const QString& label, Kind kind, const QString& unit, const QString& tip)
{
    Row row{key, kind, new QLineEdit, nullptr, new QLabel};
    row.value->setObjectName(QStringLiteral("value:") + key);
    row.value->setToolTip(tip);
    const int r = m_grid->rowCount();
    m_grid->addWidget(new QLabel(label), r, 0);
    if (kind == Kind::Sourced) {
        row.value->setMaximumWidth(110);
        row.source = new QLineEdit;
        row.source->setObjectName(QStringLiteral("source:") + key);
        row.source->setPlaceholderText(tr("source: URL or document"));
        row.source->setToolTip(tr("Where the figure comes from (URL, document and page); every figure needs one. "
                                  "With no value: why it is not published"));
        m_grid->addWidget(row.value, r, 1);
        m_grid->addWidget(new QLabel(unit), r, 2);
        m_grid->addWidget(row.source, r, 3);
        connect(row.source, &QLineEdit::textEdited, this, &ProfileForm::edited);
    } else if (kind == Kind::Integer) {
        row.value->setMaximumWidth(110);
        m_grid->addWidget(row.value, r, 1);
        m_grid->addWidget(new QLabel(unit), r, 2);
    } else {
        m_grid->addWidget(row.value, r, 1, 1, 3);
    }
    row.problem->setObjectName(QStringLiteral("problem:") + key);
    setLabelTone(row.problem, LabelTone::Error);
    row.problem->setWordWrap(true);
    row.problem->hide();
    m_grid->addWidget(row.problem, r + 1, 1, 1, 3);
    connect(row.value, &QLineEdit::textEdited, this, &ProfileForm::edited);
    m_rows.push_back(row);
}

void ProfileForm::setJson(const json& profile)
{
    for (const auto& r : m_rows) {
        const json* node = findKey(profile, r.key);
        QString value, source;
        if (node && r.kind == Kind::Sourced && node->is_object()) {
            if (node->contains("value") && (*node)["value"].is_number())
                value = number((*node)["value"].get<double>());
            else if (node->contains("value") && (*node)["value"].is_string()) // as typed, not a number
                value = QString::fromStdString((*node)["value"].get<std::string>());
            if (node->contains("source") && (*node)["source"].is_string())
                source = QString::fromStdString((*node)["source"].get<std::string>());
            else if (node->contains("note") && (*node)["note"].is_string())
                source = QString::fromStdString((*node)["note"].get<std::string>());
        } else if (node && node->is_string()) {
            value = QString::fromStdString(node->get<std::string>());
        } else if (node && node->is_number()) {
            value = number(node->get<double>());
        }
        r.value->setText(value);
        r.value->setCursorPosition(0);
        if (r.source) {
            r.source->setText(source);
            r.source->setCursorPosition(0);
        }
    }
}

void ProfileForm::applyTo(json& profile) const
{
    for (const auto& r : m_rows) {
        const QString value = r.value->text().trimmed();
        bool isNumber = false;
        const double v = value.toDouble(&isNumber);
        switch (r.kind) {
        case Kind::Text:
            if (value.isEmpty())
                eraseKey(profile, r.key);
            else
                slot(profile, r.key) = value.toStdString();
            break;
        case Kind::Integer:
            if (value.isEmpty())
                eraseKey(profile, r.key);
            else if (int n = value.toInt(&isNumber); isNumber)
                slot(profile, r.key) = n;
            else
                slot(profile, r.key) = value.toStdString(); // the loader says what is wrong
            break;
        case Kind::Sourced: {
            const QString source = r.source->text().trimmed();
            if (value.isEmpty() && source.isEmpty())
                eraseKey(profile, r.key);
            else if (value.isEmpty()) // not published, and why
                slot(profile, r.key) = json{{"value", nullptr}, {"note", source.toStdString()}};
            else
                slot(profile, r.key) = json{{"value", isNumber ? json(v) : json(value.toStdString())},
                                            {"source", source.toStdString()}};
            break;
        }
        }
    }
}

bool ProfileForm::showProblem(const QString& message)
{
    static const QRegularExpression field(QStringLiteral("field '([^']+)': (.*)$"));
    const auto m = field.match(message);
    const QString name = m.hasMatch() ? m.captured(1) : QString();
    bool shown = false;
    for (const auto& r : m_rows) {
        // The longest row key the field starts with: "peak_tflops.bf16.source" -> "peak_tflops.bf16".
        const bool here = !name.isEmpty() && (name == r.key || name.startsWith(r.key + u'.'));
        r.problem->setText(here ? m.captured(2) : QString());
        r.problem->setVisible(here);
        shown = shown || here;
    }
    return shown;
}

void ProfileForm::setReadOnly(bool readOnly)
{
    for (const auto& r : m_rows) {
        r.value->setReadOnly(readOnly);
        if (r.source)
            r.source->setReadOnly(readOnly);
    }
}

const ProfileForm::Row* ProfileForm::row(const QString& key) const
{
    for (const auto& r : m_rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

QLineEdit* ProfileForm::valueField(const QString& key) const { return row(key) ? row(key)->value : nullptr; }
QLineEdit* ProfileForm::sourceField(const QString& key) const { return row(key) ? row(key)->source : nullptr; }
QString ProfileForm::problemAt(const QString& key) const { return row(key) ? row(key)->problem->text() : QString(); }
} // namespace rl
