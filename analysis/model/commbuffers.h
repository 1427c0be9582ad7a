#pragma once
// The device memory NCCL (RCCL, its fork) holds for the communicators one rank of a layout uses: a
// memory part of its own, beside weights and activations, because it grows with the layout (every
// parallel group is a communicator, every all_to_all peer a connection), not with the model.
//
// Sizes from NCCL's source (src/init.cc computeBuffSizes, src/include/device.h, src/transport/p2p.cc):
// a collective connection holds one buffer per protocol, LL 512 KiB (8 lines x 512 threads x 8 steps
// x 16 B), LL128 4.6875 MiB (120 x 640 threads x 8 steps x 8 B) and Simple 4 MiB (NCCL_BUFFSIZE);
// a point-to-point connection holds Simple only, its chunk x NCCL_STEPS (8): 512 KiB chunks over
// NVLink, 128 KiB over the network.
#include <string>

#include "model/modelconfig.h"
#include "model/parallelconfig.h"

namespace rl::model {

// Stated defaults, not measured (NCCL_DEBUG=INFO prints a job's own: "N coll channels", "p2p
// channels per peer"). NCCL connects lazily (NCCL_RUNTIME_CONNECT, default since 2.22): a
// communicator holds buffers only for the algorithms and peers it has used.
struct CommBufferAssumptions
{
    int collectiveChannels = 32;   // NCCL's usual count for a ring on an 8-GPU NVLink node
    int p2pChannelsPerPeer = 2;    // NCCL_NCHANNELS_PER_NET_PEER's former default
    int treeConnections = 3;       // an all_reduce's tree: up to 2 children and a parent (NCCL_MAX_TREE_ARITY 3)
};

inline constexpr double kNcclCollectiveConnectionBytes = 524288.0 + 4915200.0 + 4194304.0; // LL + LL128 + Simple
inline constexpr double kNcclP2pNvlinkBufferBytes = 524288.0 * 8;                             // 512 KiB x 8 steps
inline constexpr double kNcclP2pNetBufferBytes = 131072.0 * 8;                                // 128 KiB x 8 steps

// What one rank's communicators hold, in bytes, and how many there are (for a tooltip or a note).
struct CommBuffers
{
    int collectiveCommunicators = 0; // groups of more than one rank that run collectives
    int p2pPeers = 0;                // pipeline neighbours and all_to_all peers
    double deepEpBytes = 0;          // the flex dispatcher's DeepEP buffers (deepEpBufferBytes), in bytes too
    double bytes = 0;
};

// DeepEP's buffers, which Megatron-Core's flex dispatcher (moe_token_dispatcher_type "flex",
// core/transformer/moe/fused_a2a.py get_buffer) allocates for its expert-tensor x expert group in
// place of NCCL's all_to_all connections: the larger of the dispatch and combine configs' NVLink and
// RDMA size hints (DeepEP csrc/legacy/config.hpp get_nvl_buffer_size_hint and
// get_rdma_buffer_size_hint; the configs of deep_ep/buffers/legacy.py get_dispatch_config and
// get_combine_config, at Buffer.num_sms = 20, which Megatron leaves as it is), for tokens of
// hidden x max(element size, 2) bytes (fused_a2a.py get_hidden_bytes) with 64-bit top-k indices
// (EP_NUM_TOPK_IDX_BITS 64). A group size DeepEP has no config for (it asserts "Unsupported number
// of EP ranks") is given the next larger one's; beyond 160 ranks, 160's. 0 for one rank. HybridEP
// (the flex dispatcher's other backend) and ROCm builds are counted as DeepEP's: their own buffer
// sizes are not modelled.
double deepEpBufferBytes(int ranks, int hidden);

// Megatron-Core's groups a rank uses in a step: tensor (tp > 1), context (cp > 1), data x context for
// the gradients (dp·cp > 1; an all_reduce's tree too under ZeRO 0, where it reduces with all_reduce
// rather than reduce_scatter), the embedding pair of a tied model on a pipeline, and for an MoE the
// expert tensor group (when etp differs from tp), the expert-data group and the expert all_to_all
// (ep - 1 peers, over NVLink while ep fits a node of 8; with the flex dispatcher DeepEP's buffers
// instead) and the pipeline's two neighbours (over the network). Other stacks form the same groups
// for the same degrees.
CommBuffers communicationBuffers(const ModelConfig& c, const ParallelConfig& p, const CommBufferAssumptions& a = {});

// "sizes from NCCL's source (the flex dispatcher's from DeepEP's size hints); 32 ring channels and 2
// per point-to-point peer stated": the part's basis, for a tooltip or a note.
std::string communicationBuffersBasis(const CommBufferAssumptions& a = {});

} // namespace rl::model
