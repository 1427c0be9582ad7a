#pragma once
// Storage benchmark sessions (`ridgeline-bench io`, fio, IOR): aggregate bandwidth against file
// size per rank or against the number of ranks, one line per op, access, ranks (or file size) and
// block size. Sizes on a log2 axis with binary labels; ranks and GB/s on log axes when they span a
// decade. A thin view: the series come from analysis/storage/storagechartdata.h.
#include <string>
#include <vector>

#include <QLineSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "records/session.h"
#include "records/storagepoint.h"
#include "views/storagechartdata.h"

namespace rl::charts {

using storage::StorageSessionData;

// What populate() drew that the widget answers hovers on (drawnseries.h).
struct StorageDrawn
{
    std::vector<QLineSeries*> curves;
    bool logX = false; // x plotted as log2 of the value (file size), else the value (ranks)
};

struct StorageChartOptions
{
    storage::StorageAxis axis = storage::StorageAxis::FileSize;
    std::string title; // empty: derived
};

class StorageChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit StorageChart(storage::StorageAxis axis, QWidget* parent = nullptr);
    ~StorageChart() override;

    void setData(std::vector<StorageSessionData> sessions);
    const std::vector<StorageSessionData>& data() const { return m_data; }
    const StorageChartOptions& options() const { return m_options; }

    static QString populate(QChart* chart, const std::vector<StorageSessionData>& sessions,
                            const StorageChartOptions& options);
    static bool exportChart(const std::vector<StorageSessionData>& sessions, const StorageChartOptions& options,
                            QSize size, const QString& path, QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return storage::storageChartCsv(m_data, m_options.axis); }
    QString exportName() const override;
    std::vector<std::int64_t> exportSessionIds() const override;

private:
    void rebuild() override;

    std::vector<StorageSessionData> m_data;
    StorageChartOptions m_options;
};
} // namespace rl::charts
