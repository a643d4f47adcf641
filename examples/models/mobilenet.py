"""A MobileNetV2-style network in `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/mobilenet.py:mobilenet | usmp-opt --plan-pools

Stem conv (stride 2), inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 project;
a residual add where stride is 1 and channels match), 1x1 head, global average pool and a
classifier. `mobilenet()` is a three-block network for tests; `mobilenet(size=224,
config="v2")`, the benchmark size, has MobileNetV2's layers (Sandler et al. 2018, width 1.0:
17 blocks, 32 to 320 channels, a 1280-channel head; 3.5 M weights).
"""

from __future__ import annotations

from usmp_dialect.tvm.relax.to_tir import random_weights

# (expansion, out channels, repeats, first stride) of each stage, as in MobileNetV2's table 2.
V2_STAGES = [
    (1, 16, 1, 1),
    (6, 24, 2, 2),
    (6, 32, 3, 2),
    (6, 64, 4, 2),
    (6, 96, 3, 1),
    (6, 160, 3, 2),
    (6, 320, 1, 1),
]
CONFIGS = {
    # (stem channels, stages, head channels)
    "tiny": (8, [(4, 8, 1, 1), (4, 16, 2, 2)], 32),
    "v2": (32, V2_STAGES, 1280),
}


def _blocks(stem: int, stages: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """(in channels, out channels, stride, expansion) of each inverted residual block."""
    blocks, cin = [], stem
    for expansion, cout, repeats, stride in stages:
        for i in range(repeats):
            blocks.append((cin, cout, stride if i == 0 else 1, expansion))
            cin = cout
    return blocks


def mobilenet(size: int = 16, classes: int = 10, seed: int = 0, config: str = "tiny"):
    from tvm.relax.frontend import nn

    stem, stages, head = CONFIGS[config]
    blocks = _blocks(stem, stages)

    class InvertedResidual(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int, expansion: int):
            mid = cin * expansion
            # An expansion of 1 has no expand conv (MobileNetV2's first block).
            self.expand = nn.Conv2D(cin, mid, 1) if expansion != 1 else None
            self.depthwise = nn.Conv2D(mid, mid, 3, stride=stride, padding=1, groups=mid)
            self.project = nn.Conv2D(mid, cout, 1)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            h = x if self.expand is None else nn.op.relu6(self.expand(x))
            h = nn.op.relu6(self.depthwise(h))
            h = self.project(h)
            return x + h if self.residual else h

    class MobileNet(nn.Module):
        def __init__(self):
            self.stem = nn.Conv2D(3, stem, 3, stride=2, padding=1)
            self.blocks = nn.ModuleList([InvertedResidual(*b) for b in blocks])
            self.head = nn.Conv2D(blocks[-1][1], head, 1)
            self.classifier = nn.Linear(head, classes)

        def forward(self, x):
            h = nn.op.relu6(self.stem(x))
            for block in self.blocks:
                h = block(h)
            h = nn.op.relu6(self.head(h))
            pooled = nn.op.sum(h, axis=[2, 3]) * (1.0 / float(h.shape[2] * h.shape[3]))
            return self.classifier(pooled)

    spec = {"forward": {"x": nn.spec.Tensor((1, 3, size, size), "float32")}}
    mod, params = MobileNet().export_tvm(spec=spec)
    return mod, random_weights(params, seed)
