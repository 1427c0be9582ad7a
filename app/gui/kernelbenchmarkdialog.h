#pragma once
// "New kernel benchmark": peakflops, membw or gemm on this machine through
// `ridgeline-cli run KIND -- ARGS`, which stores every point as it is measured. The dialog offers
// short, sensible defaults per kind and shows the exact command before it runs.
#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QLineEdit;

namespace rl {

class KernelBenchmarkDialog : public QDialog
{
    Q_OBJECT
public:
    KernelBenchmarkDialog(const QString& cliProgram, const QString& workspace, QWidget* parent = nullptr);

    // "peakflops", "membw" or "gemm" (the session kinds).
    QString benchmark() const;
    void setBenchmark(const QString& kind); // resets the arguments to that kind's defaults
    QString runnerArguments() const;
    void setRunnerArguments(const QString& args);
    // Arguments of ridgeline-cli (without the program); empty when the arguments do not parse.
    QStringList cliArguments() const;
    QString previewText() const;

    static QString defaultArguments(const QString& kind);

private:
    void updatePreview();

    QString m_cli;
    QString m_workspace;
    QComboBox* m_kind;
    QLineEdit* m_args;
    QLabel* m_preview;
};
} // namespace rl
