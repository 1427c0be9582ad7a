#pragma once
// Filters the session tree by free text over title, tool, host and ops (every word must match,
// case-insensitive); group rows stay while one of their sessions matches and, while filtering, say
// how many of their sessions are shown ("Collectives (5 of 20)"). Ties in the sort column keep the
// source model's order, so clearing the filter gives back the same list.
#include <QSortFilterProxyModel>

namespace rl {

class SessionFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit SessionFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);
    QString filterText() const { return m_words.join(u' '); }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QStringList m_words;
};
} // namespace rl
