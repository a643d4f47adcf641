// 1000 nested regions: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
builtin.module {
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
