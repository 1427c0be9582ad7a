#pragma once
// Filters the session tree by free text over title, tool, host and ops (every word must match,
// case-insensitive); group rows stay while one of their sessions matches.
#include <QSortFilterProxyModel>

namespace rl {

class SessionFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SessionFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);
    QString filterText() const { return m_words.join(u' '); }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QStringList m_words;
};
} // namespace rl
