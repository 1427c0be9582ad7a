#pragma once
// Attention rates against sequence length: the PyTorch probe's scaled_dot_product_attention
// TFLOP/s per backend (flash, cuDNN, efficient, math) on a log2 sequence axis, one line per
// session, backend, pass, mask and head dim, and a hardware profile's published rates of its
// attention kernels (the FlashAttention-3 paper's H100 bars) dashed next to them. Boxes above the
// plot pick the head dim, pass and mask: a full probe run is 32 curves, too many to read at once.
// A thin view: the numbers come from attentionchartdata.h.
#include <QLineSeries>
#include <QSize>

#include "chartframe.h"
#include "drawnseries.h"
#include "views/attentionchartdata.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
QT_END_NAMESPACE

namespace rl::charts {

// What populate() drew that the widget answers hovers on (drawnseries.h).
struct AttentionDrawn
{
    std::vector<QLineSeries*> curves; // curves[i] draws the geometry's curves[i]
};

class AttentionChart : public ChartFrame
{
    Q_OBJECT
public:
    explicit AttentionChart(QWidget* parent = nullptr);
    ~AttentionChart() override;

    // Sessions with kept attention records; others add nothing. The filter keeps what the user
    // chose where the new sessions measured it, else takes the default (defaultAttentionFilter).
    void setData(const KernelChartData& data);
    const KernelChartData& data() const { return m_data; }
    void setHardwareProfile(const std::optional<HardwareProfile>& profile);
    void setFilter(const AttentionFilter& filter);
    void setTitle(const std::string& title);
    const AttentionChartOptions& options() const { return m_options; }
    const AttentionGeometry& geometry() const { return m_geometry; }
    bool hasPoints() const { return m_geometry.allMeasuredPoints > 0; }

    static QString populate(QChart* chart, const KernelChartData& data, const AttentionChartOptions& options);
    static bool exportChart(const KernelChartData& data, const AttentionChartOptions& options, QSize size,
                            const QString& path, QString* error);

protected:
    QString populateExport(QChart* chart) const override { return populate(chart, m_data, m_options); }
    std::string exportCsv() const override { return attentionCsv(m_data, m_options); }
    QString exportName() const override { return QStringLiteral("attention"); }
    std::vector<std::int64_t> exportSessionIds() const override { return sessionIdsOf(m_data); }

private:
    void rebuild() override;
    void fillFilterBoxes(const AttentionChoices& choices);
    void filterChosen();

    KernelChartData m_data;
    AttentionChartOptions m_options;
    AttentionGeometry m_geometry;
    bool m_filterChosen = false; // the user (or setFilter) picked a filter: new data keeps it where it can
    QComboBox* m_headDim;
    QComboBox* m_pass;
    QComboBox* m_mask;
    QLabel* m_note;
};
} // namespace rl::charts
