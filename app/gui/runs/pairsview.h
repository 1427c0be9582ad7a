#pragma once
// What the main window shows for a `pairs` session: the heatmap (metric and slow threshold in its
// toolbar) and beside it the slow-link finder's answer, the suspect ranks first ("rank 3 is in 5 of
// 6 slow pairs") and then every slow pair with why, both following the threshold.
#include <QWidget>

#include "pairsheatmapchart.h"

class QLabel;
class QListWidget;

namespace rl {

class PairsView : public QWidget
{
    Q_OBJECT
public:
    explicit PairsView(QWidget* parent = nullptr);

    // The first pairs session of a selection: a heatmap is one matrix. `others`: how many more
    // were selected, to say they are not shown.
    void setData(views::PairsSessionData data, int others = 0);

    charts::PairsHeatmapChart* heatmap() const { return m_heatmap; }
    QListWidget* slowList() const { return m_list; }
    QString summary() const;

private:
    void updateList();

    charts::PairsHeatmapChart* m_heatmap;
    QLabel* m_summary;
    QListWidget* m_list;
    int m_others = 0;
};
} // namespace rl
