#include "model/modelconfig.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "io/resourcedirs.h"

namespace rl::model {
namespace {
using nlohmann::json;

[[noreturn]] void fail(const std::string& origin, const std::string& what)
{
    throw std::runtime_error(origin + ": " + what);
}

int requireInt(const json& j, const char* key, const std::string& origin)
{
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        fail(origin, std::string("missing or non-integer field '") + key + "'");
    const auto v = it->get<long long>();
    if (v <= 0 || v > (1LL << 30))
        fail(origin, std::string("field '") + key + "' out of range: " + std::to_string(v));
    return int(v);
}

// Optional integers: absent or null give the fallback (HF writes null for "not used").
int optInt(const json& j, const char* key, int fallback, const std::string& origin)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return fallback;
    if (!it->is_number_integer())
        fail(origin, std::string("field '") + key + "' is not an integer");
    const auto v = it->get<long long>();
    if (v < 0 || v > (1LL << 30))
        fail(origin, std::string("field '") + key + "' out of range: " + std::to_string(v));
    return int(v);
}

bool optBool(const json& j, const char* key, bool fallback)
{
    auto it = j.find(key);
    return (it != j.end() && it->is_boolean()) ? it->get<bool>() : fallback;
}

std::string optString(const json& j, const char* key)
{
    auto it = j.find(key);
    return (it != j.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

void validate(const ModelConfig& c, const std::string& origin)
{
    if (c.heads % c.kvHeads != 0)
        fail(origin, "num_attention_heads (" + std::to_string(c.heads) + ") is not a multiple of num_key_value_heads ("
                         + std::to_string(c.kvHeads) + ")");
    if (c.isMoe() && (c.moe.topK <= 0 || c.moe.topK > c.moe.experts || c.moe.expertWidth <= 0))
        fail(origin, "MoE needs 0 < top-k <= experts and an expert width");
    if (c.moe.everyN <= 0)
        fail(origin, "moe layer frequency must be positive");
    if (c.attention == AttentionType::Mla && (c.mla.kvLoraRank <= 0 || c.mla.vHeadDim <= 0))
        fail(origin, "MLA needs kv_lora_rank and v_head_dim");
    if (c.attention == AttentionType::Cca && (c.cca.convKernel0 <= 0 || c.cca.convKernel1 <= 0))
        fail(origin, "CCA needs positive conv_kernel0 and conv_kernel1");
}
} // namespace

bool ModelConfig::isMoeLayer(int layer) const
{
    return isMoe() && layer >= moe.firstKDense && (layer + 1) % moe.everyN == 0;
}

int ModelConfig::moeLayerCount() const
{
    // Closed form of counting isMoeLayer(i) over i in [0, layers): the sweep calls this per config.
    if (!isMoe() || moe.everyN <= 0 || moe.firstKDense >= layers)
        return 0;
    return layers / moe.everyN - moe.firstKDense / moe.everyN;
}

bool ModelConfig::isSlidingLayer(int layer) const
{
    if (slidingWindow <= 0)
        return false;
    return slidingPattern <= 0 || (layer + 1) % slidingPattern != 0;
}

int ModelConfig::slidingLayerCount() const
{
    if (slidingWindow <= 0)
        return 0;
    return slidingPattern <= 0 ? layers : layers - layers / slidingPattern;
}

int ModelConfig::qkHeadDim() const
{
    return attention == AttentionType::Mla ? mla.qkNopeHeadDim + mla.qkRopeHeadDim : headDim;
}

int ModelConfig::vHeadDim() const
{
    return attention == AttentionType::Mla ? mla.vHeadDim : headDim;
}

ModelConfig fromHuggingFace(const json& root, const std::string& origin)
{
    if (!root.is_object())
        fail(origin, "config is not a JSON object");
    // Multimodal checkpoints (Gemma 3 4B+) keep the language model in text_config.
    const json& j = (root.contains("text_config") && root["text_config"].is_object()) ? root["text_config"] : root;
    ModelConfig c;
    c.family = optString(j, "model_type");
    if (c.family.empty())
        c.family = optString(root, "model_type");
    const std::string& f = c.family;
    c.name = optString(root, "_name_or_path");
    // GPT-2 style keys (gpt2, gpt_bigcode) name the same shapes differently.
    const bool gpt2Keys = !j.contains("hidden_size") && j.contains("n_embd");
    c.dModel = requireInt(j, gpt2Keys ? "n_embd" : "hidden_size", origin);
    c.layers = requireInt(j, gpt2Keys ? "n_layer" : "num_hidden_layers", origin);
    c.heads = requireInt(j, gpt2Keys ? "n_head" : "num_attention_heads", origin);
    c.kvHeads = optInt(j, "num_key_value_heads", c.heads, origin);
    if (c.kvHeads == 0)
        c.kvHeads = c.heads;
    c.headDim = optInt(j, "head_dim", c.dModel / c.heads, origin);
    c.vocab = requireInt(j, "vocab_size", origin);
    const bool gemma = f.starts_with("gemma");
    c.tiedEmbeddings = optBool(j, "tie_word_embeddings",
                               optBool(root, "tie_word_embeddings", gemma || f == "gpt2" || gpt2Keys || f == "opt"));
    const int positions = optInt(j, gpt2Keys ? "n_positions" : "max_position_embeddings", 4096, origin);
    c.seqLen = std::min(4096, positions);
    // Non-gated MLPs (2 matrices) are the GPT-2/3, NeoX, OPT, BigCode, Falcon and Phi-1/2 families;
    // Llama-family code (llama, mistral, qwen, ...) always builds gate_proj whatever hidden_act says,
    // so a "llama" with hidden_act gelu is GeGLU: gated, 3 matrices, as HF's LlamaMLP runs it.
    const bool ungated = f == "gpt2" || f == "gpt_neox" || f == "opt" || f == "gpt_bigcode" || f == "falcon" ||
                         f == "phi" || f == "gptj" || f == "gpt_neo" || f == "starcoder2" || gpt2Keys;
    c.mlp = ungated ? MlpType::Gelu : MlpType::SwiGlu;
    c.activation = optString(j, gpt2Keys ? "activation_function" : "hidden_act");
    if (c.activation.empty())
        c.activation = optString(j, "activation_function");
    c.mlpWidth = optInt(j, gpt2Keys ? "n_inner" : f == "opt" ? "ffn_dim" : "intermediate_size", 0, origin);
    if (ungated && c.mlpWidth == 0)
        c.mlpWidth = 4 * c.dModel; // GPT-2: n_inner null means 4 x n_embd
    // LayerNorm with bias and biased projections: the GPT-2/3, NeoX, OPT, BigCode, Falcon, Phi families.
    c.linearBias = f == "gpt2" || f == "gpt_neox" || f == "opt" || f == "gpt_bigcode" || f == "phi" || f == "gptj" ||
                   f == "gpt_neo" || f == "starcoder2" || gpt2Keys || optBool(j, "mlp_bias", false);
    c.normBias = c.linearBias || f == "falcon";
    if (f == "gpt2" || f == "opt" || f == "gpt_bigcode" || f == "gpt_neo" || gpt2Keys)
        c.positionEmbeddings = positions + (f == "opt" ? 2 : 0); // OPT's table has a 2-row offset
    if (f == "gpt_bigcode" && optBool(j, "multi_query", true))
        c.kvHeads = 1;
    c.qkvBias = optBool(j, "attention_bias", f == "qwen2" || f == "qwen2_moe");
    c.qkNorm = f == "qwen3" || f == "qwen3_moe" || gemma || f == "olmoe" || f == "olmo2";
    c.qkNormFullWidth = f == "olmoe" || f == "olmo2";
    c.normsPerLayer = gemma ? 4 : 2;

    if (f == "mistral" || f == "mixtral" || gemma || (f.starts_with("qwen") && optBool(j, "use_sliding_window", false)))
        c.slidingWindow = optInt(j, "sliding_window", 0, origin);
    if (gemma) {
        c.slidingPattern = optInt(j, "sliding_window_pattern", 6, origin);
        if (auto lt = j.find("layer_types"); lt != j.end() && lt->is_array()) {
            for (std::size_t i = 0; i < lt->size(); ++i)
                if ((*lt)[i] == "full_attention") {
                    c.slidingPattern = int(i) + 1;
                    break;
                }
        }
    }

    if (f == "mixtral") {
        c.moe.experts = requireInt(j, "num_local_experts", origin);
        c.moe.topK = requireInt(j, "num_experts_per_tok", origin);
        c.moe.expertWidth = c.mlpWidth;
    } else if (f == "olmoe") {
        c.moe.experts = requireInt(j, "num_experts", origin);
        c.moe.topK = requireInt(j, "num_experts_per_tok", origin);
        c.moe.expertWidth = c.mlpWidth;
    } else if (f == "qwen3_moe" || f == "qwen2_moe") {
        c.moe.experts = requireInt(j, "num_experts", origin);
        c.moe.topK = requireInt(j, "num_experts_per_tok", origin);
        c.moe.expertWidth = requireInt(j, "moe_intermediate_size", origin);
        c.moe.everyN = optInt(j, "decoder_sparse_step", 1, origin);
        if (auto m = j.find("mlp_only_layers"); m != j.end() && m->is_array() && !m->empty())
            fail(origin, "mlp_only_layers other than [] is not supported");
        if (f == "qwen2_moe") {
            c.moe.sharedExperts = 1;
            c.moe.sharedWidth = requireInt(j, "shared_expert_intermediate_size", origin);
        }
    } else if (f == "deepseek_v3" || f == "deepseek_v2") {
        c.moe.experts = requireInt(j, "n_routed_experts", origin);
        c.moe.topK = requireInt(j, "num_experts_per_tok", origin);
        c.moe.expertWidth = requireInt(j, "moe_intermediate_size", origin);
        c.moe.sharedExperts = optInt(j, "n_shared_experts", 0, origin);
        c.moe.firstKDense = optInt(j, "first_k_dense_replace", 0, origin);
        c.moe.everyN = optInt(j, "moe_layer_freq", 1, origin);
        c.moe.routerBias = optString(j, "topk_method") == "noaux_tc";
        c.mtpLayers = optInt(j, "num_nextn_predict_layers", 0, origin);
        c.attention = AttentionType::Mla;
        c.mla.qLoraRank = optInt(j, "q_lora_rank", 0, origin);
        c.mla.kvLoraRank = requireInt(j, "kv_lora_rank", origin);
        c.mla.qkNopeHeadDim = requireInt(j, "qk_nope_head_dim", origin);
        c.mla.qkRopeHeadDim = requireInt(j, "qk_rope_head_dim", origin);
        c.mla.vHeadDim = requireInt(j, "v_head_dim", origin);
        c.headDim = c.mla.qkNopeHeadDim + c.mla.qkRopeHeadDim;
    }
    if (!c.isMoe() || c.moe.firstKDense > 0 || c.moe.everyN > 1)
        if (c.mlpWidth <= 0)
            fail(origin, "missing or non-integer field 'intermediate_size'");
    validate(c, origin);
    return c;
}

json toJson(const ModelConfig& c)
{
    json j = {{"ridgeline_model", 1},
              {"name", c.name},
              {"family", c.family},
              {"layers", c.layers},
              {"d_model", c.dModel},
              {"heads", c.heads},
              {"kv_heads", c.kvHeads},
              {"head_dim", c.headDim},
              {"mlp", c.mlp == MlpType::Gelu ? "gelu" : "swiglu"},
              {"mlp_width", c.mlpWidth},
              {"vocab", c.vocab},
              {"tied_embeddings", c.tiedEmbeddings},
              {"seq_len", c.seqLen},
              {"qkv_bias", c.qkvBias},
              {"qk_norm", c.qkNorm},
              {"qk_norm_full_width", c.qkNormFullWidth},
              {"norms_per_layer", c.normsPerLayer},
              {"norm_bias", c.normBias},
              {"linear_bias", c.linearBias},
              {"position_embeddings", c.positionEmbeddings},
              {"activation", c.activation},
              {"sliding_window", c.slidingWindow},
              {"sliding_pattern", c.slidingPattern},
              {"mtp_layers", c.mtpLayers}};
    // Fields only some families have are written only when set, so the others' files stay as they were.
    if (c.residualScaling)
        j["residual_scaling"] = true;
    if (c.isMoe()) {
        j["moe"] = {{"experts", c.moe.experts},          {"top_k", c.moe.topK},
                    {"shared_experts", c.moe.sharedExperts}, {"expert_width", c.moe.expertWidth},
                    {"shared_width", c.moe.sharedWidth},  {"first_k_dense", c.moe.firstKDense},
                    {"every_n", c.moe.everyN},            {"router_bias", c.moe.routerBias}};
        if (c.moe.skipExperts > 0)
            j["moe"]["skip_experts"] = c.moe.skipExperts;
        if (c.moe.routerHidden > 0)
            j["moe"]["router_hidden"] = c.moe.routerHidden;
    }
    if (c.attention == AttentionType::Cca)
        j["cca"] = {{"conv_kernel0", c.cca.convKernel0}, {"conv_kernel1", c.cca.convKernel1}};
    if (c.attention == AttentionType::Mla)
        j["mla"] = {{"q_lora_rank", c.mla.qLoraRank},
                    {"kv_lora_rank", c.mla.kvLoraRank},
                    {"qk_nope_head_dim", c.mla.qkNopeHeadDim},
                    {"qk_rope_head_dim", c.mla.qkRopeHeadDim},
                    {"v_head_dim", c.mla.vHeadDim}};
    return j;
}

ModelConfig fromJson(const json& j, const std::string& origin)
{
    if (!j.is_object() || !j.contains("ridgeline_model"))
        fail(origin, "not a Ridgeline model file (no 'ridgeline_model' key)");
    ModelConfig c;
    c.name = optString(j, "name");
    c.family = optString(j, "family");
    c.layers = requireInt(j, "layers", origin);
    c.dModel = requireInt(j, "d_model", origin);
    c.heads = requireInt(j, "heads", origin);
    c.kvHeads = optInt(j, "kv_heads", c.heads, origin);
    c.headDim = optInt(j, "head_dim", c.dModel / c.heads, origin);
    const std::string mlp = optString(j, "mlp");
    if (!mlp.empty() && mlp != "gelu" && mlp != "swiglu")
        fail(origin, "field 'mlp' must be \"gelu\" or \"swiglu\", not \"" + mlp + "\"");
    c.mlp = mlp == "gelu" ? MlpType::Gelu : MlpType::SwiGlu;
    c.mlpWidth = optInt(j, "mlp_width", 0, origin);
    c.vocab = requireInt(j, "vocab", origin);
    c.tiedEmbeddings = optBool(j, "tied_embeddings", false);
    c.seqLen = optInt(j, "seq_len", 4096, origin);
    c.qkvBias = optBool(j, "qkv_bias", false);
    c.qkNorm = optBool(j, "qk_norm", false);
    c.qkNormFullWidth = optBool(j, "qk_norm_full_width", false);
    c.normsPerLayer = optInt(j, "norms_per_layer", 2, origin);
    c.normBias = optBool(j, "norm_bias", false);
    c.linearBias = optBool(j, "linear_bias", false);
    c.positionEmbeddings = optInt(j, "position_embeddings", 0, origin);
    c.activation = optString(j, "activation");
    c.slidingWindow = optInt(j, "sliding_window", 0, origin);
    c.slidingPattern = optInt(j, "sliding_pattern", 0, origin);
    c.mtpLayers = optInt(j, "mtp_layers", 0, origin);
    if (auto m = j.find("moe"); m != j.end() && m->is_object()) {
        c.moe.experts = requireInt(*m, "experts", origin);
        c.moe.topK = requireInt(*m, "top_k", origin);
        c.moe.sharedExperts = optInt(*m, "shared_experts", 0, origin);
        c.moe.expertWidth = requireInt(*m, "expert_width", origin);
        c.moe.sharedWidth = optInt(*m, "shared_width", 0, origin);
        c.moe.firstKDense = optInt(*m, "first_k_dense", 0, origin);
        c.moe.everyN = optInt(*m, "every_n", 1, origin);
        c.moe.routerBias = optBool(*m, "router_bias", false);
        c.moe.skipExperts = optInt(*m, "skip_experts", 0, origin);
        c.moe.routerHidden = optInt(*m, "router_hidden", 0, origin);
    }
    c.residualScaling = optBool(j, "residual_scaling", false);
    if (auto m = j.find("mla"); m != j.end() && m->is_object()) {
        c.attention = AttentionType::Mla;
        c.mla.qLoraRank = optInt(*m, "q_lora_rank", 0, origin);
        c.mla.kvLoraRank = requireInt(*m, "kv_lora_rank", origin);
        c.mla.qkNopeHeadDim = requireInt(*m, "qk_nope_head_dim", origin);
        c.mla.qkRopeHeadDim = requireInt(*m, "qk_rope_head_dim", origin);
        c.mla.vHeadDim = requireInt(*m, "v_head_dim", origin);
    }
    if (auto m = j.find("cca"); m != j.end() && m->is_object()) {
        if (c.attention == AttentionType::Mla)
            fail(origin, "'cca' and 'mla' are two attention variants: give one");
        c.attention = AttentionType::Cca;
        c.cca.convKernel0 = requireInt(*m, "conv_kernel0", origin);
        c.cca.convKernel1 = requireInt(*m, "conv_kernel1", origin);
    }
    if ((!c.isMoe() || c.moe.firstKDense > 0 || c.moe.everyN > 1) && c.mlpWidth <= 0)
        fail(origin, "missing or non-integer field 'mlp_width'");
    validate(c, origin);
    return c;
}

ModelConfig loadModelConfigFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail(path, "cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    json j;
    try {
        j = json::parse(ss.str());
    } catch (const json::parse_error& e) {
        fail(path, "malformed JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    }
    ModelConfig c = (j.is_object() && j.contains("ridgeline_model")) ? fromJson(j, path) : fromHuggingFace(j, path);
    if (c.name.empty())
        c.name = std::filesystem::path(path).stem().string();
    return c;
}

void saveModelConfigFile(const ModelConfig& c, const std::string& path)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        fail(path, "cannot open for writing");
    out << toJson(c).dump(2) << '\n';
    if (!out.flush())
        fail(path, "write failed");
}

namespace {
std::vector<std::filesystem::path> presetDirs()
{
    std::vector<std::filesystem::path> out;
    for (const auto& dir : io::resourceDirCandidates())
        out.push_back(dir / "models");
    return out;
}
} // namespace

std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    for (const auto& dir : presetDirs()) {
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(dir, ec))
            if (e.path().extension() == ".json")
                names.push_back(e.path().stem().string());
        if (!names.empty())
            break;
    }
    std::sort(names.begin(), names.end());
    return names;
}

namespace {
std::string presetList() // for messages: "deepseek-v3, gemma-3-1b, ..."
{
    std::string known;
    for (const auto& n : presetNames())
        known += (known.empty() ? "" : ", ") + n;
    return known;
}
} // namespace

ModelConfig loadPreset(const std::string& name)
{
    for (const auto& dir : presetDirs()) {
        const auto p = dir / (name + ".json");
        if (std::filesystem::exists(p)) {
            ModelConfig c = loadModelConfigFile(p.string());
            c.name = name;
            return c;
        }
    }
    throw std::runtime_error("unknown model preset '" + name + "' (known: " + presetList() +
                             "): use one of these, or the path of a config.json");
}

ModelConfig loadModelConfig(const std::string& pathOrPreset)
{
    std::error_code ec;
    if (std::filesystem::is_regular_file(pathOrPreset, ec))
        return loadModelConfigFile(pathOrPreset);
    // "mistral.json" that is not there was meant as a file: say so, not "unknown preset".
    if (pathOrPreset.find('/') != std::string::npos || pathOrPreset.ends_with(".json")) {
        throw std::runtime_error(pathOrPreset + ": no such file; give the path of a config.json, or a preset (known: " +
                                 presetList() + ")");
    }
    return loadPreset(pathOrPreset);
}
} // namespace rl::model
