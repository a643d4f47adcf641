"""A small U-Net in `tvm.relax.frontend.nn`, weights from a seed: skip connections of
three sizes, each live from the encoder level that makes it to the decoder level that
concatenates it, while tensors of other sizes come and go.

    usmp-translate --import-relax examples/models/unet.py:unet | usmp-opt --plan-pools

Encoder: a 3x3 conv and ReLU at each of `levels` resolutions, halved by a stride-2 conv
between them; decoder: nearest upsampling, concat with the encoder's tensor of that size,
3x3 conv and ReLU; a 1x1 conv head.
"""

from __future__ import annotations

from usmp_dialect.tvm.relax.to_tir import random_weights


def unet(size: int = 16, channels: int = 4, levels: int = 4, seed: int = 0):
    from tvm.relax.frontend import nn

    widths = [channels * 2**i for i in range(levels)]

    class UNet(nn.Module):
        def __init__(self):
            self.encode = nn.ModuleList(
                [nn.Conv2D(3 if i == 0 else w, w, 3, padding=1) for i, w in enumerate(widths)]
            )
            self.down = nn.ModuleList(
                [
                    nn.Conv2D(w, widths[i + 1], 3, stride=2, padding=1)
                    for i, w in enumerate(widths[:-1])
                ]
            )
            self.decode = nn.ModuleList(
                [nn.Conv2D(widths[i + 1] + w, w, 3, padding=1) for i, w in enumerate(widths[:-1])]
            )
            self.head = nn.Conv2D(widths[0], 2, 1)

        def forward(self, x):
            skips = []
            for i, conv in enumerate(self.encode):
                x = nn.op.relu(conv(x))
                if i < len(self.down):
                    skips.append(x)
                    x = self.down[i](x)
            for i in reversed(range(len(skips))):
                x = nn.op.interpolate(x, scale_factor=2, mode="nearest")
                x = nn.op.relu(self.decode[i](nn.op.concat([x, skips[i]], dim=1)))
            return self.head(x)

    spec = {"forward": {"x": nn.spec.Tensor((1, 3, size, size), "float32")}}
    mod, params = UNet().export_tvm(spec=spec)
    return mod, random_weights(params, seed)
