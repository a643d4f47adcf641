"""Models that `usmp-translate --import-relax` must refuse with one diagnostic each
(tests/filecheck/translate/import-relax-errors.test)."""

import numpy as np
from tvm.relax.frontend import nn
from tvm.script import ir as I
from tvm.script import relax as R


class Linear(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return nn.op.relu(self.fc(x))


def _export(spec_shape, dtype="float32"):
    mod, params = Linear().export_tvm({"forward": {"x": nn.spec.Tensor(spec_shape, "float32")}})
    return mod, {name: np.zeros([int(d) for d in p.shape], dtype) for name, p in params}


# A model in TVMScript, calling an external packed function no TIR operator computes.
@I.ir_module
class External:
    @R.function
    def forward(x: R.Tensor((2, 8), "float32")) -> R.Tensor((2, 8), "float32"):
        with R.dataflow():
            y = R.call_dps_packed("my_kernel", (x,), R.Tensor((2, 8), "float32"))
            R.output(y)
        return y


def dynamic_batch():
    return _export(("n", 8))


def unsupported_op():
    return External, {}


def wrong_weight_dtype():
    return _export((2, 8), "float64")


def raises():
    raise RuntimeError("the model's weights are not downloaded")


def not_a_pair():
    return Linear()


def weights_as_lists():
    mod, weights = _export((2, 8))
    return mod, {name: w.tolist() for name, w in weights.items()}
