#pragma once
// A decoder-only transformer (dense or MoE) as the sizing model sees it: shapes only, no weights.
// Loaded from Hugging Face config.json (Llama, Mistral/Mixtral, Qwen2/3, Qwen3-MoE, OLMoE,
// DeepSeek-V3, Gemma 3), from our own JSON (which also describes ZAYA1's CCA attention), or from a
// preset in resources/models/.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace rl::model {

enum class MlpType {
    Gelu,  // 2 matrices: up, down
    SwiGlu // 3 matrices: gate, up, down (also GeGLU: same shapes)
};

enum class AttentionType { Standard, Mla, Cca };

// DeepSeek-style multi-head latent attention: K/V (and optionally Q) through a low-rank latent.
struct MlaConfig
{
    int qLoraRank = 0; // 0: Q projected directly from d_model
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;
};

// Zyphra's Compressed Convolutional Attention (ZAYA1): Q, K and V are projected down to latents of
// heads x headDim and kvHeads x headDim (fewer heads than the residual width implies) and attention
// runs there, GQA-shaped; before the scores two causal convolutions over the sequence mix the packed
// q/k latents: a depthwise one, then a grouped one with a group per head (headDim -> headDim).
struct CcaConfig
{
    int convKernel0 = 2; // depthwise kernel length (cca_time0)
    int convKernel1 = 2; // grouped kernel length (cca_time1)
};

struct MoeConfig
{
    int experts = 0; // routed experts; 0 = dense model
    int topK = 0;
    int sharedExperts = 0;
    int expertWidth = 0;  // intermediate size of one expert
    int sharedWidth = 0;  // intermediate size of one shared expert; 0 = expertWidth
    int firstKDense = 0;  // the first k layers use the dense MLP
    int everyN = 1;       // after those, every n-th layer is MoE (layer i is MoE when (i+1) % n == 0)
    bool routerBias = false; // DeepSeek-V3's e_score_correction_bias (E extra parameters)
    // Identity experts the router may pick instead of a real one (ZAYA1's "MoD" skip route): a logit
    // each, no weights. Counted as if no token took them (top-k real experts: an upper bound).
    int skipExperts = 0;
    // 0: a linear router d -> logits. > 0: ZAYA1's MLP router d -> r, RMSNorm, r -> r -> r (biased,
    // GELU), r -> logits.
    int routerHidden = 0;
};

struct ModelConfig
{
    std::string name;
    std::string family; // "llama", "mixtral", "qwen3_moe", "deepseek_v3", ... (HF model_type)
    int layers = 0;
    int dModel = 0;
    int heads = 0;
    int kvHeads = 0;  // == heads: MHA, 1: MQA, in between: GQA
    int headDim = 0;  // may differ from dModel / heads
    MlpType mlp = MlpType::SwiGlu;
    int mlpWidth = 0; // dense MLP intermediate size
    int vocab = 0;
    bool tiedEmbeddings = false;
    int seqLen = 4096;
    bool qkvBias = false;  // Qwen2
    bool qkNorm = false;   // Qwen3, OLMoE (per head_dim), Gemma 3
    bool qkNormFullWidth = false; // OLMoE normalises all of q (heads*head_dim) and k (kv*head_dim)
    int normsPerLayer = 2; // Gemma 3 has 4
    bool normBias = false;   // LayerNorm (weight and bias) instead of RMSNorm (weight only)
    bool linearBias = false; // biases on every projection (GPT-2/3, NeoX, OPT): out-proj and MLP too
    int positionEmbeddings = 0; // learned absolute position table (GPT-2/3, OPT); 0: rotary/none
    std::string activation;  // "silu", "gelu", "gelu_new", ... as the config names it (informational)
    AttentionType attention = AttentionType::Standard;
    MlaConfig mla;
    CcaConfig cca;
    bool residualScaling = false; // ZAYA1: learned scale and bias on both streams at every residual merge
    int slidingWindow = 0;  // tokens; 0 = full attention
    int slidingPattern = 0; // every n-th layer is global (Gemma 3: 6); 0 = all layers use the window
    MoeConfig moe;
    int mtpLayers = 0; // DeepSeek-V3 multi-token-prediction modules (not in the published 671B)

    bool isMoe() const { return moe.experts > 0; }
    bool isMoeLayer(int layer) const;
    int moeLayerCount() const;
    bool isSlidingLayer(int layer) const;
    int slidingLayerCount() const;
    int sharedWidth() const { return moe.sharedWidth > 0 ? moe.sharedWidth : moe.expertWidth; }
    // Channels of CCA's packed q/k latents, which the convolutions run over.
    int ccaChannels() const { return (heads + kvHeads) * headDim; }
    // Per-head widths of Q/K (score) and V (value) as the attention kernels see them.
    int qkHeadDim() const;
    int vHeadDim() const;
};

// Throws std::runtime_error naming `origin` and the missing or wrong field.
ModelConfig fromHuggingFace(const nlohmann::json& config, const std::string& origin);
ModelConfig fromJson(const nlohmann::json& j, const std::string& origin); // our own format
nlohmann::json toJson(const ModelConfig& c);

// Reads a file (HF config.json or ours, told apart by the "ridgeline_model" key). Errors name the
// file and, for malformed JSON, the byte offset.
ModelConfig loadModelConfigFile(const std::string& path);
void saveModelConfigFile(const ModelConfig& c, const std::string& path);

// Presets: resources/models/<name>.json. Names are file stems, e.g. "llama-3-8b".
std::vector<std::string> presetNames();
ModelConfig loadPreset(const std::string& name);
// A path that exists is a file; anything else is a preset name.
ModelConfig loadModelConfig(const std::string& pathOrPreset);
} // namespace rl::model
