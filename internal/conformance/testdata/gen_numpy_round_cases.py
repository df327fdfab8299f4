#!/usr/bin/env python3
"""Writes numpy_round_cases.json: kind numpy cases of numpy.round over edge
values of every dtype and decimals from -3 to 5, computed with NumPy.

    /usr/bin/python3 gen_numpy_round_cases.py > numpy_round_cases.json

NumPy 2 is the reference, Debian's NumPy here is 1.24; numpy.round
(PyArray_Round) is the same C code in both: integers are returned as they
are for decimals >= 0 and rounded through float64 for a negative decimals;
bool is not an integer there, so decimals 0 is rint's float16 result and any
other decimals a TypeError (multiply or true_divide cannot cast its float64
result back to bool); floats compute rint(x * 10**d) / 10**d in their own
dtype. Left out where the two versions or C leave it open: integers whose
rounded value does not fit their dtype (the float64 result is cast back,
undefined in C), and float16 with decimals above 3 (10**4 and up are beyond
NEP 50's float16 for the weak 10**d in NumPy 2, not in 1.24).
"""
import json
import math
import sys
import warnings

import numpy as np

warnings.simplefilter("ignore")

NAMES = {np.bool_: "boolean", np.int8: "i8", np.int16: "i16", np.int32: "i32", np.int64: "i64",
         np.uint8: "u8", np.uint16: "u16", np.uint32: "u32", np.uint64: "u64",
         np.float16: "f16", np.float32: "f32", np.float64: "f64"}
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]


def values(dt):
    if dt == np.bool_:
        return [False, True, True, False]
    if dt in INTS:
        i = np.iinfo(dt)
        v = [0, 1, 4, 5, 6, 15, 25, 35, 45, 50, 149, 150, 250, 1234, 99999, i.max, i.max - 1, i.max // 2]
        if i.min < 0:
            v += [-1, -5, -15, -25, -150, -250, -1234, i.min, i.min + 1, i.min // 2]
        return [x for x in v if i.min <= x <= i.max]
    big = float(np.finfo(dt).max)
    return [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.125, 0.375, -0.375, 1.005, 2.675, 0.045, 15.0, 25.0,
            -35.0, 149.9, 1234.5678, -1234.5678, 65504.0, 1e-3, 1e-8, big, -big, math.inf, -math.inf, math.nan]


def enc(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    return int(v)


def arr(name, a):
    return {"name": name, "shape": list(a.shape), "dtype": NAMES[a.dtype.type], "values": [enc(v) for v in a.ravel().tolist()]}


cases = []
for dt in [np.bool_] + INTS + FLOATS:
    for d in range(-3, 6):
        if dt == np.float16 and d > 3:
            continue
        v = values(dt)
        if dt in INTS and d < 0:
            # keep the values whose float64 rounding fits the dtype
            i = np.iinfo(dt)
            f = 10.0 ** (-d)
            v = [x for x in v if i.min <= np.rint(np.float64(x) / f) * f <= i.max and
                 np.rint(np.float64(x) / f) * f < 2.0 ** (64 if i.min == 0 else 63)]
        x = np.array(v, dtype=dt)
        try:
            r = np.round(x, d)
            exp = {"shape": list(r.shape), "dtype": NAMES[r.dtype.type], "values": [enc(e) for e in r.ravel().tolist()]}
        except TypeError as e:
            exp = {"error": True, "reason": "TypeError: " + str(e)[:80]}
        cases.append({"id": "stride0/np/round/%s/%+d" % (NAMES[dt], d), "source": "numpy %s (Debian, computed)" % np.__version__,
                      "source_test": "gen_numpy_round_cases.py", "kind": "numpy", "op": "round",
                      "inputs": [arr("x", x)], "args": {"decimals": d}, "expected": exp,
                      "derived": True, "derived_note": "expected values computed by NumPy 1.24 (numpy.round is the same C code in NumPy 2)"})

json.dump({"schema": "conformance-case-file/1",
           "description": "kind numpy: numpy.round over edge values of every dtype, decimals -3 to 5, computed by NumPy "
                          "(gen_numpy_round_cases.py)",
           "cases": cases}, sys.stdout, indent=None)
print()
