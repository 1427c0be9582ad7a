#pragma once
// "New kernel benchmark": peakflops, membw or gemm on this machine through
// `ridgeline-cli run KIND -- ARGS`, which stores every point as it is measured. The dialog offers
// short, sensible defaults per kind and shows the exact command before it runs. With a Settings
// it opens on the kind last run, and each kind keeps the arguments it last ran with.
#include <QDialog>
#include <QHash>
#include <QStringList>

class QComboBox;
class QLineEdit;

namespace rl {
class CommandPreview;
class Settings;

class KernelBenchmarkDialog : public QDialog
{
    Q_OBJECT
public:
    KernelBenchmarkDialog(const QString& cliProgram, const QString& workspace, Settings* settings = nullptr,
                          QWidget* parent = nullptr);

    // "peakflops", "membw" or "gemm" (the session kinds).
    QString benchmark() const;
    void setBenchmark(const QString& kind); // resets the arguments to that kind's defaults
    QString runnerArguments() const;
    void setRunnerArguments(const QString& args);
    // Arguments of ridgeline-cli (without the program); empty when the arguments do not parse.
    QStringList cliArguments() const;
    QString previewText() const;

    void done(int result) override; // an accepted (run) kind and its arguments are remembered

    static QString defaultArguments(const QString& kind);
    // Bump when the stored form changes meaning; another version is ignored (defaults shown).
    static constexpr int kJsonVersion = 1;

private:
    void updatePreview();
    QString argumentsFor(const QString& kind) const; // the last run's for that kind, else defaults

    QString m_cli;
    QString m_workspace;
    Settings* m_settings;
    QHash<QString, QString> m_lastArgs; // kind -> arguments it last ran with
    QComboBox* m_kind;
    QLineEdit* m_args;
    CommandPreview* m_preview;
};
} // namespace rl
