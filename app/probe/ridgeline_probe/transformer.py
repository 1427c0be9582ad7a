"""A dense decoder-only transformer in plain PyTorch, shaped by a Ridgeline model config (a Hugging
Face config.json, a preset name from resources/models, or Ridgeline's own format), scaled down by
the user to fit: RMSNorm, grouped-query attention, SwiGLU or GELU MLP, optionally tied embeddings.
Rotary embeddings are left out: elementwise work the sizing model does not time either."""
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import RESOURCE_DIRS
from .session import Failure


def load_config(name):
    path = name
    if not os.path.isfile(path):
        for d in RESOURCE_DIRS:
            candidate = os.path.join(d, "models", name + ".json")
            if os.path.isfile(candidate):
                path = candidate
                break
        else:
            raise Failure("--model %s: not a config.json and not a preset in %s" % (name, ", ".join(RESOURCE_DIRS)))
    with open(path) as f:
        raw = json.load(f)
    if raw.get("ridgeline_model"):
        shape = {"hidden": raw.get("d_model"), "layers": raw.get("layers"), "heads": raw.get("heads"),
                 "kv_heads": raw.get("kv_heads") or raw.get("heads"), "ffn": raw.get("mlp_width"),
                 "vocab": raw.get("vocab"), "swiglu": raw.get("mlp", "swiglu") == "swiglu",
                 "tied": bool(raw.get("tied_embeddings")), "seq": raw.get("seq_len"), "head_dim": raw.get("head_dim"),
                 "experts": (raw.get("moe") or {}).get("experts", 0)}
    else:
        shape = {"hidden": raw.get("hidden_size"), "layers": raw.get("num_hidden_layers"),
                 "heads": raw.get("num_attention_heads"),
                 "kv_heads": raw.get("num_key_value_heads") or raw.get("num_attention_heads"),
                 "ffn": raw.get("intermediate_size"), "vocab": raw.get("vocab_size"),
                 "swiglu": raw.get("hidden_act", "silu") in ("silu", "swiglu"),
                 "tied": bool(raw.get("tie_word_embeddings")), "seq": raw.get("max_position_embeddings"),
                 "head_dim": raw.get("head_dim"),
                 "experts": raw.get("num_local_experts") or raw.get("num_experts") or raw.get("n_routed_experts") or 0}
    shape["name"] = os.path.splitext(os.path.basename(path))[0]
    shape["path"] = path
    return shape


def scale(shape, args):
    """The config with the user's --layers/--hidden/--heads/--kv-heads/--ffn/--vocab applied; width
    overrides keep the config's head dim and FFN ratio where the user gives only --hidden."""
    s = dict(shape)
    if s.get("experts", 0) > 1:
        raise Failure("--model %s is a mixture of experts (%d experts): the step builds dense transformers only"
                      % (s["name"], s["experts"]))
    head_dim = s.get("head_dim") or (s["hidden"] // s["heads"])
    if args.hidden:
        ratio = s["ffn"] / s["hidden"] if s.get("ffn") else 4.0
        s["hidden"] = args.hidden
        s["heads"] = args.heads or max(1, args.hidden // head_dim)
        kv_share = shape["heads"] // max(1, shape["kv_heads"])
        s["kv_heads"] = max(1, s["heads"] // kv_share)
        s["ffn"] = int(round(args.hidden * ratio / 64)) * 64 or args.hidden * 4
    for key in ("layers", "heads", "kv_heads", "ffn", "vocab"):
        if getattr(args, key, None):
            s[key] = getattr(args, key)
    s["head_dim"] = s["hidden"] // s["heads"] if (args.hidden or args.heads) else head_dim
    if s["heads"] % s["kv_heads"]:
        raise Failure("heads %d are not a multiple of kv heads %d (use --kv-heads)" % (s["heads"], s["kv_heads"]))
    for key in ("hidden", "layers", "heads", "ffn", "vocab"):
        if not s.get(key) or s[key] < 1:
            raise Failure("model config %s has no %s (give it with --%s)" % (s["name"], key, key))
    return s


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def attention(q, k, v):
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    s = q.shape[-2]
    scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    mask = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1)
    return torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1) @ v


class Block(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = s["heads"], s["kv_heads"], s["head_dim"]
        h = s["hidden"]
        self.norm1, self.norm2 = RMSNorm(h), RMSNorm(h)
        self.qkv = nn.Linear(h, (self.heads + 2 * self.kv_heads) * self.head_dim, bias=False)
        self.proj = nn.Linear(self.heads * self.head_dim, h, bias=False)
        self.swiglu = s["swiglu"]
        self.up = nn.Linear(h, s["ffn"] * (2 if self.swiglu else 1), bias=False)
        self.down = nn.Linear(s["ffn"], h, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(
            [self.heads * self.head_dim, self.kv_heads * self.head_dim, self.kv_heads * self.head_dim], dim=-1)
        q = q.view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        if self.kv_heads != self.heads:
            k = k.repeat_interleave(self.heads // self.kv_heads, dim=1)
            v = v.repeat_interleave(self.heads // self.kv_heads, dim=1)
        x = x + self.proj(attention(q, k, v).transpose(1, 2).reshape(b, t, -1))
        u = self.up(self.norm2(x))
        if self.swiglu:
            gate, up = u.chunk(2, dim=-1)
            u = F.silu(gate) * up
        else:
            u = F.gelu(u)
        return x + self.down(u)


class Transformer(nn.Module):
    def __init__(self, s):
        super().__init__()
        self.embed = nn.Embedding(s["vocab"], s["hidden"])
        self.blocks = nn.ModuleList(Block(s) for _ in range(s["layers"]))
        self.norm = RMSNorm(s["hidden"])
        self.head = nn.Linear(s["hidden"], s["vocab"], bias=False)
        if s["tied"]:
            self.head.weight = self.embed.weight

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def step_flops(s, params, batch, seq):
    """Model FLOPs of one training step: 6 x parameters (without the embedding lookup) x tokens, plus
    the causal attention scores (forward 2·2·s²·d·heads / 2 per layer, backward twice that)."""
    tokens = batch * seq
    dense = 6.0 * (params - s["vocab"] * s["hidden"] * (0 if s["tied"] else 1)) * tokens
    attn = 3 * 2.0 * batch * seq * seq * s["heads"] * s["head_dim"] * s["layers"]
    return dense + attn
