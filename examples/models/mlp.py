"""A small MLP written with `tvm.relax.frontend.nn`, random weights from a fixed seed.

    usmp-translate --import-relax examples/models/mlp.py:mlp | usmp-opt --plan-pools

`mlp()` returns `(mod, weights)`: the Relax module (entry `forward`, weights as parameters)
and a dict from weight name to numpy array. `mlp(batch, features, hidden, classes)` scales it.
"""

from __future__ import annotations

import numpy as np


def mlp(batch: int = 4, features: int = 32, hidden: int = 64, classes: int = 10, seed: int = 0):
    from tvm.relax.frontend import nn

    class MLP(nn.Module):
        def __init__(self):
            self.fc1 = nn.Linear(features, hidden)
            self.fc2 = nn.Linear(hidden, hidden)
            self.fc3 = nn.Linear(hidden, classes)

        def forward(self, x):
            h = nn.op.relu(self.fc1(x))
            h = nn.op.relu(self.fc2(h))
            return self.fc3(h)

    spec = {"forward": {"x": nn.spec.Tensor((batch, features), "float32")}}
    mod, params = MLP().export_tvm(spec=spec)
    rng = np.random.default_rng(seed)
    weights = {}
    for name, param in params:
        shape = tuple(int(d) for d in param.shape)
        scale = 1.0 / np.sqrt(shape[-1]) if len(shape) > 1 else 0.1
        weights[name] = (rng.standard_normal(shape) * scale).astype(param.dtype)
    return mod, weights
