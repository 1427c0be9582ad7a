#include "detailspanel.h"
#include "sessionmodel.h"
#include "textconv.h"

#include <algorithm>

#include <QDateTime>
#include <QEvent>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace rl {
namespace {
QLabel* valueLabel(const QString& objectName, const QString& toolTip)
{
    auto* l = new QLabel;
    l->setObjectName(objectName);
    l->setToolTip(toolTip);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Titles, hosts and command lines come from users and imported files: "<b>" is shown as typed.
    l->setTextFormat(Qt::PlainText);
    // A wrapped label's minimum width is its longest word; a long command line or path would widen
    // the dock and with it the whole window on every selection. Text gets break points instead.
    l->setMinimumWidth(40);
    return l;
}

// Zero-width spaces after separators let long file names and command lines wrap in the dock.
QString breakable(QString text, QStringView separators)
{
    for (const QChar sep : separators)
        text.replace(sep, QString(sep) + QChar(0x200B));
    return text;
}

QString scalarText(const nlohmann::json& v)
{
    if (v.is_string())
        return qs(v.get<std::string>());
    return qs(v.dump());
}
} // namespace

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("detailsPanel"));
    m_title = valueLabel(QStringLiteral("detailsTitle"), tr("Session title"));
    // Bold by its font, not a style sheet: a label with a style sheet keeps the text colour of the
    // palette it was polished with, and turned unreadable when the theme changed at run time.
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_commandLine = valueLabel(QStringLiteral("detailsCommandLine"), tr("The command line that produced the session"));
    m_host = valueLabel(QStringLiteral("detailsHost"), tr("Host the session ran on"));
    m_tool = valueLabel(QStringLiteral("detailsTool"), tr("Tool and its version"));
    m_status = valueLabel(QStringLiteral("detailsStatus"), tr("Complete, running, cancelled, failed or incomplete"));
    m_created = valueLabel(QStringLiteral("detailsCreated"), tr("When the session was created (local time)"));

    m_params = new QTreeWidget;
    m_params->setObjectName(QStringLiteral("detailsParams"));
    m_params->setToolTip(tr("Sweep parameters and facts read from the source"));
    m_params->setHeaderLabels({tr("Parameter"), tr("Value")});
    // Both columns inside the dock: names as wide as they need up to half of it, values in the
    // rest, cut with an ellipsis (the tooltip holds the whole value). The value column ran past
    // the right edge behind a horizontal scroll bar.
    m_params->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_params->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_params->header()->setMinimumSectionSize(30);
    m_params->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_params->setTextElideMode(Qt::ElideRight);
    m_params->viewport()->installEventFilter(this);

    m_notes = new QPlainTextEdit;
    m_notes->setObjectName(QStringLiteral("detailsNotes"));
    m_notes->setToolTip(tr("Your notes on this session; saved in the workspace"));
    m_notes->setPlaceholderText(tr("Notes…"));
    m_notes->setMaximumHeight(120);
    m_saveNotes = new QPushButton(tr("Save notes"));
    m_saveNotes->setObjectName(QStringLiteral("detailsSaveNotes"));
    m_saveNotes->setToolTip(tr("Store the notes in the workspace"));
    m_saveNotes->setEnabled(false);

    auto* form = new QFormLayout;
    form->addRow(tr("Title:"), m_title);
    form->addRow(tr("Command:"), m_commandLine);
    form->addRow(tr("Host:"), m_host);
    form->addRow(tr("Tool:"), m_tool);
    form->addRow(tr("Status:"), m_status);
    form->addRow(tr("Created:"), m_created);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_params, 1);
    layout->addWidget(m_notes);
    layout->addWidget(m_saveNotes, 0, Qt::AlignRight);

    connect(m_notes, &QPlainTextEdit::textChanged, this, &DetailsPanel::updateSaveButton);
    connect(m_saveNotes, &QPushButton::clicked, this, [this] {
        if (m_session)
            emit notesSaveRequested(m_session->id, m_notes->toPlainText());
    });
    setSession(std::nullopt);
}

void DetailsPanel::setSession(const std::optional<Session>& session)
{
    m_session = session;
    m_params->clear();
    const bool has = session.has_value();
    m_notes->setEnabled(has);
    if (!has) {
        m_title->setText(tr("No session selected"));
        m_title->setToolTip(tr("Session title"));
        for (auto* l : {m_commandLine, m_host, m_tool, m_status, m_created})
            l->clear();
        m_notes->clear();
        updateSaveButton();
        return;
    }
    m_title->setText(breakable(qs(session->title), u"_.-/"));
    m_title->setToolTip(plainInAutoText(qs(session->title)));
    // Not after '-': options stay whole ("-np 8"); paths and key=value lists break.
    m_commandLine->setText(breakable(qs(session->commandLine), u"_./=,:"));
    m_host->setText(SessionModel::hostText(*session));
    m_host->setToolTip(session->host.empty() ? tr("The imported file does not name the host its data came from")
                                             : tr("Host the session ran on"));
    m_tool->setText(session->toolVersion.empty() ? qs(session->tool) : qs(session->tool + ' ' + session->toolVersion));
    m_status->setText(QString::fromLatin1(toString(session->status)));
    // Stored in UTC (ISO 8601); shown in local time, as the tooltip says, with the stored value.
    const QDateTime created = QDateTime::fromString(qs(session->created), Qt::ISODate);
    m_created->setText(created.isValid() ? created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                         : qs(session->created));
    m_created->setToolTip(tr("When the session was created (local time; stored as %1)").arg(qs(session->created)));
    fillParams(m_params->invisibleRootItem(), session->params);
    m_params->expandAll();
    fitParamColumns();
    m_notes->setPlainText(qs(session->notes));
    updateSaveButton();
}

void DetailsPanel::setMultipleSelected(int selected, int shown)
{
    setSession(std::nullopt);
    m_title->setText(shown >= selected ? tr("%1 sessions selected (overlaid in the charts)").arg(selected)
                                       : tr("%1 sessions selected (the view shows %2 of them; select the others "
                                            "alone)")
                                             .arg(selected)
                                             .arg(shown));
    m_title->setToolTip(tr("Session title"));
}

std::optional<std::int64_t> DetailsPanel::sessionId() const
{
    return m_session ? std::optional(m_session->id) : std::nullopt;
}

void DetailsPanel::markNotesSaved(std::int64_t sessionId, const QString& notes)
{
    if (m_session && m_session->id == sessionId) {
        m_session->notes = notes.toStdString();
        updateSaveButton();
    }
}

void DetailsPanel::fillParams(QTreeWidgetItem* parent, const nlohmann::json& value)
{
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it) {
            auto* item = new QTreeWidgetItem(parent, {qs(it.key())});
            item->setToolTip(0, plainInAutoText(qs(it.key())));
            if (it->is_structured())
                fillParams(item, *it);
            else
                setValue(item, scalarText(*it));
        }
    } else if (value.is_array()) {
        const bool scalars = std::all_of(value.begin(), value.end(), [](const auto& v) { return !v.is_structured(); });
        if (scalars) {
            QStringList items;
            for (const auto& v : value)
                items << scalarText(v);
            setValue(parent, items.join(QStringLiteral(", ")));
            return;
        }
        int i = 0;
        for (const auto& v : value) {
            auto* item = new QTreeWidgetItem(parent, {QStringLiteral("[%1]").arg(i++)});
            fillParams(item, v);
        }
    }
}

void DetailsPanel::setValue(QTreeWidgetItem* item, const QString& text)
{
    item->setText(1, text);
    item->setToolTip(1, plainInAutoText(text));
}

void DetailsPanel::fitParamColumns()
{
    const int half = m_params->viewport()->width() / 2;
    m_params->resizeColumnToContents(0);
    m_params->setColumnWidth(0, std::max(30, std::min(m_params->columnWidth(0), half)));
}

bool DetailsPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_params->viewport() && event->type() == QEvent::Resize)
        fitParamColumns();
    return QWidget::eventFilter(watched, event);
}

void DetailsPanel::updateSaveButton()
{
    m_saveNotes->setEnabled(m_session && m_notes->toPlainText() != qs(m_session->notes));
}
} // namespace rl
