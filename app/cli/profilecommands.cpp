// ridgeline-cli profile list | show ID | delete ID | rename ID NEW | measured: the hardware profiles the model and the roofline
// use, and "this machine (measured)" built from stored sessions (model/measuredprofile.h).
#include <filesystem>
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/hardwareprofileloader.h"
#include "model/measuredprofile.h"
#include "store/workspace.h"
#include "texttable.h"

namespace rl::cli {
namespace {
void addProfileCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("profile", "Hardware profiles: list, show, delete or rename yours, build the measured one");
    cmd->require_subcommand(1);

    auto* list = cmd->add_subcommand("list", "Shipped and user profiles");
    list->callback([&ctx] {
        const auto all = availableHardwareProfiles();
        const std::string userDir = userHardwareProfileDir();
        if (ctx.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& hw : all)
                out.push_back({{"id", hw.id}, {"name", hw.name}, {"measured", hw.measured}});
            std::cout << out.dump(2) << '\n';
            return;
        }
        TextTable t({"id", "name", "vendor", "kind", "where"});
        for (const auto& hw : all) {
            const bool mine = std::filesystem::exists(std::filesystem::path(userDir) / (hw.id + ".json"));
            t.addRow({hw.id, hw.name, hw.vendor, hw.measured ? "measured" : "vendor", mine ? userDir : "shipped"});
        }
        t.print(std::cout);
    });

    auto id = std::make_shared<std::string>();
    auto* show = cmd->add_subcommand("show", "A profile as JSON, every number with its source");
    show->add_option("id", *id, "Profile id or file")->required();
    show->callback([id] { std::cout << toJson(findHardwareProfile(*id)).dump(2) << '\n'; });

    auto* remove = cmd->add_subcommand("delete", "Delete one of your own profiles (shipped ones stay)");
    remove->add_option("id", *id, "Profile id")->required();
    remove->callback([id] { std::cerr << "deleted " << deleteUserHardwareProfile(*id) << '\n'; });

    auto to = std::make_shared<std::string>();
    auto* rename = cmd->add_subcommand("rename", "Give one of your own profiles a new id");
    rename->add_option("id", *id, "Profile id")->required();
    rename->add_option("new-id", *to, "The new id")->required();
    rename->callback([id, to] { std::cerr << "renamed to " << renameUserHardwareProfile(*id, *to) << '\n'; });

    struct MeasuredArgs
    {
        std::int64_t peak = 0, gemm = 0;
        MeasuredProfileSources from;
        std::string id = "this-machine";
        bool save = false;
    };
    auto m = std::make_shared<MeasuredArgs>();
    auto* measured = cmd->add_subcommand(
        "measured", "Build 'this machine (measured)' from stored benchmark sessions: compute (peakflops or a GEMM sweep), "
                    "memory bandwidth, and a PyTorch probe's attention rates; every figure names its session");
    auto* peak = measured->add_option("--peakflops", m->peak, "peakflops session id (ridgeline-bench, CPU)");
    auto* gemm = measured->add_option("--gemm", m->gemm,
                                      "GEMM sweep session id (ridgeline-probe gemm, or an imported GEMM bench): the best "
                                      "rate per dtype is the max achievable");
    peak->excludes(gemm);
    measured->add_option("--membw", m->from.memory, "membw session id")->required();
    measured->add_option("--attention", m->from.attention,
                         "ridgeline-probe attention session id: each backend becomes an attention kernel "
                         "(size/vs-measured --attention flash|cudnn|efficient|math)");
    measured->add_option("--collectives", m->from.collectives,
                         "collective session id of 2+ GPUs in one node: its all_reduce busbw is the link bandwidth");
    measured->add_option("--base", m->from.base,
                         "Profile id for what was not measured (datasheet peak for MFU, links, NICs), e.g. h200");
    measured->add_option("--id", m->id, "Profile id")->capture_default_str();
    measured->add_flag("--save", m->save, "Save it with the user's profiles so --hardware ID finds it");
    measured->callback([&ctx, m] {
        if (m->peak == 0 && m->gemm == 0)
            throw CLI::RequiredError("--peakflops or --gemm");
        m->from.compute = m->peak ? m->peak : m->gemm;
        store::Workspace ws(ctx.workspacePath());
        auto hw = buildMeasuredProfile(ws, m->from);
        hw.id = m->id;
        if (m->save) {
            const auto path = saveUserHardwareProfile(hw);
            std::cerr << "saved " << path << '\n';
        }
        std::cout << toJson(hw).dump(2) << '\n';
    });
}

const bool registered = registerCommand(&addProfileCommand);
} // namespace
} // namespace rl::cli
