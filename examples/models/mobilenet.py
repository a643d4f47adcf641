"""A MobileNetV2-style network in `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/mobilenet.py:mobilenet | usmp-opt --plan-pools

Stem conv (stride 2), inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 project;
a residual add where stride is 1 and channels match), 1x1 head, global average pool and a
classifier. `mobilenet(size=224)` is the benchmark size.
"""

from __future__ import annotations

from usmp_dialect.frontends.relax import random_weights

# (in channels, out channels, stride) of each inverted residual block; expansion 4.
BLOCKS = [(8, 8, 1), (8, 16, 2), (16, 16, 1)]
EXPAND = 4


def mobilenet(size: int = 16, classes: int = 10, seed: int = 0):
    from tvm.relax.frontend import nn

    class InvertedResidual(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int):
            mid = cin * EXPAND
            self.expand = nn.Conv2D(cin, mid, 1)
            self.depthwise = nn.Conv2D(mid, mid, 3, stride=stride, padding=1, groups=mid)
            self.project = nn.Conv2D(mid, cout, 1)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            h = nn.op.relu6(self.expand(x))
            h = nn.op.relu6(self.depthwise(h))
            h = self.project(h)
            return x + h if self.residual else h

    class MobileNet(nn.Module):
        def __init__(self):
            self.stem = nn.Conv2D(3, BLOCKS[0][0], 3, stride=2, padding=1)
            self.blocks = nn.ModuleList([InvertedResidual(*b) for b in BLOCKS])
            self.head = nn.Conv2D(BLOCKS[-1][1], 32, 1)
            self.classifier = nn.Linear(32, classes)

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
