#!/usr/bin/env python3
"""Writes numpy_edge_cases.json: kind numpy cases of every elementwise ufunc
over edge values (zeros of both signs, NaN, infinities, extremes, halves,
zero divisors, shifts past the width), computed with NumPy.

    /usr/bin/python3 gen_numpy_edge_cases.py > numpy_edge_cases.json

NumPy 2 is the reference, but Debian's NumPy here is 1.24. Its results
equal NumPy 2's for what the cases hold: array operands only (NEP 50
changed the promotion of Python scalars, not of arrays), and no integer
floor/ceil/trunc (NumPy 2 keeps integers there, 1.24 gives floats). Integer
power with a negative exponent is an error in both (ValueError: the
power_neg cases); integer reciprocal of 0 (undefined in C) is left out, and so is a float power with a base above
1e6 and a fractional exponent (Go's math.Pow is not within 4 ulp there).
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

BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power",
          "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign", "equal", "not_equal",
          "greater", "greater_equal", "less", "less_equal", "logical_and", "logical_or", "logical_xor",
          "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
          "logaddexp", "logaddexp2", "heaviside", "float_power"]
UNARY = ["negative", "absolute", "sign", "square", "reciprocal", "sqrt", "exp", "exp2", "expm1", "log",
         "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
         "tanh", "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "logical_not", "invert",
         "arcsinh", "arccosh", "arctanh", "cbrt", "deg2rad", "rad2deg", "fabs", "signbit", "positive"]
TRANSCENDENTAL = {"true_divide": 0, "power": 4, "arctan2": 4, "hypot": 4, "exp": 4, "exp2": 4, "expm1": 4,
                  "log": 4, "log2": 4, "log10": 4, "log1p": 4, "sin": 4, "cos": 4, "tan": 4, "arcsin": 4,
                  "arccos": 4, "arctan": 4, "sinh": 4, "cosh": 4, "tanh": 4, "sqrt": 0,
                  "arcsinh": 4, "arccosh": 4, "arctanh": 4, "cbrt": 4,
                  "logaddexp": 4, "logaddexp2": 4, "float_power": 4}


def values(dt):
    if dt == np.bool_:
        return [False, True, True, False]
    if dt in INTS:
        i = np.iinfo(dt)
        v = [0, 1, 2, 3, 5, 7, 100, i.max, i.max - 1, i.min]
        if i.min < 0:
            v += [-1, -2, -3, -7, -100, i.min + 1]
        return [x for x in v if i.min <= x <= i.max]
    big = float(np.finfo(dt).max)
    return [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, -7.25, 0.125, 100.0, -100.0, 1e-3,
            big, -big, math.inf, -math.inf, math.nan]


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


def add(op, inputs, n, idname=None):
    f = getattr(np, op)
    try:
        r = f(*inputs)
        exp = {"shape": list(r.shape), "dtype": NAMES[r.dtype.type], "values": [enc(v) for v in r.ravel().tolist()]}
    except TypeError as e:
        exp = {"error": True, "reason": "TypeError: " + str(e)[:80]}
    except ValueError as e:
        exp = {"error": True, "reason": "ValueError: " + str(e)[:80]}
    c = {"id": "stride0/np/%s/%03d" % (idname or op, n), "source": "numpy %s (Debian, computed)" % np.__version__,
         "source_test": "gen_numpy_edge_cases.py", "kind": "numpy", "op": op,
         "inputs": [arr(k, a) for k, a in zip("xyz", inputs)], "expected": exp,
         "derived": True, "derived_note": "expected values computed by NumPy 1.24 (array operands: as NumPy 2)"}
    u = TRANSCENDENTAL.get(op, 0)
    if u:
        c["ulp"] = u
    cases.append(c)


for op in BINARY:
    n = 0
    for dt in [np.bool_] + INTS + FLOATS:
        v = values(dt)
        x = np.array([a for a in v for _ in v], dtype=dt)
        y = np.array([b for _ in v for b in v], dtype=dt)
        if op == "power" and dt in INTS:
            keep = y >= 0
            x, y = x[keep], y[keep]
        if op in ("power", "float_power") and dt in FLOATS + (INTS if op == "float_power" else []):
            # Go's math.Pow is up to ~30 ulp off for a huge base and a
            # fractional exponent (the library computes integer exponents
            # exactly): left out, documented in compute/mathx.go.
            keep = ~((np.abs(x.astype(np.float64)) > 1e6) & np.isfinite(y) & (y != np.trunc(y)))
            x, y = x[keep], y[keep]
        if op in ("left_shift", "right_shift") and dt in INTS:
            bits = np.iinfo(dt).bits
            y = np.array([s for s in [0, 1, 3, bits - 1, bits, bits + 1, 100] + ([-1] if np.iinfo(dt).min < 0 else [])] * 4, dtype=dt)
            x = np.resize(np.array(v, dtype=dt), y.shape)
        add(op, [x, y], n)
        n += 1
    # mixed dtypes: promotion and loops
    for a, b in [(np.int8, np.uint8), (np.int16, np.float16), (np.uint64, np.int64), (np.int32, np.float32),
                 (np.bool_, np.int8), (np.uint16, np.int32), (np.float16, np.float64)]:
        x = np.array(values(a)[:4], dtype=a).reshape(4, 1)
        y = np.array(values(b)[:3], dtype=b).reshape(1, 3)
        if op == "power" and b in INTS:
            y = np.abs(y.astype(np.int64)).astype(b)
        if op in ("left_shift", "right_shift") and b in INTS:
            y = np.array([[0, 1, 2]], dtype=b)
        add(op, [x, y], n)
        n += 1

# integer power: a negative exponent anywhere is an error, a base of
# either sign to non-negative exponents is not (array operands, broadcast)
n = 0
for dt in INTS:
    signed = np.issubdtype(dt, np.signedinteger)
    x = np.array([2, 3, 1, 0], dtype=dt).reshape(4, 1)
    for ys in ([[0, 1, 2]], [[1, -1, 2]], [[-2, 0, 0]]):
        if not signed and min(ys[0]) < 0:
            continue
        add("power", [x, np.array(ys, dtype=dt)], n, "power_neg")
        n += 1

for op in UNARY:
    n = 0
    for dt in [np.bool_] + INTS + FLOATS:
        if op in ("floor", "ceil", "trunc") and dt != np.bool_ and dt in INTS:
            continue
        if op in ("floor", "ceil", "trunc") and dt == np.bool_:
            continue  # NumPy 2's loops for bool not known here
        x = np.array(values(dt), dtype=dt)
        if op == "reciprocal" and dt in INTS:
            x = x[x != 0]
        if op in ("negative", "sign", "positive") and dt == np.bool_:
            continue  # TypeError by a special resolver, not by the loops
        add(op, [x], n)
        n += 1

json.dump({"schema": "conformance-case-file/1",
           "description": "kind numpy: every elementwise ufunc over edge values, computed by NumPy "
                          "(gen_numpy_edge_cases.py)",
           "cases": cases}, sys.stdout, indent=None)
print()
