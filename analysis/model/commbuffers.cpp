#include "model/commbuffers.h"

namespace rl::model {

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
        if (p.ep > 1) {
            const int peers = p.ep - 1;
            b.p2pPeers += peers;
            const double perPeer = p.ep * p.expertTensorParallel() <= 8 ? kNcclP2pNvlinkBufferBytes : kNcclP2pNetBufferBytes;
            p2pBytes += peers * 2 * perPeer;
        }
    }
    b.bytes = connections * a.collectiveChannels * kNcclCollectiveConnectionBytes + p2pBytes * a.p2pChannelsPerPeer;
    return b;
}

std::string communicationBuffersBasis(const CommBufferAssumptions& a)
{
    return "sizes from NCCL's source; " + std::to_string(a.collectiveChannels) + " ring channels and " +
           std::to_string(a.p2pChannelsPerPeer) + " per point-to-point peer stated";
}

} // namespace rl::model
