// The validation chart's view data (views::validationChartData): one series per device in the
// order devices appear, refused rows left out, the shared axis range, hover text and CSV.
#include <gtest/gtest.h>

#include "views/validationchartdata.h"

using namespace rl;
using namespace rl::views;

namespace {
model::ValidationRow row(const char* id, const char* device, double measured, double predicted, bool refused = false)
{
    model::ValidationRow r;
    r.run.id = id;
    r.run.hardware = device;
    r.run.measuredStepSeconds = measured;
    r.refused = refused;
    if (!refused) {
        r.predictedStepSeconds = predicted;
        r.error = predicted / measured - 1;
    } else {
        r.why = "pp=8 does not divide the 126 layers";
    }
    return r;
}
} // namespace

TEST(ValidationChartData, SeriesByDeviceRangeAndText)
{
    model::ValidationSummary s;
    s.rows = {row("a", "h100-sxm", 2.0, 2.2), row("b", "a100-80gb", 30.0, 27.0), row("c", "h100-sxm", 5.0, 5.0),
              row("d", "h100-sxm", 4.0, 0, true)};
    s.refused = 1;
    s.medianAbsError = 0.1;
    s.maxAbsError = 0.1;
    const auto d = validationChartData(s);
    EXPECT_EQ(d.predicted, 3);
    ASSERT_EQ(d.series.size(), 2u);
    EXPECT_EQ(d.series[0].device, "h100-sxm");
    EXPECT_EQ(d.series[0].rows, (std::vector<std::size_t>{0, 2})); // the refused row is not drawn
    EXPECT_EQ(d.series[1].rows, (std::vector<std::size_t>{1}));
    // 2 s .. 30 s spans a decade: log axes, 1.4x beyond both ends.
    EXPECT_TRUE(d.log);
    EXPECT_DOUBLE_EQ(d.lo, 2.0 / 1.4);
    EXPECT_DOUBLE_EQ(d.hi, 30.0 * 1.4);
    EXPECT_EQ(d.description, "3 of 4 runs predicted; median |error| 10.0 %, max 10.0 %");
    EXPECT_EQ(validationPointText(s.rows[0]), "a (h100-sxm)\nmeasured 2 s, predicted 2.20 s\nerror +10.0 %");

    // Within a decade: linear axes padded by a tenth of the span and a twentieth of the top.
    s.rows.resize(1);
    const auto one = validationChartData(s);
    EXPECT_FALSE(one.log);
    EXPECT_DOUBLE_EQ(one.lo, 2.0 - (0.2 * 0.1 + 2.2 * 0.05));
    EXPECT_DOUBLE_EQ(one.hi, 2.2 + (0.2 * 0.1 + 2.2 * 0.05));
}

TEST(ValidationChartData, CsvKeepsRefusedRowsWithTheirReason)
{
    model::ValidationSummary s;
    s.rows = {row("a", "h100-sxm", 2.0, 2.2), row("d", "h100-sxm", 4.0, 0, true)};
    const std::string csv = validationCsv(s);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "run,source,hardware,gpus,measured_step_s,predicted_step_s,error,expected_median_abs_error,"
              "expected_max_abs_error,refused,attention");
    EXPECT_NE(csv.find("pp=8 does not divide the 126 layers"), std::string::npos);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}
