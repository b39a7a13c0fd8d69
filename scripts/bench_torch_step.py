#!/usr/bin/env python3
"""Times one training step of ShardLab's model in PyTorch eager mode, for comparison
with the engine's CUDA backend (scripts/gpu-check.sh runs it).

The model is the engine's (engine/core/Model.h), in fp32:
    embedding V x H
    -> L residual MLP blocks: x + Linear(4H -> H)(GELU_tanh(Linear(H -> 4H)(x)))
    -> output Linear(H -> V)
    -> cross-entropy (mean over the batch's tokens), AdamW.
Defaults match the engine's default job (engine/job/JobConfig.h): V = H = 64, L = 4,
64 tokens a step, lr 3e-3, no weight decay. TF32 is off, as in the engine.

A step is forward + backward + optimizer step; we time `--steps` of them after
`--warmup` untimed ones, each bracketed by torch.cuda.synchronize(). PyTorch runs as
people use it: AdamW with its default multi-tensor (foreach) implementation, and again
with fused=True; zero_grad() with its default set_to_none=True. Both fp32 with TF32
off (matmul and cuDNN, float32_matmul_precision "highest"), as the engine.

With --engine-trace (a `shardlab-run --trace` file of the same model), the engine's
time is taken like for like: the median of its per-step times from rank 0's `step`
records (step s lasts from step s-1's record to its own), leaving out step 0, which
holds the start-up and first-touch costs, as PyTorch's warm-up does. Prints JSON:
    {"framework": "torch-eager", "median_ms": <foreach>, "variants": {"foreach": {...},
     "fused": {...}}, "engine": {"median_ms": ..., "steps": ...}, ...}
"""
import argparse
import json
import platform
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from engine_steps import engine_steps  # scripts/engine_steps.py, beside this file


class Block(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.fc1 = nn.Linear(hidden, 4 * hidden)
        self.fc2 = nn.Linear(4 * hidden, hidden)

    def forward(self, x):
        return x + self.fc2(F.gelu(self.fc1(x), approximate="tanh"))


class Model(nn.Module):
    def __init__(self, vocab, hidden, layers):
        super().__init__()
        self.embedding = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList(Block(hidden) for _ in range(layers))
        self.output = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        x = self.embedding(tokens)
        for block in self.blocks:
            x = block(x)
        return self.output(x)


def time_steps(model, opt, a, dev):
    tokens = torch.randint(0, a.vocab, (a.batch,), device=dev)
    targets = torch.randint(0, a.vocab, (a.batch,), device=dev)

    def sync():
        if dev.type == "cuda":
            torch.cuda.synchronize()

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(model(tokens), targets)
        loss.backward()
        opt.step()
        return loss

    for _ in range(a.warmup):
        step()
    sync()
    times = []
    loss = None
    for _ in range(a.steps):
        sync()
        t0 = time.perf_counter()
        loss = step()
        sync()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()

    def pct(q):
        return times[min(len(times) - 1, int(q * len(times)))]

    return {"median_ms": statistics.median(times), "p10_ms": pct(0.10), "p90_ms": pct(0.90), "min_ms": times[0],
            "final_loss": float(loss.item()) if loss is not None else None}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--vocab", type=int, default=64)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--batch", type=int, default=64, help="tokens per step (the engine's global batch)")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--weight-decay", type=float, default=0.0)
    p.add_argument("--warmup", type=int, default=20)
    p.add_argument("--steps", type=int, default=200)
    p.add_argument("--device", default="cuda", help="cuda (default) or cpu")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", help="also write the JSON here")
    p.add_argument("--engine-trace", help="a shardlab-run --trace of the same model: the engine's per-step median")
    a = p.parse_args()
    engine = engine_steps(a.engine_trace) if a.engine_trace else None

    if a.device == "cuda" and not torch.cuda.is_available():
        print(json.dumps({"framework": "torch-eager", "skipped": "torch.cuda.is_available() is False",
                          "engine": engine}))
        return 0
    # True fp32, like the engine's cuBLAS default math mode.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    dev = torch.device(a.device)

    variants = {}
    params = 0
    for name, opt_args in (("foreach", {}), ("fused", {"fused": True})):
        torch.manual_seed(a.seed)
        model = Model(a.vocab, a.hidden, a.layers).to(dev)
        params = sum(t.numel() for t in model.parameters())
        try:
            opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=a.weight_decay, **opt_args)
        except (RuntimeError, TypeError, ValueError) as e:  # fused needs a device and dtype it supports
            variants[name] = {"skipped": str(e)}
            continue
        variants[name] = time_steps(model, opt, a, dev)

    result = {
        "framework": "torch-eager",
        "torch": torch.__version__,
        "python": platform.python_version(),
        "device": torch.cuda.get_device_name(dev) if dev.type == "cuda" else platform.processor() or "cpu",
        "config": {"vocab": a.vocab, "hidden": a.hidden, "layers": a.layers, "batch_tokens": a.batch,
                   "lr": a.lr, "weight_decay": a.weight_decay, "dtype": "float32", "tf32": False},
        "parameters": params,
        "warmup": a.warmup,
        "steps": a.steps,
        # the headline: PyTorch's defaults (foreach AdamW)
        "median_ms": variants["foreach"].get("median_ms"),
        "variants": variants,
        "engine": engine,
    }
    text = json.dumps(result)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
