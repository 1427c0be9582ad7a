// ridgeline-cli config save NAME SOURCE | list | show NAME: model configurations kept in the
// workspace, usable as CONFIG by size, moe-sweep, fast-width and vs-measured.
#include <iostream>

#include <nlohmann/json.hpp>

#include "clicommands.h"
#include "model/modelconfig.h"
#include "store/modelconfigs.h"
#include "store/workspace.h"
#include "texttable.h"

namespace rl::cli {
namespace {
void addConfigCommand(CLI::App& app, CliContext& ctx)
{
    auto* cmd = app.add_subcommand("config", "Model configurations saved in the workspace");
    cmd->require_subcommand(1);

    auto save = std::make_shared<std::pair<std::string, std::string>>();
    auto* s = cmd->add_subcommand("save", "Save a config.json or preset under a name");
    s->add_option("name", save->first, "Name to save it as")->required();
    s->add_option("source", save->second, "config.json (Hugging Face or Ridgeline) or a preset name")->required();
    s->callback([&ctx, save] {
        const auto c = model::loadModelConfig(save->second); // validated on the way in
        store::Workspace ws(ctx.workspacePath(CliContext::Access::Create));
        ws.requireWritable("save a model configuration in it");
        store::saveModelConfig(ws.database(), save->first, model::toJson(c).dump());
        std::cout << "saved '" << save->first << "' (" << c.name << ") in " << ws.path() << '\n';
    });

    auto* l = cmd->add_subcommand("list", "Saved configurations");
    l->callback([&ctx] {
        store::Workspace ws(ctx.workspacePath());
        const auto all = store::savedModelConfigs(ws.database());
        if (ctx.json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& c : all)
                out.push_back({{"name", c.name}, {"saved", c.saved}, {"config", nlohmann::json::parse(c.json)}});
            std::cout << out.dump(2) << '\n';
            return;
        }
        TextTable t({"name", "model", "layers", "d_model", "experts", "saved"});
        for (const auto& c : all) {
            const auto m = model::fromJson(nlohmann::json::parse(c.json), c.name);
            t.addRow({c.name, m.name, std::to_string(m.layers), std::to_string(m.dModel), std::to_string(m.moe.experts),
                      c.saved});
        }
        t.print(std::cout);
    });

    auto name = std::make_shared<std::string>();
    auto* sh = cmd->add_subcommand("show", "A saved configuration as JSON");
    sh->add_option("name", *name, "Saved name")->required();
    sh->callback([&ctx, name] {
        store::Workspace ws(ctx.workspacePath());
        const auto c = store::savedModelConfig(ws.database(), *name);
        if (!c)
            throw std::runtime_error("no saved config '" + *name + "' in " + ws.path() +
                                     ": `ridgeline-cli config list` lists the saved ones, `config save NAME FILE` adds one");
        std::cout << nlohmann::json::parse(c->json).dump(2) << '\n';
    });
}

const bool registered = registerCommand(&addConfigCommand);
} // namespace
} // namespace rl::cli
