#pragma once
// "New storage benchmark": `ridgeline-cli run io -np N -- --dir D --sizes ... --blocks ...` under
// the local mpirun. Each rank writes then reads back its own file (or its range of one shared
// file) in the chosen folder, on the file system to measure; the CLI stores every point as it is
// measured, and the bench removes its files afterwards, also when cancelled. The dialog shows the
// exact command before it runs.
#include <QDialog>
#include <QStringList>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

namespace rl {
class CommandPreview;

class StorageBenchmarkDialog : public QDialog
{
    Q_OBJECT
public:
    StorageBenchmarkDialog(const QString& cliProgram, const QString& workspace, QWidget* parent = nullptr);

    void setFolder(const QString& folder);
    void setSizes(const QString& sizes);   // --sizes, e.g. 16M,64M
    void setBlocks(const QString& blocks); // --blocks, e.g. 1M
    void setRanks(int np);
    void setMpirunOptions(const QString& options); // extra launcher arguments, e.g. --oversubscribe
    // Arguments of ridgeline-cli (without the program); empty when the folder does not exist.
    QStringList cliArguments() const;
    QString previewText() const;

private:
    void updatePreview();

    QString m_cli;
    QString m_workspace;
    QSpinBox* m_np;
    QLineEdit* m_folder;
    QLineEdit* m_sizes;
    QLineEdit* m_blocks;
    QComboBox* m_access;
    QCheckBox* m_fsync;
    QCheckBox* m_direct;
    QLineEdit* m_mpirun;
    CommandPreview* m_preview;
};
} // namespace rl
