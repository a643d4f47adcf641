// Latin-1 text, not UTF-8: one diagnostic, exit status 1 (tests/test_bad_inputs.py).
usmp.pool @café workspace
