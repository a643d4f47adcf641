"""A ResNet-style network in `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/resnet.py:resnet | usmp-opt --plan-pools

Stem conv (stride 2), basic residual blocks (two 3x3 convs, relu(x + f(x)); a strided 1x1
projection on the shortcut where the stride or the channel count changes), global average
pool and a classifier. `resnet()` is a three-block network for tests; `resnet(size=224,
config="resnet18")`, the benchmark size, has ResNet-18's layers (He et al. 2016: a 7x7
stem and a 3x3 max pool, both stride 2, then four stages of two blocks, 64 to 512 channels;
11 M weights).
"""

from __future__ import annotations

from usmp_dialect.tvm.relax.to_tir import random_weights

CONFIGS = {
    # (stem kernel, stem channels, max pool after the stem, (out channels, first stride) of
    # each block)
    "tiny": (3, 8, False, [(8, 1), (16, 2), (16, 1)]),
    "resnet18": (
        7,
        64,
        True,
        [(c, s) for c, first in ((64, 1), (128, 2), (256, 2), (512, 2)) for s in (first, 1)],
    ),
}


def resnet(size: int = 16, classes: int = 10, seed: int = 0, config: str = "tiny"):
    from tvm import relax
    from tvm.relax.frontend import nn

    kernel, stem, pool, layout = CONFIGS[config]
    blocks = [
        (cin, cout, stride)
        for cin, (cout, stride) in zip([stem] + [c for c, _ in layout[:-1]], layout, strict=True)
    ]

    class BasicBlock(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int):
            self.conv1 = nn.Conv2D(cin, cout, 3, stride=stride, padding=1)
            self.conv2 = nn.Conv2D(cout, cout, 3, padding=1)
            projected = stride != 1 or cin != cout
            self.shortcut = nn.Conv2D(cin, cout, 1, stride=stride) if projected else None

        def forward(self, x):
            h = nn.op.relu(self.conv1(x))
            h = self.conv2(h)
            identity = x if self.shortcut is None else self.shortcut(x)
            return nn.op.relu(identity + h)

    class ResNet(nn.Module):
        def __init__(self):
            self.stem = nn.Conv2D(3, stem, kernel, stride=2, padding=kernel // 2)
            self.blocks = nn.ModuleList([BasicBlock(*b) for b in blocks])
            self.classifier = nn.Linear(blocks[-1][1], classes)

        def forward(self, x):
            h = nn.op.relu(self.stem(x))
            if pool:
                pooled = relax.op.nn.max_pool2d(h._expr, pool_size=3, strides=2, padding=1)
                h = nn.op.wrap_nested(pooled, name="max_pool2d")
            for block in self.blocks:
                h = block(h)
            pooled = nn.op.sum(h, axis=[2, 3]) * (1.0 / float(h.shape[2] * h.shape[3]))
            return self.classifier(pooled)

    spec = {"forward": {"x": nn.spec.Tensor((1, 3, size, size), "float32")}}
    mod, params = ResNet().export_tvm(spec=spec)
    return mod, random_weights(params, seed)
