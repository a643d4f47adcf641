"""Models that `usmp-translate --import-relax` must refuse with one diagnostic each
(tests/filecheck/translate/import-relax-errors.test)."""

import numpy as np
from tvm.relax.frontend import nn


class Sorter(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return nn.op.sort(self.fc(x))


def _export(spec_shape, dtype="float32"):
    mod, params = Sorter().export_tvm({"forward": {"x": nn.spec.Tensor(spec_shape, "float32")}})
    return mod, {name: np.zeros([int(d) for d in p.shape], dtype) for name, p in params}


def dynamic_batch():
    return _export(("n", 8))


def unsupported_op():
    return _export((2, 8))


def wrong_weight_dtype():
    return _export((2, 8), "float64")


def raises():
    raise RuntimeError("the model's weights are not downloaded")


def not_a_pair():
    return Sorter()
