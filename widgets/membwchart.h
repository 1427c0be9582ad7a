#pragma once
// Memory bandwidth against working-set size: one line per STREAM kernel and thread count on a log2
// size axis with binary labels, and the detected cache levels (MemCeiling from/to bytes) as shaded
// bands with their plateau bandwidth. A thin view: the numbers come from kernelchartdata.h.
#include <string>

#include <QSize>
#include <QWidget>

#include "chartimage.h"
#include "kernelchartdata.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QPushButton;
QT_END_NAMESPACE

namespace rl::charts {

class Callout;

struct MemBwOptions
{
    bool showCeilings = true; // the cache-level bands
    std::string title;        // empty: derived
};

class MemBwChart : public QWidget
{
    Q_OBJECT
public:
    explicit MemBwChart(QWidget* parent = nullptr);
    ~MemBwChart() override;

    void setData(const KernelChartData& data); // membw sessions; others add nothing
    const KernelChartData& data() const { return m_data; }
    void setShowCeilings(bool show);
    void setTitle(const std::string& title);
    void setExportSize(QSize size);
    const MemBwOptions& options() const { return m_options; }
    QString title() const;
    QString hoverText() const;

    bool exportTo(const QString& path, QString* error) const;

    static QString populate(QChart* chart, const KernelChartData& data, const MemBwOptions& options);
    static bool exportChart(const KernelChartData& data, const MemBwOptions& options, QSize size, const QString& path,
                            QString* error);

    QChart* chart() const { return m_chart; } // for tests

private:
    void rebuild();

    KernelChartData m_data;
    MemBwOptions m_options;
    QSize m_exportSize{1200, 800};
    QChart* m_chart;
    QChartView* m_view;
    Callout* m_callout;
    QPushButton* m_export;
};
} // namespace rl::charts
