#pragma once
// Asks which column of a generic training-metrics table (CSV, TSV or JSON lines) holds what: one
// combo box per quantity over the file's own column names, pre-filled with the importer's guess
// (trace::guessColumns), plus the step-time unit and whether MFU is in percent. The file's first
// lines are shown so the user sees the values behind the names.
#include <QDialog>

#include "trace/columnmapping.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;

namespace rl {

class ColumnMappingDialog : public QDialog
{
    Q_OBJECT
public:
    // Reads the head of `path` (gzip-aware); a file without a header shows why and cannot be accepted.
    explicit ColumnMappingDialog(const QString& path, QWidget* parent = nullptr);

    QString path() const { return m_path; }
    QStringList columns() const { return m_columns; }
    trace::ColumnMapping mapping() const;
    // Fills the combo boxes from a mapping (names not in the file are left unset).
    void setMapping(const trace::ColumnMapping& m);
    QString problem() const;

private:
    QComboBox* addColumnCombo(const QString& name, const QString& tip);
    void updateAcceptable();

    QString m_path;
    QStringList m_columns;
    QComboBox *m_step, *m_loss, *m_stepTime, *m_tokens, *m_tflops, *m_mfu, *m_wallTime, *m_lr, *m_gradNorm;
    QComboBox* m_stepTimeUnit;
    QCheckBox* m_mfuPercent;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};
} // namespace rl
