"""`short_names`: the names a C identifier, a report row or a chart label is made of, at
most 63 characters, readable, distinct and the same from run to run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from usmp_dialect.reports.names import short_names

KWS = [
    "functional_1_activation_7_Relu_functional_1_batch_normalization_7_FusedBatchNormV3_"
    f"functional_1_depthwise_conv2d_{i}_depthwise_functional_1_depthwise_conv2d_{i}_BiasAdd"
    for i in range(4)
]


def test_a_tflite_name_keeps_its_distinct_words_and_a_hash() -> None:
    short = short_names([*KWS, "input_1", "Identity"], 40)
    assert short["input_1"] == "input_1" and short["Identity"] == "Identity"
    for name in KWS:
        assert len(short[name]) <= 40
        assert short[name].startswith("activation_7_Relu_batch_normaliz")
    assert len(set(short.values())) == 6
    assert short == short_names([*KWS, "input_1", "Identity"], 40)


def test_what_is_left_starts_as_an_identifier() -> None:
    names = [f"m_conv_1{i}_" + "x" * 70 + "_m_conv_y" for i in range(3)]
    assert all(s.startswith("conv_1") for s in short_names(names, 30).values())


@given(
    st.lists(st.text("abAB_1", min_size=1, max_size=120), unique=True, max_size=30),
    st.integers(16, 63),
)
def test_short_names_are_short_distinct_and_deterministic(names: list[str], limit: int) -> None:
    """Distinct also upper-cased (C macros are): a name within the limit stays as it is
    unless one before it differs from it only in case."""
    short = short_names(names, limit, fold_case=True)
    assert all(len(s) <= limit for s in short.values())
    assert len({s.upper() for s in short.values()}) == len(names)
    for i, name in enumerate(names):
        earlier = {n.upper() for n in names[:i] if len(n) <= limit}
        if len(name) <= limit and name.upper() not in earlier:
            assert short[name] == name
    assert short == short_names(names, limit, fold_case=True)


def test_names_differing_only_in_case_fold_apart() -> None:
    short = short_names(["a", "A", "input", "INPUT"], 16, fold_case=True)
    assert short["a"] == "a" and short["input"] == "input"
    assert len({s.upper() for s in short.values()}) == 4
    assert short_names(["a", "A"], 16) == {"a": "a", "A": "A"}


def test_the_report_and_page_show_short_names_and_keep_the_full_ones(tmp_path: Path) -> None:
    """A CSV instance with TFLite-like ids: the text report's rows and the page's labels at
    most 63 characters, the JSON report holding the full name and the label."""
    rows = [f"{name},{i},{i + 2},{64 * (i + 1)}" for i, name in enumerate(KWS)]
    (tmp_path / "kws.csv").write_text("id,lower,upper,size\n" + "\n".join(rows) + "\n")
    tools = Path(sys.executable).parent
    imported = subprocess.run(
        [tools / "usmp-translate", "--import-csv", tmp_path / "kws.csv"],
        capture_output=True,
        check=True,
    ).stdout

    def shown(target: str) -> str:
        return subprocess.run(
            [tools / "usmp-opt", "--plan-pools", "-t", target],
            input=imported,
            capture_output=True,
            check=True,
        ).stdout.decode()

    text = shown("usmp-report")
    assert all(len(line) < 120 for line in text.splitlines())
    report = json.loads(shown("usmp-report{format=json}"))
    labels = {b["name"]: b["label"] for b in report["buffers"]}
    assert labels == short_names(KWS)
    assert all(label in text for label in labels.values())
    page = shown("usmp-html")
    assert all(
        # The label may wrap after its underscores (`<wbr>`), but is shown whole.
        f"{label.replace('_', '_<wbr>')}</td>" in page and f"title='{name}'" in page
        for name, label in labels.items()
    )
