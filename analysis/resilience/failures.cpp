#include "resilience/failures.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rl::resilience {

double FailureRate::nodeMtbfHours() const
{
    const double nodes = double(gpus) / std::max(1, gpusPerNode);
    return interruptions > 0 ? days * 24.0 * nodes / interruptions : INFINITY;
}

double FailureRate::gpuMtbfHours() const { return nodeMtbfHours() * std::max(1, gpusPerNode); }

const std::vector<FailureRate>& publishedFailureRates()
{
    static const std::vector<FailureRate> table{
        {"llama3-405b", "Llama 3 405B pre-training, 16,384 H100 80GB (2,048 nodes of 8), 54-day snapshot", 16384, 8,
         54, 419,
         "Llama Team, AI @ Meta, \"The Llama 3 Herd of Models\", arXiv:2407.21783 (2024), sec. 3.3.4 and Table 5",
         "unexpected interruptions; 78 % attributed to hardware (GPU 58.7 %)"},
        {"bloom-176b", "BLOOM 176B training, 384 A100 80GB (48 nodes of 8), on Jean Zay", 384, 8, 7, 2,
         "BigScience, \"The Technology Behind BLOOM Training\", Hugging Face blog (2022): \"on average 1-2 GPU "
         "failures each week\"",
         "the upper end of 1-2 per week"},
        {"opt-175b", "OPT-175B training, 992 A100 80GB (124 nodes of 8), about 2 months", 992, 8, 60, 35,
         "Zhang et al., \"OPT: Open Pre-trained Transformer Language Models\", arXiv:2205.01068 (2022), sec. 2.5",
         "hardware failures caused at least 35 manual restarts: a lower bound on failures"},
    };
    return table;
}

nlohmann::json toJson(const std::vector<FailureRate>& table)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& f : table)
        out.push_back({{"name", f.name},
                       {"description", f.description},
                       {"gpus", f.gpus},
                       {"gpus_per_node", f.gpusPerNode},
                       {"days", f.days},
                       {"interruptions", f.interruptions},
                       {"source", f.source},
                       {"note", f.note},
                       {"node_mtbf_hours", f.nodeMtbfHours()}});
    return out;
}

std::vector<FailureRate> failureRatesFromJson(const nlohmann::json& j)
{
    if (!j.is_array())
        throw std::runtime_error("failure table: expected a JSON array of entries");
    std::vector<FailureRate> out;
    for (const auto& e : j) {
        FailureRate f;
        try {
            f.name = e.at("name").get<std::string>();
            f.description = e.value("description", std::string{});
            f.gpus = e.at("gpus").get<int>();
            f.gpusPerNode = e.value("gpus_per_node", 8);
            f.days = e.at("days").get<double>();
            f.interruptions = e.at("interruptions").get<int>();
            f.source = e.value("source", std::string{});
            f.note = e.value("note", std::string{});
        } catch (const nlohmann::json::exception& ex) {
            throw std::runtime_error("failure table entry " + std::to_string(out.size() + 1) + ": " + ex.what());
        }
        if (f.gpus < 1 || f.gpusPerNode < 1 || f.days <= 0 || f.interruptions < 1)
            throw std::runtime_error("failure table entry \"" + f.name +
                                     "\": gpus, gpus_per_node, days and interruptions must be positive");
        out.push_back(std::move(f));
    }
    return out;
}

double nodeMtbfFromRestarts(double wallHours, int restarts, int nodes)
{
    if (restarts < 1)
        throw std::invalid_argument("the log has no restarts: no failure rate can be estimated from it");
    if (wallHours <= 0 || nodes < 1)
        throw std::invalid_argument("wall time and nodes must be positive");
    return wallHours / restarts * nodes;
}

double jobMtbf(double nodeMtbf, int nodes) { return nodes > 0 ? nodeMtbf / nodes : nodeMtbf; }

double youngInterval(double c, double m) { return std::sqrt(2.0 * c * m); }

double dalyInterval(double c, double m)
{
    if (c >= 2.0 * m)
        return m;
    const double x = c / (2.0 * m);
    return std::sqrt(2.0 * c * m) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - c;
}

double expectedGoodput(double tau, double c, double r, double m)
{
    if (tau <= 0)
        return 0;
    if (!std::isfinite(m))
        return tau / (tau + c);
    return tau / (m * std::exp(r / m) * std::expm1((tau + c) / m));
}

std::vector<GoodputCurvePoint> goodputVsInterval(double c, double r, double m, double lo, double hi, int n)
{
    std::vector<GoodputCurvePoint> out;
    if (n < 2 || lo <= 0 || hi <= lo)
        return out;
    for (int i = 0; i < n; ++i) {
        const double x = lo * std::pow(hi / lo, double(i) / (n - 1));
        out.push_back({x, expectedGoodput(x, c, r, m)});
    }
    return out;
}
} // namespace rl::resilience
