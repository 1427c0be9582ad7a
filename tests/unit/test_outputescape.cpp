// The two escapes every output of user and file text goes through (issue 26): markup (HTML report,
// SVG and XMP metadata) and CSV text cells.
#include <gtest/gtest.h>

#include <string>

#include "io/csv.h"
#include "io/markup.h"

namespace {
struct Case
{
    const char* name;
    std::string in;
    std::string out;
};

class EscapeMarkup : public ::testing::TestWithParam<Case>
{
};

TEST_P(EscapeMarkup, GivesTextThatParsesBackToItself) { EXPECT_EQ(rl::io::escapeMarkup(GetParam().in), GetParam().out); }

INSTANTIATE_TEST_SUITE_P(
    Cases, EscapeMarkup,
    ::testing::Values(Case{"plain", "H100 8 ranks", "H100 8 ranks"},
                      Case{"script", "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
                      Case{"ampersandAndEntity", "a & b &amp;", "a &amp; b &amp;amp;"},
                      Case{"quotesForAttributes", "\"q\" 'a'", "&quot;q&quot; &#39;a&#39;"},
                      Case{"utf8PassesThrough", "µs × 8 — ü", "µs × 8 — ü"},
                      Case{"whitespaceKept", "a\tb\nc\r", "a\tb\nc\r"},
                      Case{"controlCharactersXmlCannotHold", std::string("a\0b\x1b", 4), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD"}),
    [](const auto& info) { return std::string(info.param.name); });

class CsvText : public ::testing::TestWithParam<Case>
{
};

TEST_P(CsvText, NeutralisesFormulaStartsOnly) { EXPECT_EQ(rl::io::csvText(GetParam().in), GetParam().out); }

INSTANTIATE_TEST_SUITE_P(
    Cases, CsvText,
    ::testing::Values(Case{"plain", "node01", "node01"}, Case{"empty", "", ""},
                      Case{"equals", "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"},
                      Case{"plus", "+1+1", "'+1+1"}, Case{"minus", "-2+3", "'-2+3"},
                      Case{"at", "@SUM(A1)", "'@SUM(A1)"}, Case{"tab", "\t=1", "'\t=1"},
                      Case{"carriageReturn", "\r=1", "'\r=1"},
                      Case{"formulaNotAtTheStart", "a=1", "a=1"},
                      Case{"markupIsNotCsvsBusiness", "<b>x</b>", "<b>x</b>"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(CsvText, NumbersWeWriteAreNotText)
{
    // csvNumber, not csvText, writes numbers: a negative one stays a number.
    EXPECT_EQ(rl::io::csvNumber(-1.5), "-1.5");
    // A neutralised cell that needs quoting is still quoted by the writer.
    EXPECT_EQ(rl::io::csvField(rl::io::csvText("=a,b")), "\"'=a,b\"");
}
} // namespace
