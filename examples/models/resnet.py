"""A ResNet-style network in `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/resnet.py:resnet | usmp-opt --plan-pools

Stem conv 3x3 (stride 2), basic residual blocks (two 3x3 convs, relu(x + f(x)); a strided
1x1 projection on the shortcut where the stride or the channel count changes), global
average pool and a classifier. `resnet(size=224)` is the benchmark size.
"""

from __future__ import annotations

from usmp_dialect.frontends.relax import random_weights

# (in channels, out channels, stride) of each basic block.
BLOCKS = [(8, 8, 1), (8, 16, 2), (16, 16, 1)]


def resnet(size: int = 16, classes: int = 10, seed: int = 0):
    from tvm.relax.frontend import nn

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
            self.stem = nn.Conv2D(3, BLOCKS[0][0], 3, stride=2, padding=1)
            self.blocks = nn.ModuleList([BasicBlock(*b) for b in BLOCKS])
            self.classifier = nn.Linear(BLOCKS[-1][1], classes)

        def forward(self, x):
            h = nn.op.relu(self.stem(x))
            for block in self.blocks:
                h = block(h)
            pooled = nn.op.sum(h, axis=[2, 3]) * (1.0 / float(h.shape[2] * h.shape[3]))
            return self.classifier(pooled)

    spec = {"forward": {"x": nn.spec.Tensor((1, 3, size, size), "float32")}}
    mod, params = ResNet().export_tvm(spec=spec)
    return mod, random_weights(params, seed)
