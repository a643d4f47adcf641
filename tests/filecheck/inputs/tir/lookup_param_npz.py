"""Writes into directory argv[2] one params file for each mistake --params reports, made
from the good params file argv[1] (examples/tir/lookup_param.npz)."""

import sys
import zipfile
from pathlib import Path

import numpy as np

good = dict(np.load(sys.argv[1]))
w, b = good["w"], good["b"]
out = Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
np.savez(out / "missing.npz", w=w)
np.savez(out / "extra.npz", w=w, b=b, scale=b)
np.savez(out / "shape.npz", w=w[:2], b=b)
np.savez(out / "complex.npz", w=w.astype("complex64"), b=b)
np.savez(out / "object.npz", w=np.array([None], dtype=object), b=b)
np.save(out / "single.npy", w)
(out / "text.npz").write_text("w = 1\n")
with zipfile.ZipFile(out / "member.npz", "w") as archive:
    archive.writestr("w", "not an array")
