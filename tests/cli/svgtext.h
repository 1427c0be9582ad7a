#pragma once
// What an exported SVG says: every text node concatenated, read with Qt's XML reader so the test
// fails when the file is not well-formed XML or its root is not <svg>.
#include <filesystem>

#include <QFile>
#include <QString>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

namespace rl::test {
inline QString svgText(const std::filesystem::path& file)
{
    QFile f(QString::fromStdString(file.string()));
    EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << file;
    QXmlStreamReader xml(&f);
    QString text, root;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && root.isEmpty())
            root = xml.name().toString();
        if (xml.isCharacters())
            text += xml.text();
    }
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_EQ(root, QStringLiteral("svg")) << file;
    return text;
}
} // namespace rl::test
