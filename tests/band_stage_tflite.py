"""A MobileNet's first stage as a small int8 `.tflite` (person_detect's, on a 32x32
image), the chain `tir-band-stages` runs band by band:

    input int8[1,32,32,1] -> CONV_2D 3x3/2 SAME 8, RELU6 -> DEPTHWISE_CONV_2D 3x3 SAME,
      RELU6 -> CONV_2D 1x1 16, RELU6 -> DEPTHWISE_CONV_2D 3x3/2 SAME, RELU6
      -> output int8[1,8,8,16]

(On a 24x24 image, banding the last two operators alone needs as few bytes as the four:
the pass then bands the two.)

Per-channel int8 weights, zero points and scales as TFLite's converter writes them.
"""

from __future__ import annotations

import numpy as np
from int8_tflite import _quantized, _table, _Writer
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.Padding import Padding
from tflite.TensorType import TensorType

SIDE = 32


MOBILENET = [  # kind, weight shape, stride, output channels
    ("conv", (8, 3, 3, 1), 2, 8),
    ("depthwise", (1, 3, 3, 8), 1, 8),
    ("conv", (16, 1, 1, 8), 1, 16),
    ("depthwise", (1, 3, 3, 16), 2, 16),
]
WIDER = [  # a 3x3 convolution and depth multipliers 2 and 4 on rolling buffers
    ("conv", (8, 3, 3, 1), 2, 8),
    ("depthwise", (1, 3, 3, 16), 1, 16),
    ("conv", (8, 3, 3, 16), 1, 8),
    ("depthwise", (1, 3, 3, 32), 2, 32),
]

KEYWORD_SPOTTER = [  # MLPerf Tiny's keyword spotter's shape: every tensor after the first one size
    ("conv", (8, 3, 3, 1), 2, 8),
    ("depthwise", (1, 3, 3, 8), 1, 8),
    ("conv", (8, 1, 1, 8), 1, 8),
    ("depthwise", (1, 3, 3, 8), 1, 8),
    ("conv", (8, 1, 1, 8), 1, 8),
]


def band_stage_tflite(seed: int = 0, layers: list[tuple] | None = None) -> bytes:
    """The stage of `layers` (by default MOBILENET's, the module's docstring)."""
    rng = np.random.default_rng(seed)
    w = _Writer()
    b = w.builder
    int8 = TensorType.INT8
    scale = 6 / 255
    x = w.tensor("input", [1, SIDE, SIDE, 1], int8, [1 / 128], [-1])
    layers = MOBILENET if layers is None else layers
    operators = []
    in_channels = 1
    tensor, side, input_scale = x, SIDE, 1 / 128
    for i, (kind, shape, stride, channels) in enumerate(layers):
        weights = rng.standard_normal(shape) / 2
        axis = 0 if kind == "conv" else 3
        moved = np.moveaxis(weights, axis, 0).reshape(channels, -1)
        scales = np.abs(moved).max(axis=1) / 127
        broadcast = [1, 1, 1, 1]
        broadcast[axis] = channels
        weight = w.tensor(
            f"layer{i}/weights",
            list(shape),
            int8,
            list(scales),
            [0] * channels,
            data=_quantized(weights, scales.reshape(broadcast), np.int8),
            quantized_dimension=axis,
        )
        bias_scales = scales * input_scale
        bias = w.tensor(
            f"layer{i}/bias",
            [channels],
            TensorType.INT32,
            list(bias_scales),
            data=_quantized(rng.standard_normal(channels), bias_scales, np.int32),
        )
        side = -(-side // stride)
        out = w.tensor(f"layer{i}/relu6", [1, side, side, channels], int8, [scale], [-128])
        fields = {"DepthMultiplier": channels // in_channels} if kind == "depthwise" else {}
        options = _table(
            b,
            "Conv2DOptions" if kind == "conv" else "DepthwiseConv2DOptions",
            Padding=Padding.SAME,
            StrideW=stride,
            StrideH=stride,
            DilationWFactor=1,
            DilationHFactor=1,
            FusedActivationFunction=ActivationFunctionType.RELU6,
            **fields,
        )
        options_type = (
            BuiltinOptions.Conv2DOptions
            if kind == "conv"
            else BuiltinOptions.DepthwiseConv2DOptions
        )
        operators.append(
            (0 if kind == "conv" else 1, [tensor, weight, bias], out, options_type, options)
        )
        tensor, input_scale, in_channels = out, scale, channels
    codes = [BuiltinOperator.CONV_2D, BuiltinOperator.DEPTHWISE_CONV_2D]
    return w.model(codes, operators, [x], [tensor], "usmp_dialect band stage")
