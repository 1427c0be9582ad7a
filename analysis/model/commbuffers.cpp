#include "model/commbuffers.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace rl::model {
namespace {
// deep_ep/buffers/legacy.py: Config(num_sms, nvl send, nvl receive, rdma send, rdma receive tokens)
// per group size, for dispatch and for combine.
struct DeepEpConfig
{
    int ranks;
    int nvlRecv;
    int rdmaSend, rdmaRecv;
};
constexpr DeepEpConfig kDispatch[] = {{2, 256, 6, 128},   {4, 256, 6, 128},   {8, 256, 6, 128},   {16, 288, 20, 128},
                                      {24, 288, 8, 128},  {32, 288, 8, 128},  {48, 288, 8, 128},  {64, 288, 8, 128},
                                      {96, 480, 12, 128}, {128, 560, 12, 128}, {144, 720, 12, 128}, {160, 720, 12, 128}};
constexpr DeepEpConfig kCombine[] = {{2, 256, 6, 128},   {4, 256, 6, 128},   {8, 256, 6, 128},   {16, 288, 12, 128},
                                     {24, 288, 8, 128},  {32, 288, 8, 128},  {48, 288, 8, 128},  {64, 288, 8, 128},
                                     {96, 480, 8, 128},  {128, 560, 8, 128}, {144, 720, 8, 128}, {160, 720, 8, 128}};
constexpr int kDeepEpSms = 20;       // Buffer.num_sms
constexpr int kNvlPeers = 8;         // LEGACY_NUM_MAX_NVL_PEERS
constexpr std::int64_t kMaxTopK = 128, kMaxScales = 128, kTopkIdxBytes = 8, kSourceMetaBytes = 8, kInt4Bytes = 16;

const DeepEpConfig& configFor(const DeepEpConfig (&table)[12], int ranks)
{
    const auto* it = std::find_if(std::begin(table), std::end(table), [ranks](const DeepEpConfig& c) { return c.ranks >= ranks; });
    return it == std::end(table) ? table[11] : *it;
}

std::int64_t alignUp(std::int64_t a, std::int64_t b) { return (a + b - 1) / b * b; }

// config.hpp's two hints, term by term.
std::int64_t nvlHint(const DeepEpConfig& c, std::int64_t hiddenBytes, int ranks)
{
    const std::int64_t rdmaRanks = std::max(ranks / kNvlPeers, 1), nvlRanks = std::min(ranks, kNvlPeers);
    const std::int64_t perRecv = std::int64_t(kDeepEpSms / 2) * nvlRanks * c.nvlRecv;
    std::int64_t n = std::int64_t(kDeepEpSms / 2) * nvlRanks * (2 * rdmaRanks + 3) * 4;
    n += perRecv * (hiddenBytes + kSourceMetaBytes + kMaxTopK * kTopkIdxBytes + kMaxTopK * 4 + kMaxScales * 4);
    return alignUp(n, 128);
}

std::int64_t rdmaHint(const DeepEpConfig& c, std::int64_t hiddenBytes, int ranks)
{
    if (ranks <= kNvlPeers)
        return 0;
    const std::int64_t rdmaRanks = ranks / kNvlPeers;
    const std::int64_t recv = alignUp(c.rdmaRecv, c.rdmaSend); // the Config constructor's "ceil up"
    const std::int64_t perRecv = std::int64_t(kDeepEpSms / 2) * rdmaRanks * recv * 2;
    std::int64_t n = std::int64_t(kDeepEpSms / 2) * rdmaRanks * (kNvlPeers * 2 + 2) * 2 * 4;
    n += perRecv * (hiddenBytes + kSourceMetaBytes + kMaxTopK * kTopkIdxBytes + kMaxTopK * 4 + kMaxScales * 4 + kInt4Bytes);
    return alignUp(n, 128);
}
} // namespace

double deepEpBufferBytes(int ranks, int hidden)
{
    if (ranks <= 1)
        return 0;
    const std::int64_t hiddenBytes = std::int64_t(hidden) * 2; // bf16 and fp8 tokens alike: max(element size, 2)
    const auto& d = configFor(kDispatch, ranks);
    const auto& c = configFor(kCombine, ranks);
    return double(std::max(nvlHint(d, hiddenBytes, ranks), nvlHint(c, hiddenBytes, ranks)) +
                  std::max(rdmaHint(d, hiddenBytes, ranks), rdmaHint(c, hiddenBytes, ranks)));
}

CommBuffers communicationBuffers(const ModelConfig& c, const ParallelConfig& p, const CommBufferAssumptions& a)
{
    CommBuffers b;
    double connections = 0; // collective connections, each of every channel
    auto collective = [&](int ranks, int perChannel = 1) {
        if (ranks > 1) {
            ++b.collectiveCommunicators;
            connections += perChannel;
        }
    };
    collective(p.tp);
    collective(p.cp);
    const int gradientRanks = p.dp * p.cp;
    collective(gradientRanks, p.zeroStage == 0 ? 1 + a.treeConnections : 1);
    if (c.tiedEmbeddings && p.pp > 1)
        collective(2);
    double p2pBytes = 0;
    if (p.pp > 1) {
        b.p2pPeers += 2;
        p2pBytes += 2 * 2 * kNcclP2pNetBufferBytes; // the stage before and the one after, a send and a receive each
    }
    if (c.isMoe()) {
        if (p.expertTensorParallel() != p.tp)
            collective(p.expertTensorParallel());
        collective(p.expertDataParallel());
        if (p.ep > 1 && p.flexDispatch) {
            b.p2pPeers += p.ep - 1;
            b.deepEpBytes = deepEpBufferBytes(p.ep * p.expertTensorParallel(), c.dModel);
        } else if (p.ep > 1) {
            const int peers = p.ep - 1;
            b.p2pPeers += peers;
            const double perPeer = p.ep * p.expertTensorParallel() <= 8 ? kNcclP2pNvlinkBufferBytes : kNcclP2pNetBufferBytes;
            p2pBytes += peers * 2 * perPeer;
        }
    }
    b.bytes = connections * a.collectiveChannels * kNcclCollectiveConnectionBytes + p2pBytes * a.p2pChannelsPerPeer +
              b.deepEpBytes;
    return b;
}

std::string communicationBuffersBasis(const CommBufferAssumptions& a)
{
    return "sizes from NCCL's source (the flex dispatcher's from DeepEP's size hints); " +
           std::to_string(a.collectiveChannels) + " ring channels and " + std::to_string(a.p2pChannelsPerPeer) +
           " per point-to-point peer stated";
}

} // namespace rl::model
