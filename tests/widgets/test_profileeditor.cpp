// Hardware profiles in the GUI: a shipped profile is copied under a new id, edited as JSON with
// live validation, saved with the user's profiles, and then found by id like the shipped ones.
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>

#include <nlohmann/json.hpp>

#include "model/hardwareprofileloader.h"
#include "gui/sizing/profileeditor.h"
#include "gui/sizing/profileform.h"
#include "tempdir.h"
#include "test_gui_env.h"

using rl::testing::shoot;

TEST(ProfileEditor, CopyEditValidateAndSaveAUserProfile)
{
    rl::test::TempDir home;
    qputenv("XDG_DATA_HOME", home.qpath().toUtf8()); // the user's profiles go here, not into $HOME
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

namespace {
// Types into a form field as a user would (textEdited, not setText).
void retype(QLineEdit* field, const QString& text)
{
    ASSERT_NE(field, nullptr);
    field->selectAll();
    if (text.isEmpty())
        QTest::keyClick(field, Qt::Key_Delete);
    else
        QTest::keyClicks(field, text);
}
} // namespace

// The form tab and the JSON tab are one document: the form shows the profile's figures, typing in
// the form rewrites the JSON (other keys kept), typing JSON refills the form, a loader problem shows
// next to its field, and a profile saved from the form is the one `ridgeline-cli profile show` reads.
TEST(ProfileEditor, FormAndJsonTabsStayInSyncAndTheSavedProfileLoadsInTheCli)
{
    rl::test::TempDir home;
    qputenv("XDG_DATA_HOME", home.qpath().toUtf8());
    rl::ProfileEditor editor;
    editor.resize(1100, 800);
    editor.show();
    ASSERT_TRUE(editor.select(QStringLiteral("h100-sxm")));
    rl::ProfileForm* form = editor.form();
    EXPECT_EQ(form->valueField(QStringLiteral("hbm_bandwidth_gbs"))->text(), QStringLiteral("3350"));
    EXPECT_EQ(form->valueField(QStringLiteral("peak_tflops.bf16"))->text(), QStringLiteral("989.4"));
    EXPECT_EQ(form->valueField(QStringLiteral("nic_line_rate_gbps"))->text(), QStringLiteral("400"));
    EXPECT_EQ(form->valueField(QStringLiteral("in_switch_reduction"))->text(), QStringLiteral("1"));
    EXPECT_TRUE(form->sourceField(QStringLiteral("peak_tflops.bf16"))->text().startsWith(QStringLiteral("https://")));
    EXPECT_TRUE(form->valueField(QStringLiteral("name"))->isReadOnly()) << "shipped profiles are read-only";

    ASSERT_TRUE(editor.copySelected(QStringLiteral("h100-lab")));
    EXPECT_EQ(form->valueField(QStringLiteral("id"))->text(), QStringLiteral("h100-lab"));
    EXPECT_FALSE(form->valueField(QStringLiteral("name"))->isReadOnly());

    retype(form->valueField(QStringLiteral("hbm_bandwidth_gbs")), QStringLiteral("3100"));
    retype(form->sourceField(QStringLiteral("hbm_bandwidth_gbs")), QStringLiteral("our lab, STREAM on HBM, 2025-05"));
    retype(form->valueField(QStringLiteral("nics_per_node")), QStringLiteral("4"));
    retype(form->valueField(QStringLiteral("gpus_per_nic")), QStringLiteral("2"));
    auto j = nlohmann::json::parse(editor.text().toStdString());
    EXPECT_DOUBLE_EQ(j["hbm_bandwidth_gbs"]["value"].get<double>(), 3100.0);
    EXPECT_EQ(j["hbm_bandwidth_gbs"]["source"], "our lab, STREAM on HBM, 2025-05");
    EXPECT_DOUBLE_EQ(j["gpus_per_nic"]["value"].get<double>(), 2.0);
    EXPECT_FALSE(j["memory_levels"].empty()) << "keys without a form row are kept";
    EXPECT_TRUE(editor.problem().isEmpty()) << editor.problem().toStdString();

    // A figure without its source: the loader's reason next to that field, and no Save.
    retype(form->sourceField(QStringLiteral("peak_tflops.fp8")), QString());
    EXPECT_FALSE(editor.canSave());
    EXPECT_TRUE(form->problemAt(QStringLiteral("peak_tflops.fp8")).contains(QStringLiteral("missing")))
        << form->problemAt(QStringLiteral("peak_tflops.fp8")).toStdString();
    EXPECT_TRUE(form->problemAt(QStringLiteral("peak_tflops.bf16")).isEmpty());
    shoot(&editor, "profile-form-problem.png");
    retype(form->sourceField(QStringLiteral("peak_tflops.fp8")), QStringLiteral("H100 datasheet, FP8 dense"));
    retype(form->valueField(QStringLiteral("max_achievable_tflops.bf16")), QStringLiteral("1200"));
    EXPECT_TRUE(form->problemAt(QStringLiteral("max_achievable_tflops.bf16")).contains(QStringLiteral("above the peak")));
    retype(form->valueField(QStringLiteral("max_achievable_tflops.bf16")), QStringLiteral("780"));
    EXPECT_TRUE(editor.canSave()) << editor.problem().toStdString();

    // JSON typed in the other tab refills the form.
    j = nlohmann::json::parse(editor.text().toStdString());
    j["nic_line_rate_gbps"]["value"] = 800;
    editor.setText(QString::fromStdString(j.dump(2)));
    EXPECT_EQ(form->valueField(QStringLiteral("nic_line_rate_gbps"))->text(), QStringLiteral("800"));
    shoot(&editor, "profile-form.png");

    ASSERT_EQ(editor.save(), QString());
    const auto saved = rl::findHardwareProfile("h100-lab");
    EXPECT_DOUBLE_EQ(saved.hbmBandwidthGBs.value, 3100.0);
    EXPECT_DOUBLE_EQ(saved.nicGBsPerGpu.value, 800.0 / 8 / 2) << "derived from the NIC fields of the form";

    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.qpath());
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(RIDGELINE_CLI_BIN), {QStringLiteral("profile"), QStringLiteral("show"),
                                                  QStringLiteral("h100-lab"), QStringLiteral("--json")});
    ASSERT_TRUE(cli.waitForFinished(60000));
    ASSERT_EQ(cli.exitCode(), 0) << cli.readAllStandardError().toStdString();
    const auto shown = nlohmann::json::parse(cli.readAllStandardOutput().toStdString(), nullptr, false);
    ASSERT_FALSE(shown.is_discarded());
    EXPECT_NE(shown.dump().find("our lab, STREAM on HBM, 2025-05"), std::string::npos) << shown.dump(2);
    EXPECT_NE(shown.dump().find("3100"), std::string::npos);
}

// Issue 24, minor list: the user's own profiles could not be deleted or renamed. Rename and Delete
// act on the user's profiles only (off for shipped ones); a renamed profile is found by its new id
// and not the old; a deleted copy that shadowed a shipped id gives the shipped profile back; the
// CLI's `profile rename|delete` do the same and refuse a shipped profile with a clear error.
TEST(ProfileEditor, YourProfilesCanBeRenamedAndDeletedShippedOnesCannot)
{
    rl::test::TempDir home;
    qputenv("XDG_DATA_HOME", home.qpath().toUtf8());
    rl::ProfileEditor editor;
    ASSERT_TRUE(editor.select(QStringLiteral("mi300x")));
    auto* rename = editor.findChild<QPushButton*>(QStringLiteral("renameProfile"));
    auto* remove = editor.findChild<QPushButton*>(QStringLiteral("deleteProfile"));
    ASSERT_TRUE(rename && remove);
    EXPECT_FALSE(rename->isEnabled());
    EXPECT_FALSE(remove->isEnabled());
    EXPECT_FALSE(editor.deleteSelected().isEmpty()) << "a shipped profile is not deleted";

    ASSERT_TRUE(editor.copySelected(QStringLiteral("mi300x-lab")));
    ASSERT_EQ(editor.save(), QString());
    ASSERT_TRUE(editor.select(QStringLiteral("mi300x-lab")));
    EXPECT_TRUE(rename->isEnabled());
    EXPECT_TRUE(remove->isEnabled());
    EXPECT_FALSE(editor.renameSelected(QStringLiteral("h100-sxm")).isEmpty()) << "an existing id is refused";
    EXPECT_FALSE(editor.renameSelected(QStringLiteral("bad id/")).isEmpty());
    ASSERT_EQ(editor.renameSelected(QStringLiteral("mi300x-rack7")), QString());
    EXPECT_EQ(rl::findHardwareProfile("mi300x-rack7").id, "mi300x-rack7");
    EXPECT_THROW(rl::findHardwareProfile("mi300x-lab"), rl::ProfileError);
    EXPECT_FALSE(QFile::exists(home.filePath(QStringLiteral("ridgeline/hardware/mi300x-lab.json"))));
    ASSERT_EQ(editor.deleteSelected(), QString());
    EXPECT_THROW(rl::findHardwareProfile("mi300x-rack7"), rl::ProfileError);

    // The CLI: a user copy under a shipped id shadows it until deleted.
    const auto run = [&](const QStringList& args) {
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.qpath());
        cli.setProcessEnvironment(env);
        cli.start(QStringLiteral(RIDGELINE_CLI_BIN), QStringList{QStringLiteral("profile")} + args);
        EXPECT_TRUE(cli.waitForFinished(60000));
        return std::pair{cli.exitCode(), QString::fromUtf8(cli.readAllStandardError())};
    };
    auto shadow = rl::findHardwareProfile("h100-sxm");
    shadow.name = "H100 of our lab";
    rl::saveUserHardwareProfile(shadow);
    EXPECT_EQ(rl::findHardwareProfile("h100-sxm").name, "H100 of our lab");
    const auto [renameCode, renameErr] = run({QStringLiteral("rename"), QStringLiteral("mi300x"), QStringLiteral("x")});
    EXPECT_EQ(renameCode, 1);
    EXPECT_TRUE(renameErr.contains(QStringLiteral("not one of your profiles"))) << renameErr.toStdString();
    const auto [deleteCode, deleteErr] = run({QStringLiteral("delete"), QStringLiteral("h100-sxm")});
    EXPECT_EQ(deleteCode, 0) << deleteErr.toStdString();
    EXPECT_EQ(rl::findHardwareProfile("h100-sxm").name, "NVIDIA H100 SXM5 80GB") << "the shipped one again";
}
