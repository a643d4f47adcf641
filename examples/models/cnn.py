"""A small CNN with a branch and a concat, in `tvm.relax.frontend.nn`, weights from a seed.

    usmp-translate --import-relax examples/models/cnn.py:cnn | usmp-opt --plan-pools

stem conv 3x3 -> relu -> (1x1 conv | 3x3 conv) -> concat on channels -> relu -> 1x1 conv.
"""

from __future__ import annotations

from usmp_dialect.tvm.relax.to_tir import random_weights


def cnn(size: int = 8, channels: int = 8, seed: int = 0):
    from tvm.relax.frontend import nn

    half = channels // 2

    class CNN(nn.Module):
        def __init__(self):
            self.stem = nn.Conv2D(3, channels, 3, padding=1)
            self.left = nn.Conv2D(channels, half, 1)
            self.right = nn.Conv2D(channels, half, 3, padding=1)
            self.head = nn.Conv2D(channels, 4, 1)

        def forward(self, x):
            h = nn.op.relu(self.stem(x))
            h = nn.op.concat([self.left(h), self.right(h)], dim=1)
            return self.head(nn.op.relu(h))

    spec = {"forward": {"x": nn.spec.Tensor((1, 3, size, size), "float32")}}
    mod, params = CNN().export_tvm(spec=spec)
    return mod, random_weights(params, seed)
