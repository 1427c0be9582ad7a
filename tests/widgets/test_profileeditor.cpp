// Hardware profiles in the GUI: a shipped profile is copied under a new id, edited as JSON with
// live validation, saved with the user's profiles, and then found by id like the shipped ones.
#include <QPushButton>

#include <nlohmann/json.hpp>

#include "model/hardwareprofileloader.h"
#include "profileeditor.h"
#include "test_gui_env.h"

TEST(ProfileEditor, CopyEditValidateAndSaveAUserProfile)
{
    QTemporaryDir home;
    qputenv("XDG_DATA_HOME", home.path().toUtf8()); // the user's profiles go here, not into $HOME
    rl::ProfileEditor editor;
    ASSERT_TRUE(editor.select(QStringLiteral("mi300x")));
    EXPECT_FALSE(editor.canSave()) << "shipped profiles are read-only";

    ASSERT_TRUE(editor.copySelected(QStringLiteral("mi300x-lab")));
    EXPECT_TRUE(editor.canSave()) << editor.problem().toStdString();

    auto j = nlohmann::json::parse(rl::toJson(rl::findHardwareProfile("mi300x")).dump());
    j["id"] = "mi300x-lab";
    j["hbm_bandwidth_gbs"]["value"] = 4800.0;
    j["hbm_bandwidth_gbs"]["source"] = "our lab, rocm-bandwidth-test";
    editor.setText(QString::fromStdString(j.dump(2)));
    EXPECT_TRUE(editor.problem().isEmpty()) << editor.problem().toStdString();

    editor.setText(QStringLiteral("{ \"id\": \"mi300x-lab\", "));
    EXPECT_FALSE(editor.problem().isEmpty());
    EXPECT_FALSE(editor.canSave());
    EXPECT_FALSE(editor.findChild<QPushButton*>(QStringLiteral("saveProfile"))->isEnabled());

    editor.setText(QString::fromStdString(j.dump(2)));
    ASSERT_EQ(editor.save(), QString());
    const auto saved = rl::findHardwareProfile("mi300x-lab");
    EXPECT_DOUBLE_EQ(saved.hbmBandwidthGBs.value, 4800.0);
    EXPECT_EQ(saved.hbmBandwidthGBs.source, "our lab, rocm-bandwidth-test");
    EXPECT_TRUE(QFile::exists(home.filePath(QStringLiteral("ridgeline/hardware/mi300x-lab.json"))));
    EXPECT_DOUBLE_EQ(rl::findHardwareProfile("mi300x").hbmBandwidthGBs.value, 5300.0); // the shipped one is untouched
}
