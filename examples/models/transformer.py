"""A Transformer encoder block in `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/transformer.py:transformer | usmp-opt --plan-pools

Pre-norm: x + attention(layer_norm(x)), then + MLP(layer_norm(.)); multi-head attention
with reshape/permute, softmax, and a GELU MLP of width 4*d. `transformer(seq=128, width=256)`
is the benchmark size.
"""

from __future__ import annotations

import numpy as np


def transformer(seq: int = 8, width: int = 16, heads: int = 2, seed: int = 0):
    from tvm.relax.frontend import nn

    head = width // heads

    class EncoderBlock(nn.Module):
        def __init__(self):
            self.ln1 = nn.LayerNorm(width)
            self.q = nn.Linear(width, width)
            self.k = nn.Linear(width, width)
            self.v = nn.Linear(width, width)
            self.proj = nn.Linear(width, width)
            self.ln2 = nn.LayerNorm(width)
            self.fc1 = nn.Linear(width, 4 * width)
            self.fc2 = nn.Linear(4 * width, width)

        def _heads(self, t):
            return nn.op.permute_dims(nn.op.reshape(t, (seq, heads, head)), [1, 0, 2])

        def forward(self, x):
            h = self.ln1(x)
            q, k, v = self._heads(self.q(h)), self._heads(self.k(h)), self._heads(self.v(h))
            scores = nn.op.matmul(q, nn.op.permute_dims(k, [0, 2, 1])) * (
                1.0 / float(np.sqrt(head))
            )
            ctx = nn.op.matmul(nn.op.softmax(scores, axis=-1), v)
            ctx = nn.op.reshape(nn.op.permute_dims(ctx, [1, 0, 2]), (seq, width))
            x = x + self.proj(ctx)
            return x + self.fc2(nn.op.gelu(self.fc1(self.ln2(x))))

    spec = {"forward": {"x": nn.spec.Tensor((seq, width), "float32")}}
    mod, params = EncoderBlock().export_tvm(spec=spec)
    rng = np.random.default_rng(seed)
    weights = {}
    for name, param in params:
        shape = tuple(int(d) for d in param.shape)
        if name.startswith("ln") and name.endswith(".weight"):
            weights[name] = (1 + 0.1 * rng.standard_normal(shape)).astype(param.dtype)
        else:
            scale = 1.0 / np.sqrt(shape[-1]) if len(shape) > 1 else 0.1
            weights[name] = (rng.standard_normal(shape) * scale).astype(param.dtype)
    return mod, weights
