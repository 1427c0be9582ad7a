#pragma once
// The form tab of the hardware-profile editor: one row per figure (value, unit, source) over the
// profile's JSON, so the raw JSON tab and the form edit the same document. The form checks nothing
// itself: the loader's message ("…: field 'peak_tflops.bf16.source': missing") is shown next to the
// row it names (showProblem), so the form and the file follow one schema.
#include <QString>
#include <QWidget>

#include <vector>

#include <nlohmann/json.hpp>

class QGridLayout;
class QLabel;
class QLineEdit;

namespace rl {

class ProfileForm : public QWidget
{
    Q_OBJECT
public:
    explicit ProfileForm(QWidget* parent = nullptr);

    void setJson(const nlohmann::json& profile); // fills the rows; emits nothing
    // The rows written into `profile`; keys the form has no row for (notes, memory levels) stay.
    void applyTo(nlohmann::json& profile) const;
    // A loader message: its reason goes next to the row of the field it names, other rows are
    // cleared. False when no row has that field (the message then stays the editor's own).
    bool showProblem(const QString& message);
    void setReadOnly(bool readOnly);

    // By the JSON key of the row, "hbm_bandwidth_gbs" or "peak_tflops.bf16" (tests, screenshots).
    QLineEdit* valueField(const QString& key) const;
    QLineEdit* sourceField(const QString& key) const; // nullptr for rows without a source
    QString problemAt(const QString& key) const;

signals:
    void edited();

private:
    enum class Kind { Text, Integer, Sourced };
    struct Row
    {
        QString key;
        Kind kind;
        QLineEdit* value;
        QLineEdit* source; // Sourced rows only
        QLabel* problem;
    };
    void addSection(const QString& title);
    void addRow(const QString& key, const QString& label, Kind kind, const QString& unit, const QString& tip);
    const Row* row(const QString& key) const;

    QGridLayout* m_grid;
    std::vector<Row> m_rows;
};
} // namespace rl
