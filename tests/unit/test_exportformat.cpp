// The one suffix rule of chart export (views/exportformat.h), shared by the GUI and ridgeline-cli.
#include <gtest/gtest.h>

#include "views/exportformat.h"

using rl::views::ExportFormat;
using rl::views::exportFormatFor;
using rl::views::withExportSuffix;

TEST(ExportFormat, FormatComesFromTheSuffixInAnyCase)
{
    EXPECT_EQ(exportFormatFor("/x/y.PNG"), ExportFormat::Png);
    EXPECT_EQ(exportFormatFor("y.svg"), ExportFormat::Svg);
    EXPECT_EQ(exportFormatFor("y.Pdf"), ExportFormat::Pdf);
    EXPECT_EQ(exportFormatFor("y.csv"), ExportFormat::Csv);
    EXPECT_FALSE(exportFormatFor("y"));
    EXPECT_FALSE(exportFormatFor("y.txt"));
    EXPECT_FALSE(exportFormatFor("/dir.png/y")) << "a dot in a folder name is no suffix";
    EXPECT_FALSE(exportFormatFor("y.png.part"));
}

TEST(ExportFormat, DataExportAlwaysEndsInCsv)
{
    EXPECT_EQ(withExportSuffix("x.csv", ExportFormat::Csv), "x.csv");
    EXPECT_EQ(withExportSuffix("x.CSV", ExportFormat::Csv), "x.CSV");
    EXPECT_EQ(withExportSuffix("x.png", ExportFormat::Csv), "x.csv") << "an image suffix is replaced, not kept";
    EXPECT_EQ(withExportSuffix("/a/x.PDF", ExportFormat::Csv), "/a/x.csv");
    EXPECT_EQ(withExportSuffix("x", ExportFormat::Csv), "x.csv");
    EXPECT_EQ(withExportSuffix("run.v2", ExportFormat::Csv), "run.v2.csv") << "an unknown suffix is part of the name";
    EXPECT_EQ(withExportSuffix("/a.b/x", ExportFormat::Svg), "/a.b/x.svg");
}

TEST(ExportFormat, UnknownFormatNamesTheFourSuffixes)
{
    EXPECT_EQ(rl::views::unknownExportFormat("x.txt"), "cannot tell the format of 'x.txt': use .png, .svg, .pdf or .csv");
    EXPECT_TRUE(rl::views::isImageFormat(ExportFormat::Pdf));
    EXPECT_FALSE(rl::views::isImageFormat(ExportFormat::Csv));
}
