#include "filedialogs.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace rl::filedialogs {

QString startPath(const Settings* settings, Purpose purpose, const QString& fileName, const QString& fallback)
{
    QString dir = settings ? settings->lastDir(purpose) : QString();
    // A remembered folder on an unmounted share or a deleted project would open the dialog
    // somewhere arbitrary; fall back instead.
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = fallback.isEmpty() ? QDir::homePath() : fallback;
    return fileName.isEmpty() ? dir : QDir(dir).filePath(fileName);
}

void remember(Settings* settings, Purpose purpose, const QString& chosen)
{
    if (!settings || chosen.isEmpty())
        return;
    const QFileInfo info(chosen);
    settings->setLastDir(purpose, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

QString openFile(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption, const QString& filter,
                 const QString& fallback)
{
    const QString f = QFileDialog::getOpenFileName(parent, caption, startPath(settings, purpose, {}, fallback), filter);
    remember(settings, purpose, f);
    return f;
}

QStringList openFiles(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption,
                      const QString& filter)
{
    const QStringList files = QFileDialog::getOpenFileNames(parent, caption, startPath(settings, purpose), filter);
    if (!files.isEmpty())
        remember(settings, purpose, files.first());
    return files;
}

QString saveFile(QWidget* parent, Settings* settings, Purpose purpose, const QString& caption, const QString& fileName,
                 const QString& filter, QString* selectedFilter, const QString& fallback)
{
    const QString f = QFileDialog::getSaveFileName(parent, caption, startPath(settings, purpose, fileName, fallback),
                                                   filter, selectedFilter);
    remember(settings, purpose, f);
    return f;
}

QString exportFileName(const QString& what, const std::vector<std::int64_t>& sessionIds, const QString& suffix)
{
    constexpr std::size_t kNamed = 3; // more ids than this make a name nobody reads
    QString name = what.isEmpty() ? QStringLiteral("chart") : what;
    const std::size_t shown = sessionIds.size() > kNamed + 1 ? kNamed : sessionIds.size();
    for (std::size_t i = 0; i < shown; ++i)
        name += QStringLiteral("-s") + QString::number(sessionIds[i]);
    if (shown < sessionIds.size())
        name += QStringLiteral("-and-%1-more").arg(sessionIds.size() - shown);
    return suffix.isEmpty() ? name : name + u'.' + suffix;
}
} // namespace rl::filedialogs
