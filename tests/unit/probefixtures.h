#pragma once
// The PyTorch probe's real H200 files (tests/data/probe/h200) as the store keeps their sessions:
// the header's kind, title and params, each kept record without its "record" field appended under
// its key ("attention", "timed_steps"), the step summary as the object (records/keptrecords.h).
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "records/session.h"

namespace rl::test {

inline Session h200ProbeSession(const std::string& file)
{
    std::ifstream in(std::string(RIDGELINE_TEST_DATA) + "/probe/h200/" + file);
    if (!in)
        throw std::runtime_error("cannot read tests/data/probe/h200/" + file);
    Session s;
    std::string line;
    while (std::getline(in, line)) {
        auto r = nlohmann::json::parse(line);
        const std::string record = r["record"];
        r.erase("record");
        if (record == "session") {
            s.kind = r["kind"];
            s.title = r["title"];
            s.tool = r.value("tool", std::string());
            s.params = r["params"];
        } else if (record == "attention") {
            s.params["attention"].push_back(r);
        } else if (record == "step") {
            s.params["timed_steps"].push_back(r);
        } else if (record == "step_summary") {
            s.params["step_summary"] = r;
        }
    }
    return s;
}
} // namespace rl::test
