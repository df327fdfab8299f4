#!/usr/bin/env python3
"""Writes numpy_struct_cases.json: kind numpy cases of the structural
functions (concatenate, stack, take, compress, sort, argsort, flip, tile,
repeat, matmul, transpose, reshape) over edge values (NaN, infinities,
zeros of both signs, ties, float16), zero-size dims, rank 0, and the
errors NumPy raises, computed with NumPy.

    /usr/bin/python3 gen_numpy_struct_cases.py > numpy_struct_cases.json

NumPy 2 is the reference, but Debian's NumPy here is 1.24. For these
functions on arrays the results are NumPy 2's: promotion of array operands
did not change (NEP 50 is about Python scalars), and sorts are asked for
stably (kind="stable" here, written as NumPy 2's stable=True). matmul
cases hold no NaN (see the issue 11 report: linalg gives 0 for 0 * NaN).
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
ALL = list(NAMES)
rng = np.random.default_rng(20261122)


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
    a = np.asarray(a)
    return {"name": name, "shape": list(a.shape), "dtype": NAMES[a.dtype.type],
            "values": [enc(v) for v in a.ravel().tolist()]}


def data(dt, shape, special=True):
    """Small values with ties; floats get NaN, infinities and -0.0."""
    n = int(np.prod(shape)) if len(shape) else 1
    if dt == np.bool_:
        v = rng.integers(0, 2, n).astype(bool)
    elif np.issubdtype(dt, np.integer):
        lo = 0 if np.issubdtype(dt, np.unsignedinteger) else -4
        v = rng.integers(lo, 5, n).astype(dt)
    else:
        v = (rng.integers(-16, 17, n) / 8.0).astype(dt)
        if special and n >= 4:
            pool = [np.nan, np.inf, -np.inf, -0.0, 0.0]
            for i in rng.choice(n, size=min(n // 3, 4), replace=False):
                v[i] = pool[rng.integers(0, len(pool))]
    return v.reshape(shape)


cases = []
counts = {}


def add(op, inputs, args, f):
    n = counts.get(op, 0)
    counts[op] = n + 1
    try:
        r = np.asarray(f())
        exp = {"shape": list(r.shape), "dtype": NAMES[r.dtype.type], "values": [enc(v) for v in r.ravel().tolist()]}
    except (ValueError, IndexError, TypeError, np.AxisError) as e:
        exp = {"error": True, "reason": type(e).__name__ + ": " + str(e)[:80]}
    c = {"id": "stride0/npstruct/%s/%03d" % (op, n), "source": "numpy %s (Debian, computed)" % np.__version__,
         "source_test": "gen_numpy_struct_cases.py", "kind": "numpy", "op": op,
         "inputs": [arr(k, a) for k, a in zip(["x", "y", "z", "w"], inputs)], "args": args, "expected": exp,
         "derived": True, "derived_note": "expected values computed by NumPy 1.24 (array operands: as NumPy 2)"}
    if op in ("concatenate", "stack"):
        c["inputs"] = [arr("a%d" % i, a) for i, a in enumerate(inputs)]
    cases.append(c)


# sort, argsort: every dtype, NaN/inf/-0 and ties, axes, None, empty, rank 0
for op in ["sort", "argsort"]:
    f = getattr(np, op)
    for dt in ALL:
        for shape, axis in [((9,), 0), ((3, 5), -1), ((3, 5), 0), ((2, 3, 4), 1), ((2, 3), None), ((0, 3), 1), ((4, 0), 0), ((), None)]:
            x = data(dt, shape)
            add(op, [x], {"axis": axis, "stable": True}, lambda x=x, axis=axis: f(x, axis=axis, kind="stable"))
    x = data(np.float32, (2, 3))
    add(op, [x], {"axis": 2, "stable": True}, lambda x=x: f(x, axis=2, kind="stable"))
    x = np.array(1.5, dtype=np.float64)
    add(op, [x], {"axis": -1, "stable": True}, lambda x=x: f(x, axis=-1, kind="stable"))

# concatenate, stack: promotion over dtype pairs, axes, empty pieces, errors
pairs = [(np.bool_, np.int8), (np.int8, np.uint8), (np.uint16, np.int32), (np.int16, np.float16),
         (np.uint64, np.int64), (np.float16, np.float32), (np.int32, np.float32), (np.uint8, np.bool_),
         (np.float64, np.float64), (np.uint32, np.int16)]
for a, b in pairs:
    xa, xb = data(a, (2, 3)), data(b, (2, 2))
    add("concatenate", [xa, xb], {"axis": 1}, lambda xa=xa, xb=xb: np.concatenate([xa, xb], axis=1))
    xc = data(b, (1, 3))
    add("concatenate", [xa, xc, xa], {"axis": -2}, lambda xa=xa, xc=xc: np.concatenate([xa, xc, xa], axis=-2))
    add("concatenate", [xa, xb], {"axis": None}, lambda xa=xa, xb=xb: np.concatenate([xa, xb], axis=None))
    ya, yb = data(a, (2, 3)), data(b, (2, 3))
    for axis in [0, 1, 2, -1, -3]:
        add("stack", [ya, yb], {"axis": axis}, lambda ya=ya, yb=yb, axis=axis: np.stack([ya, yb], axis=axis))
e = data(np.float32, (0, 3))
x = data(np.float32, (2, 3))
add("concatenate", [e, x, e], {"axis": 0}, lambda: np.concatenate([e, x, e], axis=0))
add("concatenate", [x, data(np.float32, (2, 0))], {"axis": 1}, lambda: np.concatenate([x, np.zeros((2, 0), np.float32)], axis=1))
add("concatenate", [x, data(np.float32, (3, 2))], {"axis": 0}, lambda: np.concatenate([x, np.zeros((3, 2), np.float32)], axis=0))
add("concatenate", [x, data(np.float32, (3,))], {"axis": 0}, lambda: np.concatenate([x, np.zeros((3,), np.float32)], axis=0))
add("concatenate", [x, x], {"axis": 2}, lambda: np.concatenate([x, x], axis=2))
s0 = np.array(2, dtype=np.int32)
add("concatenate", [s0, s0], {"axis": 0}, lambda: np.concatenate([s0, s0], axis=0))
add("stack", [s0, s0, s0], {"axis": 0}, lambda: np.stack([s0, s0, s0], axis=0))
add("stack", [x, data(np.float32, (3, 2))], {"axis": 0}, lambda: np.stack([x, np.zeros((3, 2), np.float32)], axis=0))
add("stack", [x, x], {"axis": 3}, lambda: np.stack([x, x], axis=3))
add("stack", [e, e], {"axis": 1}, lambda: np.stack([e, e], axis=1))

# take: negative and 2-D indices, axis None, every index dtype, errors
for dt in ALL:
    x = data(dt, (3, 4))
    for idx, axis in [(np.array([0, -1, 2, 2]), 1), (np.array([[2, 0], [-3, 1]]), 0), (np.array([11, -12, 5]), None),
                      (np.array([], dtype=np.int64), 1), (np.array([3]), 0), (np.array([-5]), 1)]:
        add("take", [x, idx], {"axis": axis}, lambda x=x, idx=idx, axis=axis: np.take(x, idx, axis=axis))
for idt in [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.uint64]:
    x = data(np.float64, (5,))
    idx = np.array([4, 0, 1], dtype=idt)
    add("take", [x, idx], {"axis": 0}, lambda x=x, idx=idx: np.take(x, idx, axis=0))
x = data(np.int16, (2, 3))
add("take", [x, np.array([0, 1])], {"axis": 2}, lambda: np.take(x, np.array([0, 1]), axis=2))
add("take", [x, np.array([0.0, 1.0])], {"axis": 0}, lambda: np.take(x, np.array([0.0, 1.0]), axis=0))
add("take", [data(np.int16, (0, 3)), np.array([0])], {"axis": 0}, lambda: np.take(np.zeros((0, 3), np.int16), np.array([0]), axis=0))

# compress: bool and int conditions, shorter and longer, axis None, errors
m = data(np.int32, (3, 4))
for cond, axis in [([False, True, True], 0), ([True, False], 0), ([True, False, True, True], 1), ([0, 2, 0, 1], 1),
                   ([True, False, True, False, False, False], None), ([False, False, False, False, False], 1),
                   ([True, True, True, True, True], 1), ([True, False], 2), ([], 0)]:
    c = np.array(cond, dtype=bool if cond and isinstance(cond[0], bool) else np.int64)
    add("compress", [c, m], {"axis": axis}, lambda c=c, axis=axis: np.compress(c, m, axis=axis))
add("compress", [np.array([[True]]), m], {"axis": 0}, lambda: np.compress(np.array([[True]]), m, axis=0))

# flip: axes, tuples, None, rank 0, errors
for dt in [np.float16, np.int64, np.bool_, np.uint8]:
    x = data(dt, (2, 3, 4))
    for axis in [0, 1, -1, [0, 2], [], None, [2, 1, 0]]:
        add("flip", [x], {"axis": axis}, lambda x=x, axis=axis: np.flip(x, axis=None if axis is None else tuple(axis) if isinstance(axis, list) else axis))
x = data(np.float32, (2, 3))
add("flip", [x], {"axis": 2}, lambda: np.flip(x, axis=2))
add("flip", [x], {"axis": [0, 0]}, lambda: np.flip(x, axis=(0, 0)))
add("flip", [np.array(3.5)], {"axis": None}, lambda: np.flip(np.array(3.5)))

# tile and repeat
for dt in [np.int32, np.float16, np.bool_]:
    for shape in [(), (3,), (2, 1), (2, 3), (0, 2)]:
        x = data(dt, shape)
        for reps in [2, [2, 1], [1, 3], [2, 1, 2], [0], [3, 0]]:
            add("tile", [x], {"reps": reps}, lambda x=x, reps=reps: np.tile(x, reps))
        for repeats, axis in [(2, None), (3, 0), (0, -1), (1, 0), ([1, 0, 2], 0), ([2], 0)]:
            add("repeat", [x], {"repeats": repeats, "axis": axis}, lambda x=x, repeats=repeats, axis=axis: np.repeat(x, repeats, axis=axis))
x = data(np.int32, (2, 3))
add("tile", [x], {"reps": [-1, 2]}, lambda: np.tile(x, (-1, 2)))
add("repeat", [x], {"repeats": -1, "axis": 0}, lambda: np.repeat(x, -1, axis=0))
add("repeat", [x], {"repeats": [1, 2, 3], "axis": 0}, lambda: np.repeat(x, [1, 2, 3], axis=0))
add("repeat", [x], {"repeats": [1, 0, 2, 1, 1, 3], "axis": None}, lambda: np.repeat(x, [1, 0, 2, 1, 1, 3], axis=None))
add("repeat", [x], {"repeats": 2, "axis": 2}, lambda: np.repeat(x, 2, axis=2))

# matmul: 1-D promotion, batch broadcasting, dtype mixes, errors (no NaN)
for a, b in [(np.float64, np.float64), (np.float32, np.float32), (np.int16, np.float16), (np.int8, np.uint8),
             (np.bool_, np.bool_), (np.int64, np.int32), (np.float16, np.float16), (np.uint16, np.float32)]:
    for sa, sb in [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((2, 1, 2, 3), (4, 3, 2)),
                   ((0, 3), (3, 2)), ((2, 0), (0, 3)), ((1, 2, 3), (2, 3, 1))]:
        xa, xb = data(a, sa, special=False), data(b, sb, special=False)
        add("matmul", [xa, xb], None, lambda xa=xa, xb=xb: np.matmul(xa, xb))
for sa, sb in [((2, 3), (2, 3)), ((3,), (4,)), ((2, 2, 3), (3, 3, 1)), ((), (3,))]:
    xa, xb = data(np.float64, sa, special=False), data(np.float64, sb, special=False)
    add("matmul", [xa, xb], None, lambda xa=xa, xb=xb: np.matmul(xa, xb))

# transpose and reshape
for dt in [np.uint16, np.float32, np.bool_]:
    x = data(dt, (2, 3, 4))
    for axes in [None, [1, 0, 2], [2, 0, 1], [-1, 0, 1], [0, 1, 2]]:
        add("transpose", [x], {"axes": axes}, lambda x=x, axes=axes: np.transpose(x, axes))
    for shape in [[-1], [4, -1], [3, 2, -1], [24], [1, 24, 1], [-1, 1], [6, 4], [5, -1], [-1, -1], [2, 3, 5]]:
        add("reshape", [x], {"shape": shape}, lambda x=x, shape=shape: np.reshape(x, shape))
x = data(np.int8, (2, 3))
add("transpose", [x], {"axes": [0, 0]}, lambda: np.transpose(x, [0, 0]))
add("transpose", [x], {"axes": [0]}, lambda: np.transpose(x, [0]))
add("transpose", [np.array(7, np.int8)], {"axes": None}, lambda: np.transpose(np.array(7, np.int8)))
e = np.zeros((0, 3), np.int8)
add("reshape", [e], {"shape": [3, 0]}, lambda: np.reshape(e, [3, 0]))
add("reshape", [e], {"shape": [-1, 0]}, lambda: np.reshape(e, [-1, 0]))
add("reshape", [np.array([5], np.int8)], {"shape": []}, lambda: np.reshape(np.array([5], np.int8), []))

json.dump({"schema": "conformance-case-file/1",
           "description": "kind numpy: the structural functions of issue 11 over edge values, zero-size dims, "
                          "rank 0 and errors, computed by NumPy (gen_numpy_struct_cases.py)",
           "cases": cases}, sys.stdout, indent=None)
print()
