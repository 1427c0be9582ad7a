#pragma once
// How a benchmark's processes are started, shared by the benchmark dialogs: one process here,
// local mpirun -np, mpirun with a hostfile, or a launcher template (srun ...); optionally inside a
// Slurm batch job. Only the fields; the dialogs' configs turn them into ridgeline-cli arguments.
#include <QGroupBox>
#include <QJsonObject>
#include <QList>
#include <QString>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QWidget;

namespace rl {
class Settings;

struct LaunchSettings
{
    enum class Mode { Local, LocalMpirun, Hostfile, Template };
    Mode mode = Mode::LocalMpirun;
    int np = 2;
    QString hostfile;
    QString mpirun;        // the mpirun program (a path picks one MPI of several); empty: mpirun on PATH
    QString mpirunOptions; // whitespace separated, e.g. --oversubscribe
    QString launchTemplate = QStringLiteral("srun -N {nodes} --ntasks-per-node {ppn} {bench}");
    int nodes = 1;
    int ppn = 2;
    bool sbatch = false;
    QString sbatchOptions; // one #SBATCH option per line, e.g. --partition=gpu
    QString sbatchDir;

    // Empty when valid, else what is wrong.
    QString validate() const;
    QStringList sbatchOptionList() const; // the non-empty lines, trimmed

    // The fields as the dialogs remember them (one key each); fromJson keeps `base`'s value for a
    // key missing or of the wrong type.
    QJsonObject toJson() const;
    static LaunchSettings fromJson(const QJsonObject& json, LaunchSettings base);
    static LaunchSettings fromJson(const QJsonObject& json); // over the defaults
};
const char* modeName(LaunchSettings::Mode mode);

class LauncherWidget : public QGroupBox
{
    Q_OBJECT
public:
    // `modes`: the launchers offered, in this order; `sbatch`: offer the Slurm batch job fields.
    LauncherWidget(const QList<LaunchSettings::Mode>& modes, bool sbatch, Settings* settings = nullptr,
                   QWidget* parent = nullptr);

    LaunchSettings launch() const;
    void setLaunch(const LaunchSettings& launch);

signals:
    void changed();

private:
    void updateEnabled();

    Settings* m_settings;
    QList<LaunchSettings::Mode> m_modes;
    QComboBox* m_launcher;
    QSpinBox* m_np;
    QLineEdit* m_hostfile;
    QWidget* m_browse;
    QLineEdit* m_mpirun;
    QLineEdit* m_mpirunOptions;
    QLineEdit* m_template;
    QSpinBox* m_nodes;
    QSpinBox* m_ppn;
    QCheckBox* m_sbatch = nullptr;
    QPlainTextEdit* m_sbatchOptions = nullptr;
    QLineEdit* m_sbatchDir = nullptr;
    QWidget* m_browseSbatchDir = nullptr;
};
} // namespace rl
