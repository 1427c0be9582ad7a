#include "gui/sizing/profileeditor.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include "model/hardwareprofileloader.h"
#include "gui/sizing/profileform.h"
#include "textconv.h"
#include "tonelabel.h"

namespace rl {
namespace {
constexpr int kIdRole = Qt::UserRole;
} // namespace

ProfileEditor::ProfileEditor(QWidget* parent) : QWidget(parent)
{
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("profiles"));
    m_list->setToolTip(tr("Shipped vendor profiles and your own (marked \"yours\")"));
    m_text = new QPlainTextEdit;
    m_text->setObjectName(QStringLiteral("profileJson"));
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setToolTip(tr("The profile as JSON; every number carries its source (schema: resources/hardware/README.md)"));
    m_form = new ProfileForm;
    auto* formScroll = new QScrollArea;
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("profileTabs"));
    m_tabs->addTab(formScroll, tr("Form"));
    m_tabs->addTab(m_text, tr("JSON"));
    m_tabs->setTabToolTip(0, tr("Each figure with its unit and source; problems show next to the field"));
    m_tabs->setTabToolTip(1, tr("The same profile as the file stores it (memory levels and notes are edited here)"));
    m_status = new QLabel;
    m_status->setTextFormat(Qt::PlainText); // errors quote file, model and session names
    m_status->setObjectName(QStringLiteral("profileStatus"));
    m_status->setWordWrap(true);
    m_copy = new QPushButton(tr("Copy as my profile…"));
    m_copy->setToolTip(tr("Make an editable copy of this profile under a new id"));
    m_rename = new QPushButton(tr("Rename…"));
    m_rename->setObjectName(QStringLiteral("renameProfile"));
    m_rename->setToolTip(tr("Give your profile a new id (shipped profiles cannot be renamed: copy them)"));
    m_delete = new QPushButton(tr("Delete"));
    m_delete->setObjectName(QStringLiteral("deleteProfile"));
    m_delete->setToolTip(tr("Delete your profile (a shipped profile of the same id shows again)"));
    m_save = new QPushButton(tr("Save"));
    m_save->setObjectName(QStringLiteral("saveProfile"));
    m_save->setToolTip(tr("Save to your profiles (%1)").arg(qs(userHardwareProfileDir())));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addWidget(m_rename);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    buttons->addWidget(m_save);
    auto* right = new QVBoxLayout;
    right->addWidget(m_tabs, 1);
    right->addWidget(m_status);
    right->addLayout(buttons);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(right, 3);

    connect(m_list, &QListWidget::currentRowChanged, this, &ProfileEditor::showSelected);
    connect(m_text, &QPlainTextEdit::textChanged, this, &ProfileEditor::textEdited);
    connect(m_form, &ProfileForm::edited, this, &ProfileEditor::formEdited);
    connect(m_copy, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString current = selectedId();
        const QString id = QInputDialog::getText(this, tr("Copy profile"), tr("Id of the copy:"), QLineEdit::Normal,
                                                 current + QStringLiteral("-mine"), &ok);
        if (ok && !id.trimmed().isEmpty())
            copySelected(id.trimmed());
    });
    connect(m_rename, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString current = selectedId();
        const QString id = QInputDialog::getText(this, tr("Rename profile"), tr("New id of %1:").arg(current),
                                                 QLineEdit::Normal, current, &ok);
        if (ok && !id.trimmed().isEmpty() && id.trimmed() != current)
            if (const QString error = renameSelected(id.trimmed()); !error.isEmpty())
                m_status->setText(error);
    });
    connect(m_delete, &QPushButton::clicked, this, [this] {
        const QString current = selectedId();
        if (QMessageBox::question(this, tr("Delete profile"),
                                  tr("Delete your profile %1? This cannot be undone.").arg(current)) != QMessageBox::Yes)
            return;
        if (const QString error = deleteSelected(); !error.isEmpty())
            m_status->setText(error);
    });
    connect(m_save, &QPushButton::clicked, this, [this] {
        const QString error = save();
        if (!error.isEmpty())
            m_status->setText(error);
    });
    reload();
}

void ProfileEditor::reload()
{
    const QString keep = selectedId();
    m_list->clear();
    try {
        const std::string userDir = userHardwareProfileDir();
        for (const auto& hw : availableHardwareProfiles()) {
            const bool mine = QFileInfo::exists(qs(userDir + "/" + hw.id + ".json"));
            auto* item = new QListWidgetItem(qs(hw.id) + QStringLiteral(" — ") + qs(hw.name) +
                                             (mine ? tr(" (yours)") : QString()));
            item->setData(kIdRole, qs(hw.id));
            item->setData(kIdRole + 1, mine);
            m_list->addItem(item);
        }
    } catch (const std::exception& e) {
        m_status->setText(qs(e.what()));
    }
    if (!select(keep) && m_list->count() > 0)
        m_list->setCurrentRow(0);
}

QString ProfileEditor::selectedId() const
{
    return m_list->currentItem() ? m_list->currentItem()->data(kIdRole).toString() : QString();
}

QString ProfileEditor::renameSelected(const QString& newId)
{
    const QString old = selectedId();
    if (old.isEmpty())
        return tr("No profile selected.");
    try {
        renameUserHardwareProfile(old.toStdString(), newId.toStdString());
    } catch (const std::exception& e) {
        return qs(e.what());
    }
    reload();
    select(newId);
    m_status->setText(tr("Renamed %1 to %2.").arg(old, newId));
    Q_EMIT profileRemoved(old);
    Q_EMIT profileSaved(newId);
    return {};
}

QString ProfileEditor::deleteSelected()
{
    const QString id = selectedId();
    if (id.isEmpty())
        return tr("No profile selected.");
    try {
        deleteUserHardwareProfile(id.toStdString());
    } catch (const std::exception& e) {
        return qs(e.what());
    }
    reload();
    if (!select(id) && m_list->count() > 0) // a shipped profile of that id shows again
        m_list->setCurrentRow(0);
    m_status->setText(tr("Deleted your profile %1.").arg(id));
    Q_EMIT profileRemoved(id);
    return {};
}

bool ProfileEditor::select(const QString& id)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(kIdRole).toString() == id) {
            m_list->setCurrentRow(i);
            return true;
        }
    return false;
}

void ProfileEditor::showSelected()
{
    const auto* item = m_list->currentItem();
    if (!item)
        return;
    m_editable = item->data(kIdRole + 1).toBool(); // the user's own profiles are edited in place
    try {
        const auto hw = findHardwareProfile(item->data(kIdRole).toString().toStdString());
        m_text->setPlainText(qs(toJson(hw).dump(2)));
    } catch (const std::exception& e) {
        m_text->setPlainText({});
        m_status->setText(qs(e.what()));
    }
    m_text->setReadOnly(!m_editable);
    m_form->setReadOnly(!m_editable);
    m_rename->setEnabled(m_editable);
    m_delete->setEnabled(m_editable);
    validate();
}

void ProfileEditor::textEdited()
{
    if (!m_syncing) {
        const auto j = nlohmann::json::parse(m_text->toPlainText().toStdString(), nullptr, false);
        if (!j.is_discarded() && j.is_object()) {
            m_lastParsed = j;
            m_form->setJson(j);
        }
    }
    validate();
}

void ProfileEditor::formEdited()
{
    // Over the JSON as last parsed: keys the form has no row for (notes, memory levels) stay.
    nlohmann::json j = m_lastParsed.is_object() ? m_lastParsed : nlohmann::json::object();
    m_form->applyTo(j);
    m_lastParsed = j;
    m_syncing = true;
    m_text->setPlainText(qs(j.dump(2)));
    m_syncing = false;
}

QString ProfileEditor::text() const { return m_text->toPlainText(); }

bool ProfileEditor::copySelected(const QString& newId)
{
    try {
        auto j = nlohmann::json::parse(m_text->toPlainText().toStdString());
        j["id"] = newId.toStdString();
        j["name"] = j.value("name", std::string()) + " (" + newId.toStdString() + ")";
        m_editable = true;
        m_text->setReadOnly(false);
        m_form->setReadOnly(false);
        m_text->setPlainText(qs(j.dump(2)));
        return true;
    } catch (const std::exception& e) {
        m_status->setText(qs(e.what()));
        return false;
    }
}

void ProfileEditor::setText(const QString& json) { m_text->setPlainText(json); }

void ProfileEditor::validate()
{
    m_problem.clear();
    try {
        const auto j = nlohmann::json::parse(m_text->toPlainText().toStdString());
        hardwareProfileFromJson(j, "edited profile");
    } catch (const std::exception& e) {
        m_problem = qs(e.what());
    }
    m_status->setText(!m_problem.isEmpty() ? m_problem
                      : m_editable        ? tr("Valid. Save writes it to %1.").arg(qs(userHardwareProfileDir()))
                                          : tr("A shipped profile: copy it to edit."));
    setLabelTone(m_status, m_problem.isEmpty() ? LabelTone::Normal : LabelTone::Error);
    m_form->showProblem(m_problem);
    m_save->setEnabled(canSave());
}

QString ProfileEditor::problem() const { return m_problem; }
bool ProfileEditor::canSave() const { return m_editable && m_problem.isEmpty(); }

QString ProfileEditor::save()
{
    if (!canSave())
        return m_problem.isEmpty() ? tr("Copy the profile before editing it.") : m_problem;
    try {
        const auto hw = hardwareProfileFromJson(nlohmann::json::parse(m_text->toPlainText().toStdString()), "edited");
        saveUserHardwareProfile(hw);
        reload();
        select(qs(hw.id));
        Q_EMIT profileSaved(qs(hw.id));
        return {};
    } catch (const std::exception& e) {
        return qs(e.what());
    }
}
} // namespace rl
