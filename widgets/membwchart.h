#pragma once
// Memory bandwidth against working-set size: one line per STREAM kernel and thread count on a log2
// size axis with binary labels, and the detected cache levels (MemCeiling from/to bytes) as shaded
// bands with their plateau bandwidth. A thin view: the numbers come from kernelchartdata.h.
#include <string>

#include <QLineSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/kernelchartdata.h"

namespace rl::charts {

// What populate() drew that the widget answers hovers on (drawnseries.h).
struct MemBwDrawn
{
    std::vector<QLineSeries*> curves; // one per kernel and thread count
};

struct MemBwOptions
{
    bool showCeilings = true; // the cache-level bands
    std::string title;        // empty: derived
};

class MemBwChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit MemBwChart(QWidget* parent = nullptr);
    ~MemBwChart() override;

    void setData(const KernelChartData& data); // membw sessions; others add nothing
    const KernelChartData& data() const { return m_data; }
    void setShowCeilings(bool show);
    void setTitle(const std::string& title);
    const MemBwOptions& options() const { return m_options; }

    static QString populate(QChart* chart, const KernelChartData& data, const MemBwOptions& options);
    static bool exportChart(const KernelChartData& data, const MemBwOptions& options, QSize size, const QString& path,
                            QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return memBwCsv(m_data); }
    QString exportName() const override { return QStringLiteral("membw"); }
    std::vector<std::int64_t> exportSessionIds() const override { return sessionIdsOf(m_data); }

private:
    void rebuild() override;

    KernelChartData m_data;
    MemBwOptions m_options;
};
} // namespace rl::charts
