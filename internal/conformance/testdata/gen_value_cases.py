#!/usr/bin/env python3
"""Writes derived_value_cases.json: value cases for every op and every
Broadcast mode of the conformance README, with expected values computed here
from each op's definition (pure Python, no NumPy, nothing from stride0).

    python3 gen_value_cases.py > derived_value_cases.json
    python3 gen_value_cases.py random > derived_random_value_cases.json

Definitions used (those of the sources the README names):
  * Broadcast: output[C] = data[p(C)], where data axis i lies along output
    axis m[i] (numpy/bidirectional/pdpd: right-aligned or from the start
    axis; explicit: axes_mapping; nGraph v0: the axes not in
    broadcast_axes) and a data dim of 1 reads index 0.
  * Element-wise numpy: every operand right-aligned, padded with 1s, dims of 1
    stretched. pdpd: B (trailing 1s dropped, start axis resolved with its
    untrimmed rank) laid onto A. none: equal shapes. ONNX unidirectional: B
    onto A.
  * Integers wrap around (two's complement). OpenVINO Divide floors
    (pythondivision) and throws on an integer 0 divisor; ONNX Div truncates.
    OpenVINO Mod = truncated remainder (sign of the dividend), FloorMod =
    floored (sign of the divisor); ONNX Mod: fmod=0 floored, fmod=1 C fmod.
  * float16/float32 results: the exact result rounded to the type (inputs
    are chosen so that every float result below is exact in float16).
"""
import json
import math
import random
import struct
import sys

SOURCE = "stride0/stride0:internal/conformance/testdata/gen_value_cases.py"
NOTE = ("values computed from the op's definition by gen_value_cases.py "
        "(pure Python, independent of stride0); no upstream test asserts them")

BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "u8": 8, "u16": 16, "u32": 32, "u64": 64}
SIGNED = ["i8", "i16", "i32", "i64"]
UNSIGNED = ["u8", "u16", "u32", "u64"]
FLOATS = ["f16", "f32", "f64"]


def wrap(x, dt):
    b = BITS[dt]
    x &= (1 << b) - 1
    if dt.startswith("i") and x >= 1 << (b - 1):
        x -= 1 << b
    return x


def rnd(x, dt):
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    if dt == "f16":
        return struct.unpack("<e", struct.pack("<e", x))[0]
    if dt == "f32":
        return struct.unpack("<f", struct.pack("<f", x))[0]
    return float(x)


def fix(x, dt):
    """The value x of type dt, as written to the file."""
    if dt == "boolean":
        return bool(x)
    if dt in BITS:
        return wrap(int(x), dt)
    v = rnd(float(x), dt)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def strides(shape):
    st, acc = [], 1
    for d in reversed(shape):
        st.append(acc)
        acc *= d
    return list(reversed(st))


def index(shape, k):
    idx = []
    for d in reversed(shape):
        idx.append(k % d)
        k //= d
    return list(reversed(idx))


def gather(values, shape, out, m):
    """output[C] = values[p(C)], data axis i along output axis m[i]."""
    st = strides(shape)
    res = []
    for k in range(size(out)):
        c = index(out, k)
        off = 0
        for i, d in enumerate(shape):
            if d != 1:
                off += c[m[i]] * st[i]
        res.append(values[off])
    return res


def numpy_shape(*shapes):
    r = max(len(s) for s in shapes)
    out = []
    for i in range(r):
        dims = [s[i - (r - len(s))] for s in shapes if i - (r - len(s)) >= 0]
        big = [d for d in dims if d != 1]
        if any(d != big[0] for d in big):
            raise ValueError("incompatible")
        out.append(big[0] if big else 1)
    return out


def to_shape(values, shape, out):
    """Multidirectional/one-directional numpy broadcast of values to out."""
    off = len(out) - len(shape)
    return gather(values, shape, out, [i + off for i in range(len(shape))])


def pdpd_operand(bshape, ashape, axis):
    if axis == -1:
        axis = len(ashape) - len(bshape)
    t = list(bshape)
    while t and t[-1] == 1:
        t.pop()
    return [1] * axis + t + [1] * (len(ashape) - axis - len(t))


def floordiv(x, y):
    return x // y


def truncdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def truncmod(x, y):
    return x - truncdiv(x, y) * y


def pyfloormod_f(x, y):
    m = math.fmod(x, y)
    if m != 0 and (m < 0) != (y < 0):
        m += y
    return m


def fdiv(x, y):
    if y == 0:
        if x == 0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1, y)
    return x / y


def fpow(x, y):
    """C pow: IEEE results where Python's math.pow raises."""
    try:
        return math.pow(x, y)
    except ValueError:
        if x == 0 and y < 0:
            odd = y == math.floor(y) and int(y) % 2 == 1
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan
    except OverflowError:
        odd = y == math.floor(y) and int(y) % 2 == 1
        return -math.inf if x < 0 and odd else math.inf


def scalar_op(op, x, y, dt, onnx=False, fmod=0, pydiv=True):
    isint = dt in BITS
    if op in ("add",):
        return x + y
    if op in ("subtract", "sub"):
        return x - y
    if op in ("multiply", "mul"):
        return x * y
    if op == "divide" and not onnx:
        if isint:
            return floordiv(x, y) if pydiv else truncdiv(x, y)
        return fdiv(x, y)
    if op in ("div", "divide"):
        return truncdiv(x, y) if isint else fdiv(x, y)
    if op in ("power", "pow"):
        if isint:
            assert y >= 0
            return x ** y
        return fpow(x, y)
    if op == "maximum":
        return max(x, y)
    if op == "minimum":
        return min(x, y)
    if op == "squared_difference":
        return (x - y) * (x - y)
    if op == "floor_mod" or (op == "mod" and onnx and fmod == 0):
        return x % y if isint else pyfloormod_f(x, y)
    if op == "mod":
        return truncmod(x, y) if isint else math.fmod(x, y)
    if op == "equal":
        return x == y
    if op == "not_equal":
        return x != y
    if op == "greater":
        return x > y
    if op == "greater_equal":
        return x >= y
    if op == "less":
        return x < y
    if op == "less_equal":
        return x <= y
    if op in ("logical_and", "and"):
        return bool(x) and bool(y)
    if op in ("logical_or", "or"):
        return bool(x) or bool(y)
    if op in ("logical_xor", "xor"):
        return bool(x) != bool(y)
    if op == "prelu":
        return x if x >= 0 else x * y
    raise KeyError(op)


COMPARE = ["equal", "not_equal", "greater", "greater_equal", "less", "less_equal"]
LOGICAL = ["logical_and", "logical_or", "logical_xor", "and", "or", "xor"]

cases = []


def base(cid, kind, op, test):
    return {"id": "stride0/values/" + cid, "source": SOURCE, "source_test": test,
            "kind": kind, "op": op, "derived": True, "derived_note": NOTE}


def tin(name, shape, dt, values):
    return {"name": name, "shape": shape, "dtype": dt, "values": [fix(v, dt) for v in values]}


def binary(cid, op, a, b, dt, *, rule="numpy", axis=None, dtypes=None, onnx=None, fmod=0,
           pydiv=True, note=None, attrs=None, kind=None, error=None, out_dt=None, in_dts=None):
    """a, b: (shape, values). Computes the expected output in dtype dt."""
    (sa, va), (sb, vb) = a, b
    if kind is None:
        kind = "unidirectional" if op == "prelu" else "elementwise_" + rule
    c = base(cid, kind, op, "definition of %s (%s broadcast)" % (op, rule))
    dta, dtb = (in_dts or (dt, dt))
    c["inputs"] = [tin("A", sa, dta, va), tin("B", sb, dtb, vb)]
    if rule != "numpy" or axis is not None:
        ab = {"type": rule}
        if axis is not None:
            ab["axis"] = axis
        c["auto_broadcast"] = ab
    if dtypes:
        c["dtypes"] = dtypes
    if onnx:
        c["onnx_op_type"], c["onnx_opset"] = onnx, 13
    attributes = dict(attrs or {})
    if onnx and op == "mod":
        attributes["fmod"] = fmod
    if attributes:
        c["attributes"] = attributes
    if note:
        c["note"] = note
    if error:
        c["expected"] = {"error": True, "reason": error}
        cases.append(c)
        return
    if rule == "numpy" and kind != "unidirectional":
        out = numpy_shape(sa, sb)
        xa, xb = to_shape(va, sa, out), to_shape(vb, sb, out)
    elif kind == "unidirectional":
        out = list(sa)
        xa, xb = va, to_shape(vb, sb, out)
    elif rule == "pdpd":
        out = list(sa)
        pb = pdpd_operand(sb, sa, -1 if axis is None else axis)
        xa, xb = va, to_shape(vb, pb, out)
    else:
        assert sa == sb
        out, xa, xb = sa, va, vb
    isbool = op in COMPARE or op in LOGICAL
    odt = out_dt or ("boolean" if isbool else dta)
    cdt = dta if not isbool else dta
    vals = []
    for x, y in zip(xa, xb):
        if cdt in FLOATS and not isbool:
            x, y = float(x), float(y)
        r = scalar_op(op, x, y, cdt, onnx=bool(onnx), fmod=fmod, pydiv=pydiv)
        if odt in FLOATS:
            r = rnd(float(r), odt)
        vals.append(fix(r, odt))
    c["expected"] = {"shape": out, "dtype": odt, "values": vals}
    cases.append(c)


def select(cid, cond, then, els, dt, *, rule="numpy", axis=None, dtypes=None, error=None, cond_dt="boolean", onnx=False):
    c = base(cid, "elementwise_" + rule, "select", "definition of Select-1 (%s broadcast)" % rule)
    if onnx:
        c["onnx_op_type"], c["onnx_opset"] = "Where", 16
    c["inputs"] = [tin("cond", cond[0], cond_dt, cond[1]), tin("then", then[0], dt, then[1]), tin("else", els[0], dt, els[1])]
    if rule != "numpy" or axis is not None:
        ab = {"type": rule}
        if axis is not None:
            ab["axis"] = axis
        c["auto_broadcast"] = ab
    if dtypes:
        c["dtypes"] = dtypes
    if error:
        c["expected"] = {"error": True, "reason": error}
        cases.append(c)
        return
    if rule == "numpy":
        out = numpy_shape(els[0], then[0], cond[0])
        xc, xt, xe = to_shape(cond[1], cond[0], out), to_shape(then[1], then[0], out), to_shape(els[1], els[0], out)
    elif rule == "pdpd":
        out = list(then[0])
        ax = -1 if axis is None else axis
        xt = then[1]
        xe = to_shape(els[1], pdpd_operand(els[0], out, ax), out)
        xc = to_shape(cond[1], pdpd_operand(cond[0], out, ax), out)
    else:
        out, xc, xt, xe = then[0], cond[1], then[1], els[1]
    c["expected"] = {"shape": out, "dtype": dt, "values": [fix(t if q else e, dt) for q, t, e in zip(xc, xt, xe)]}
    cases.append(c)


def bcast(cid, mode, data, target, dt, *, versions=(1, 3), axes=None, axis=None, dtypes=None,
          error=None, target_dt=None, axes_dt=None, kind=None, op="broadcast", note=None, ngraph_axes=None,
          axes_absent=False):
    shape, values = data
    kind = kind or ("broadcast_" + mode)
    c = base(cid, kind, op, "definition of Broadcast (%s)" % mode)
    if kind == "ngraph_axes":
        c["op_versions"] = [0]
        c["broadcast_axes"] = ngraph_axes
    elif kind == "expand":
        c["onnx_op_type"], c["onnx_opset"] = "Expand", 13
    else:
        c["op_versions"] = list(versions)
        c["mode"] = mode
    c["inputs"] = [tin("data", shape, dt, values)]
    if dtypes:
        c["dtypes"] = dtypes
    c["target_shape"] = target
    if target_dt:
        c["target_shape_dtype"] = target_dt
    if axes is not None:
        c["axes_mapping"] = axes
    if axes_dt:
        c["axes_mapping_dtype"] = axes_dt
    if axes_absent:
        c["axes_mapping_absent"] = True
    if axis is not None:
        c["axis"] = axis
    if note:
        c["note"] = note
    if error:
        c["expected"] = {"error": True, "reason": error}
        cases.append(c)
        return
    if mode == "numpy" or (mode == "explicit" and axes is None):
        out = list(target)
        m = [i + len(out) - len(shape) for i in range(len(shape))]
    elif mode == "bidirectional":
        out = numpy_shape(shape, target)
        m = [i + len(out) - len(shape) for i in range(len(shape))]
    elif mode == "explicit":
        out = list(target)
        m = list(axes)
        if shape == [] and axes:
            shape, m = [1], list(axes)
    elif mode == "pdpd":
        start = len(target) - len(shape) if axis in (None, -1) else axis
        out = list(target)
        for i, d in enumerate(shape):
            if out[start + i] == 1:
                out[start + i] = d
        m = [start + i for i in range(len(shape))]
    elif mode == "ngraph":
        out = list(target)
        m = [i for i in range(len(out)) if i not in ngraph_axes]
    c["expected"] = {"shape": out, "dtype": dt, "values": [fix(v, dt) for v in gather(values, shape, out, m)]}
    cases.append(c)


def write(cases, description):
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    sys.stdout.write("{\n")
    sys.stdout.write('  "schema": %s,\n  "description": %s,\n  "cases": [\n' % (
        json.dumps("conformance-case-file/1"), json.dumps(description)))
    sys.stdout.write(",\n".join("    " + json.dumps(c) for c in cases))
    sys.stdout.write("\n  ]\n}\n")


def random_cases(seed, n_elementwise, n_broadcast):
    """Random element-wise and Broadcast cases (fixed seed): shapes of rank
    0 to 4 with size-0 and size-1 dims, every rule, op and element type.
    Values are chosen so that every float result is exact."""
    R = random.Random(seed)
    ops = ["add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "squared_difference",
           "floor_mod", "mod"] + COMPARE + ["logical_and", "logical_or", "logical_xor", "select"]
    dts = SIGNED + UNSIGNED + FLOATS

    def rshape(r):
        return [R.choice([0, 1, 2, 3, 4]) if R.random() < 0.1 else R.choice([1, 2, 3, 4]) for _ in range(r)]

    def ones(s, p=0.4):
        return [d if R.random() >= p else 1 for d in s]

    def vals(dt, n, op, which):
        out = []
        for _ in range(n):
            if dt == "boolean":
                out.append(R.random() < 0.5)
            elif dt in BITS:
                signed = dt[0] == "i"
                if op == "power":
                    v = R.randint(0, 5) if which == 1 else R.randint(-3 if signed else 0, 3)
                elif op in ("divide", "floor_mod", "mod") and which == 1:
                    v = R.choice([1, 2, 3, 5, 7]) * (R.choice([1, -1]) if signed else 1)
                else:
                    v = R.randint(-9 if signed else 0, 9)
                out.append(v)
            elif op == "divide" and which == 1:
                out.append(R.choice([0.5, 1, 2, 4, -0.25, -2]))
            elif op == "power":
                out.append(R.choice([0, 1, 2, 3, -1, 0.5]) if which == 1 else R.choice([0.25, 0.5, 1, 2, 4, 16, -2, -1]))
            elif op in ("floor_mod", "mod") and which == 1:
                out.append(R.choice([0.5, 1.5, 2, -2, 3, -0.75]))
            else:
                out.append(R.choice([-3, -2.5, -1, -0.5, 0, 0.25, 0.5, 1, 1.5, 2, 3.75, 6]))
        return out

    for k in range(n_elementwise):
        op = R.choice(ops)
        dt = "boolean" if op.startswith("logical") else R.choice(dts)
        rule = R.choice(["numpy", "numpy", "none", "pdpd"])
        ra = R.randint(0, 4)
        sa, axis = rshape(ra), None
        if rule == "numpy":
            rb = R.randint(0, 4)
            full = rshape(max(ra, rb))
            sa = ones(full[len(full) - ra:]) if ra else []
            sb = ones(full[len(full) - rb:]) if rb else []
        elif rule == "none":
            sb = list(sa)
        else:
            # B onto A from a start axis; a B dim of 1 may not meet an A dim of 0.
            rb = R.randint(0, ra)
            ax = R.randint(0, ra - rb)
            sb = [d if (R.random() < 0.6 or d == 0) else 1 for d in sa[ax:ax + rb]]
            axis = -1 if ax == ra - rb and R.random() < 0.5 else ax
        cid = "random/%d/%s/%s/%s" % (k, op, dt, rule)
        if op == "select":
            sc = list(sb) if rule == "pdpd" else (ones(sa) if rule == "numpy" else list(sa))
            select(cid, (sc, vals("boolean", size(sc), op, 0)), (sa, vals(dt, size(sa), "add", 0)),
                   (sb, vals(dt, size(sb), "add", 1)), dt, rule=rule, axis=axis)
        else:
            binary(cid, op, (sa, vals(dt, size(sa), op, 0)), (sb, vals(dt, size(sb), op, 1)), dt, rule=rule, axis=axis)

    def data(dt, shape):
        n = size(shape)
        if dt == "boolean":
            return [R.random() < 0.5 for _ in range(n)]
        if dt in FLOATS:
            return [R.choice([-1.5, 0, 0.25, 2, 7]) for _ in range(n)]
        return [R.randint(0, 100) for _ in range(n)]

    for k in range(n_broadcast):
        mode = R.choice(["numpy", "explicit", "pdpd", "bidirectional", "ngraph", "expand"])
        dt = R.choice(dts + ["boolean"])
        tr = R.randint(0, 4)
        target = rshape(tr)
        cid = "random/broadcast/%d/%s/%s" % (k, mode, dt)
        if mode == "numpy":
            d = ones(target[tr - R.randint(0, tr):])
            bcast(cid, "numpy", (d, data(dt, d)), target, dt)
        elif mode == "explicit":
            axes = sorted(R.sample(range(tr), R.randint(0, tr)))
            d = [target[a] if R.random() < 0.7 else 1 for a in axes]
            bcast(cid, "explicit", (d, data(dt, d)), target, dt, axes=axes)
        elif mode == "pdpd":
            if tr == 0:
                continue
            ax = R.randint(0, tr)
            d = ones(target[ax:])
            # a target dim of 1 takes the data dim (README subtlety 5)
            t2 = [1 if i >= ax and d[i - ax] > 1 and R.random() < 0.2 else target[i] for i in range(tr)]
            bcast(cid, "pdpd", (d, data(dt, d)), t2, dt, axis=ax if (R.random() < 0.5 or ax != tr - len(d)) else -1)
        elif mode in ("bidirectional", "expand"):
            r = R.randint(0, 4)
            full = [R.choice([1, 2, 3]) for _ in range(max(r, tr))]
            d = ones(full[len(full) - r:], 0.5) if r else []
            t = ones(full[len(full) - tr:], 0.5) if tr else []
            if mode == "expand":
                bcast(cid, "bidirectional", (d, data(dt, d)), t, dt, kind="expand", op="expand")
            else:
                bcast(cid, "bidirectional", (d, data(dt, d)), t, dt, versions=(3,))
        else:
            keep = sorted(R.sample(range(tr), R.randint(0, tr)))
            axes = [i for i in range(tr) if i not in keep]
            R.shuffle(axes)
            d = [target[i] for i in keep]
            bcast(cid, "ngraph", (d, data(dt, d)), target, dt, kind="ngraph_axes", ngraph_axes=axes)
    for c in cases:
        c["id"] = c["id"].replace("stride0/values/", "stride0/random/")
        c["derived_note"] = NOTE + "; random shapes and values, seed %d" % seed


if len(sys.argv) > 1 and sys.argv[1] == "random":
    random_cases(1, 300, 200)
    write(cases, "Random derived value cases for stride0 (python3 gen_value_cases.py random; fixed seed): "
                 "element-wise ops under every rule and Broadcast in every mode, over shapes of rank 0 to 4 "
                 "and every element type, with values computed from the definitions. derived: true.")
    sys.exit(0)

# ---------------------------------------------------------------- Broadcast
ALL = SIGNED + UNSIGNED + FLOATS
bcast("broadcast/numpy/row", "numpy", ([3], [1, 2, 3]), [2, 3], "f32", dtypes=ALL + ["bf16", "u2"])
bcast("broadcast/numpy/col_4d", "numpy", ([2, 1], [7, 9]), [2, 2, 3], "i32", dtypes=ALL, target_dt="i64")
bcast("broadcast/numpy/scalar", "numpy", ([], [5]), [2, 2], "i64", target_dt="u8")
bcast("broadcast/numpy/bool", "numpy", ([1, 2], [True, False]), [3, 2], "boolean", target_dt="i32")
bcast("broadcast/numpy/zero_size", "numpy", ([1], [4]), [2, 0], "f64", note="a zero-size target dim")
bcast("broadcast/numpy/same", "numpy", ([2, 2], [1.5, -2.5, 0.25, 8]), [2, 2], "f16", dtypes=FLOATS)
bcast("broadcast/numpy/err_dim", "numpy", ([3], [1, 2, 3]), [2, 4], "f32",
      error="data dim 3 is neither 1 nor the target dim 4")
bcast("broadcast/numpy/err_rank", "numpy", ([2, 3], [1, 2, 3, 4, 5, 6]), [3], "i32",
      error="target_shape has smaller rank")
bcast("broadcast/numpy/err_target_type", "numpy", ([1], [1]), [2], "i32", target_dt="boolean",
      error="target_shape must be integral")
bcast("broadcast/explicit/basic", "explicit", ([3], [1, 2, 3]), [2, 3, 4], "f32", axes=[1],
      dtypes=ALL, axes_dt="i64", versions=(1, 3))
bcast("broadcast/explicit/two_axes", "explicit", ([2, 3], [1, 2, 3, 4, 5, 6]), [2, 4, 3], "i16",
      axes=[0, 2], axes_dt="i32", target_dt="i32", dtypes=SIGNED + UNSIGNED)
bcast("broadcast/explicit/stretch_one", "explicit", ([3, 1], [1, 2, 3]), [2, 3, 3], "i32", axes=[1, 2],
      note="README subtlety 3: a data dim of 1 maps onto any target dim")
bcast("broadcast/explicit/scalar_one_axis", "explicit", ([], [4.5]), [2, 1], "f64", axes=[1],
      note="scalar data with one axes_mapping entry: target[axes[0]] must be 1")
bcast("broadcast/explicit/bool", "explicit", ([2], [True, False]), [2, 2], "boolean", axes=[0])
bcast("broadcast/explicit/v1_no_axes_is_numpy", "explicit", ([3], [1, 2, 3]), [2, 3], "i8", versions=(1,),
      axes_absent=True, note="README subtlety 8: v1 explicit with two inputs is numpy")
bcast("broadcast/explicit/v3_no_axes", "explicit", ([3], [1, 2, 3]), [2, 3], "i8", versions=(3,),
      axes_absent=True, error="axes_mapping input should be provided if explicit mode is used")
bcast("broadcast/explicit/err_unsorted", "explicit", ([2, 3], [1, 2, 3, 4, 5, 6]), [3, 2], "f32", axes=[1, 0],
      error="axes_mapping is not sorted")
bcast("broadcast/explicit/err_dim", "explicit", ([3], [1, 2, 3]), [2, 4], "f32", axes=[1],
      error="data dim 3 does not match target dim 4")
bcast("broadcast/explicit/err_axes_type", "explicit", ([3], [1, 2, 3]), [2, 3], "f32", axes=[1], axes_dt="f32",
      error="axes_mapping must be integral")
bcast("broadcast/pdpd/axis1", "pdpd", ([3, 1], [1, 2, 3]), [2, 3, 4], "f32", axis=1, dtypes=ALL)
bcast("broadcast/pdpd/default_axis", "pdpd", ([4], [1, 2, 3, 4]), [2, 3, 4], "u16", axis=-1)
bcast("broadcast/pdpd/grow_target_one", "pdpd", ([3, 4], list(range(12))), [2, 1, 4], "i32", axis=1,
      note="README subtlety 5: a target dim of 1 takes the data dim, the output exceeds target_shape")
bcast("broadcast/pdpd/bool", "pdpd", ([2], [False, True]), [3, 2], "boolean", axis=1)
bcast("broadcast/pdpd/err_mismatch", "pdpd", ([3], [1, 2, 3]), [2, 4], "f32", axis=1,
      error="data dim 3 does not merge with target dim 4")
bcast("broadcast/pdpd/err_short_data", "pdpd", ([3], [1, 2, 3]), [2, 3, 4], "f32", axis=1,
      error="rank(data) != rank(target) - axis")
bcast("broadcast/bidirectional/grow", "bidirectional", ([3, 1], [1, 2, 3]), [2, 1, 4], "f32", versions=(3,),
      dtypes=ALL, note="the output [2,3,4] differs from the target [2,1,4]")
bcast("broadcast/bidirectional/short_target", "bidirectional", ([1, 3, 1], [5, 6, 7]), [3, 1], "i64", versions=(3,),
      note="README subtlety 1: the target is padded on the left")
bcast("broadcast/bidirectional/zero", "bidirectional", ([1], [9]), [0], "i32", versions=(3,),
      note="README subtlety 2: {1} to [0] gives {0}")
bcast("broadcast/bidirectional/bool", "bidirectional", ([2, 1], [True, False]), [1, 3], "boolean", versions=(3,))
bcast("broadcast/bidirectional/err", "bidirectional", ([3], [1, 2, 3]), [4], "f32", versions=(3,),
      error="dims 3 and 4 do not broadcast")
bcast("broadcast/bidirectional/v1_err", "bidirectional", ([3], [1, 2, 3]), [2, 3], "f32", versions=(1,),
      error="Broadcast-1 has no bidirectional mode")
bcast("ngraph/basic", "ngraph", ([3], [1, 2, 3]), [2, 3, 4], "f32", kind="ngraph_axes", ngraph_axes=[0, 2],
      dtypes=ALL)
bcast("ngraph/middle", "ngraph", ([2, 2], [1, 2, 3, 4]), [2, 3, 2], "i8", kind="ngraph_axes", ngraph_axes=[1])
bcast("ngraph/scalar", "ngraph", ([], [True]), [2], "boolean", kind="ngraph_axes", ngraph_axes=[0])
bcast("ngraph/err_stretch", "ngraph", ([1], [1]), [2, 3], "f32", kind="ngraph_axes", ngraph_axes=[0],
      error="nGraph v0 does not stretch a dim of 1")
bcast("ngraph/err_axis", "ngraph", ([3], [1, 2, 3]), [3], "f32", kind="ngraph_axes", ngraph_axes=[1],
      error="broadcast axis out of range")
bcast("onnx/expand/dim_changed", "bidirectional", ([3, 1], [1, 2, 3]), [2, 1, 6], "f32", kind="expand", op="expand",
      dtypes=["f32", "i64", "u8", "f16"])
bcast("onnx/expand/dim_unchanged", "bidirectional", ([3, 1], [1.5, 2.5, 3.5]), [3, 4], "f64", kind="expand",
      op="expand")
bcast("onnx/expand/int", "bidirectional", ([1, 2], [-3, 4]), [3, 1], "i32", kind="expand", op="expand",
      dtypes=SIGNED + ["f16", "f64"])
bcast("onnx/expand/bool", "bidirectional", ([2], [True, False]), [2, 1], "boolean", kind="expand", op="expand")
bcast("onnx/expand/err", "bidirectional", ([3], [1, 2, 3]), [2], "f32", kind="expand", op="expand",
      error="dims 3 and 2 do not broadcast")

# ---------------------------------------------------------------- arithmetic
A23 = ([2, 3], [7, -7, 5, 0, 3, -1])
B3 = ([3], [2, 3, -2])
A23U = ([2, 3], [7, 9, 5, 0, 3, 12])
B3U = ([3], [2, 3, 5])
F23 = ([2, 3], [5.5, -5.5, 0.75, -3, 2, 0.5])
F3 = ([3], [2, -2, 0.25])
for op in ["add", "subtract", "multiply", "maximum", "minimum", "squared_difference"]:
    binary("%s/int" % op, op, A23, B3, "i32", dtypes=SIGNED)
    binary("%s/uint" % op, op, A23U, ([3], [0, 3, 1]) if op == "subtract" else B3U, "u8", dtypes=UNSIGNED)
    binary("%s/float" % op, op, F23, F3, "f32", dtypes=FLOATS)
    binary("%s/bool" % op, op, ([2], [True, False]), ([2], [True, True]), "boolean",
           error="arguments cannot have boolean element type")
binary("divide/int_floor", "divide", ([2, 4], [7, -7, 7, -7, 0, -1, 9, 6]), ([4], [2, 2, -2, -2]), "i32",
       dtypes=SIGNED, note="OpenVINO Divide on integers floors (pythondivision)")
binary("divide/int_trunc", "divide", ([2, 4], [7, -7, 7, -7, 0, -1, 9, 6]), ([4], [2, 2, -2, -2]), "i64",
       pydiv=False, attrs={"pythondivision": False}, note="pythondivision off: C division")
binary("divide/uint", "divide", A23U, B3U, "u32", dtypes=UNSIGNED)
binary("divide/float", "divide", F23, F3, "f32", dtypes=FLOATS)
binary("divide/float_by_zero", "divide", ([3], [1, -1, 0]), ([], [0]), "f32", dtypes=FLOATS,
       note="IEEE: inf, -inf, nan")
binary("divide/int_by_zero", "divide", ([2], [1, 2]), ([2], [1, 0]), "i32",
       error="integer division by zero (std::domain_error in the OpenVINO reference)")
binary("divide/bool", "divide", ([1], [True]), ([1], [True]), "boolean",
       error="arguments cannot have boolean element type")
binary("power/int", "power", ([2, 3], [2, 3, -2, 0, 1, -1]), ([3], [3, 4, 0]), "i32", dtypes=SIGNED)
binary("power/uint", "power", A23U, ([3], [2, 1, 0]), "u16", dtypes=["u16", "u32", "u64"])
binary("power/float", "power", ([2, 2], [2, 0.5, -2, 4]), ([2], [3, 2]), "f32", dtypes=FLOATS)
binary("power/float_frac", "power", ([4], [4, 0.25, 16, 2]), ([], [0.5]), "f64", dtypes=FLOATS)
binary("power/bool", "power", ([1], [True]), ([1], [False]), "boolean", error="arguments cannot have boolean element type")
MA = ([2, 4], [7, -7, 7, -7, 6, -6, 0, 1])
MB = ([4], [3, 3, -3, -3])
MFA = ([2, 4], [5.5, -5.5, 5.5, -5.5, 4, -4, 0.75, -0.75])
MFB = ([4], [2, 2, -2, -2])
for op in ["floor_mod", "mod"]:
    binary("%s/int" % op, op, MA, MB, "i32", dtypes=SIGNED)
    binary("%s/uint" % op, op, A23U, B3U, "u8", dtypes=UNSIGNED)
    binary("%s/float" % op, op, MFA, MFB, "f32", dtypes=FLOATS)
    binary("%s/bool" % op, op, ([1], [True]), ([1], [True]), "boolean", error="arguments cannot have boolean element type")
# wrap-around
binary("add/i8_wrap", "add", ([2], [100, -100]), ([2], [100, -100]), "i8", note="two's complement wrap")
binary("subtract/u8_wrap", "subtract", ([2], [1, 0]), ([2], [2, 255]), "u8", note="unsigned wrap")
binary("multiply/i16_wrap", "multiply", ([1], [300]), ([1], [300]), "i16", note="two's complement wrap")
binary("add/rank0", "add", ([], [1.5]), ([], [2.25]), "f64")
binary("add/zero_size", "add", ([0, 3], []), ([3], [1, 2, 3]), "i32")
binary("add/err_mismatch", "add", ([2, 3], [1, 2, 3, 4, 5, 6]), ([2], [1, 2]), "f32",
       error="shapes [2,3] and [2] do not broadcast")
binary("add/err_types", "add", ([2], [1, 2]), ([2], [1, 2]), "f32", in_dts=("f32", "i32"),
       error="arguments do not have the same element type")
# typed suites ("arithmetic" with ops)
for op in ["add", "multiply"]:
    binary("arithmetic/%s" % op, op, A23, B3, "i32", dtypes=SIGNED + FLOATS)
    cases[-1]["op"], cases[-1]["ops"] = "arithmetic", [op]
binary("arithmetic/several_ops", "add", A23, B3, "i32")
cases[-1]["op"], cases[-1]["ops"] = "arithmetic", ["add", "subtract"]
cases[-1]["note"] = "a typed suite's values for several ops: no single op to compute (skip)"

# auto_broadcast none and pdpd
binary("add/none", "add", ([2, 2], [1, 2, 3, 4]), ([2, 2], [10, 20, 30, 40]), "i32", rule="none", dtypes=SIGNED + FLOATS)
binary("multiply/none_err", "multiply", ([2, 2], [1, 2, 3, 4]), ([2], [1, 2]), "f32", rule="none",
       error="none: shapes must be equal")
binary("subtract/pdpd_axis1", "subtract", ([2, 3, 4], list(range(24))), ([3, 1], [1, 2, 3]), "i32", rule="pdpd", axis=1,
       dtypes=SIGNED + FLOATS, note="README: {3,1} at axis 1 behaves as {3}")
binary("add/pdpd_default", "add", ([2, 3], [1, 2, 3, 4, 5, 6]), ([3], [10, 20, 30]), "f32", rule="pdpd", axis=-1)
binary("maximum/pdpd_axis0", "maximum", ([2, 3], [1, 5, 3, 4, 2, 6]), ([2], [3, 4]), "i64", rule="pdpd", axis=0)
binary("add/pdpd_err_a_dim", "add", ([2, 3, 4, 1], [0] * 24), ([2, 3, 4, 5], [0] * 120), "f32", rule="pdpd",
       error="README subtlety 6: A dims may not be broadcast")
binary("add/pdpd_err_axis", "add", ([2, 3], [0] * 6), ([3], [1, 2, 3]), "f32", rule="pdpd", axis=-2,
       error="axis < -1")

# comparisons
CA = ([2, 3], [1, 2, 3, 4, 2, 0])
CB = ([3], [2, 2, 2])
CFA = ([2, 3], [-1.5, 0.5, 2, 0.25, -0.5, 3])
CFB = ([3], [0.5, 0.5, -0.5])
for op in COMPARE:
    binary("%s/int" % op, op, CA, CB, "i32", dtypes=SIGNED + UNSIGNED)
    binary("%s/float" % op, op, CFA, CFB, "f32", dtypes=FLOATS)
    binary("%s/bool" % op, op, ([2, 2], [True, True, False, False]), ([2], [True, False]), "boolean")
    binary("%s/err_shape" % op, op, ([2, 2], [1, 2, 3, 4]), ([3], [1, 2, 3]), "f32", error="shapes [2,2] and [3] do not broadcast")
binary("equal/err_types", "equal", ([2], [1, 2]), ([2], [1, 2]), "i32", in_dts=("i32", "i64"),
       error="arguments do not have the same element type")

# logical
LA = ([2, 2], [True, True, False, False])
LB = ([2], [True, False])
for op in ["logical_and", "logical_or", "logical_xor"]:
    binary("%s/bool" % op, op, LA, LB, "boolean")
    binary("%s/bool_none" % op, op, ([4], [True, True, False, False]), ([4], [True, False, True, False]), "boolean", rule="none")
    binary("%s/int" % op, op, ([2], [1, 0]), ([2], [1, 1]), "i32",
           error="operands for logical operators must have boolean element type")
binary("logical_and/err_shape", "logical_and", ([3], [True] * 3), ([2], [True] * 2), "boolean", error="shapes do not broadcast")

# select
SC = ([2, 1], [True, False])
ST = ([3], [1, 2, 3])
SE = ([2, 3], [10, 20, 30, 40, 50, 60])
select("select/int", SC, ST, SE, "i32", dtypes=SIGNED + UNSIGNED)
select("select/float", SC, ([3], [1.5, -2.5, 0.25]), ([], [-1]), "f32", dtypes=FLOATS)
select("select/bool", ([2], [True, False]), ([2], [True, True]), ([2], [False, False]), "boolean")
select("select/none", ([3], [True, False, True]), ([3], [1, 2, 3]), ([3], [7, 8, 9]), "i64", rule="none")
select("select/pdpd", ([2], [True, False]), ([2, 2], [1, 2, 3, 4]), ([2], [7, 8]), "f32", rule="pdpd", axis=0)
select("select/pdpd_default", ([3], [False, True, False]), ([2, 3], [1, 2, 3, 4, 5, 6]), ([3], [0, 0, 0]), "i32",
       rule="pdpd")
select("select/err_cond_type", ([2], [1, 0]), ([2], [1, 2]), ([2], [3, 4]), "i32", cond_dt="i32",
       error="argument 0 must have boolean element type")
select("select/err_shape", ([3], [True] * 3), ([2], [1, 2]), ([2], [3, 4]), "i32", error="shapes do not broadcast")
select("select/none_err", ([2], [True, False]), ([2, 2], [1, 2, 3, 4]), ([2, 2], [1, 2, 3, 4]), "i32", rule="none",
       error="none: shapes must be equal")

# ---------------------------------------------------------------- ONNX ops
for op, onnx in [("add", "Add"), ("sub", "Sub"), ("mul", "Mul")]:
    binary("onnx/%s/float" % op, op, F23, F3, "f32", onnx=onnx, dtypes=FLOATS)
    binary("onnx/%s/int" % op, op, A23, B3, "i64", onnx=onnx, dtypes=SIGNED)
    binary("onnx/%s/uint8" % op, op, ([3], [250, 3, 0]), ([3], [10, 4, 1]), "u8", onnx=onnx, note="uint8 wraps")
    binary("onnx/%s/err_shape" % op, op, ([2, 3], [0] * 6), ([2], [1, 2]), "f32", onnx=onnx,
           error="shapes [2,3] and [2] do not broadcast")
binary("onnx/div/err_shape", "div", ([4], [1, 2, 3, 4]), ([3], [1, 2, 3]), "f32", onnx="Div", error="shapes [4] and [3] do not broadcast")
binary("onnx/pow/err_shape", "pow", ([4], [1, 2, 3, 4]), ([2, 3], [1] * 6), "f32", onnx="Pow", error="shapes [4] and [2,3] do not broadcast")
binary("onnx/div/int_trunc", "div", ([4], [7, -7, 7, -7]), ([4], [2, 2, -2, -2]), "i32", onnx="Div", dtypes=SIGNED,
       note="ONNX Div truncates")
binary("onnx/div/uint8", "div", ([2], [3, 4]), ([2], [1, 2]), "u8", onnx="Div")
binary("onnx/div/float", "div", F23, F3, "f32", onnx="Div", dtypes=FLOATS)
binary("onnx/pow/float", "pow", ([3], [1, 2, 3]), ([3], [4, 5, 6]), "f32", onnx="Pow", dtypes=FLOATS[1:])
binary("onnx/pow/bcast_scalar", "pow", ([2, 2], [1, 2, 3, 0.5]), ([], [2]), "f32", onnx="Pow")
binary("onnx/pow/int", "pow", ([3], [1, 2, 3]), ([3], [4, 5, 6]), "i32", onnx="Pow", dtypes=["i32", "i64"])
binary("onnx/pow/float32_int64", "pow", ([3], [1, 2, 3]), ([3], [4, 5, 6]), "f32", onnx="Pow",
       in_dts=("f32", "i64"), note="mixed types: the result has the base's type")
binary("onnx/pow/int32_float32", "pow", ([3], [1, 2, 3]), ([3], [4, 5, 6]), "i32", onnx="Pow",
       in_dts=("i32", "f32"), note="mixed types: the result has the base's type")
for op, onnx in [("and", "And"), ("or", "Or"), ("xor", "Xor")]:
    binary("onnx/%s/bool" % op, op, ([2, 2, 2], [True, False, True, True, False, False, True, False]), ([2], [True, False]),
           "boolean", onnx=onnx)
binary("onnx/mod/int_fmod0", "mod", MA, MB, "i32", onnx="Mod", fmod=0, dtypes=SIGNED, note="fmod=0: sign of the divisor")
binary("onnx/mod/int_fmod1", "mod", MA, MB, "i64", onnx="Mod", fmod=1, dtypes=SIGNED, note="fmod=1: sign of the dividend")
binary("onnx/mod/float_fmod1", "mod", MFA, MFB, "f32", onnx="Mod", fmod=1, dtypes=FLOATS)
binary("onnx/mod/uint", "mod", A23U, B3U, "u8", onnx="Mod", fmod=0, dtypes=UNSIGNED)
binary("onnx/prelu/float", "prelu", ([2, 3], [-2, -1, 0, 1, 2, -4]), ([3], [0.5, 0.25, 2]), "f32", onnx="PRelu",
       dtypes=FLOATS)
binary("onnx/prelu/scalar_slope", "prelu", ([4], [-2, -1, 0, 3]), ([], [0.5]), "f64", onnx="PRelu")
binary("onnx/prelu/int", "prelu", ([2, 2], [-2, 3, -4, 0]), ([2], [3, 5]), "i32", onnx="PRelu", dtypes=["i32", "i64"])
binary("onnx/prelu/err_slope", "prelu", ([3], [-1, 0, 1]), ([2, 3], [1] * 6), "f32", onnx="PRelu",
       error="slope does not broadcast unidirectionally onto X")
select("onnx/where/float", ([2, 2], [True, False, True, True]), ([2, 2], [1, 2, 3, 4]), ([2, 2], [9, 8, 7, 6]), "f32",
       onnx=True)
select("onnx/where/long", ([2, 2], [True, False, True, True]), ([2, 2], [1, 2, 3, 4]), ([2], [9, 8]), "i64", onnx=True)

u2 = base("broadcast/numpy/u2", "broadcast_numpy", "broadcast", "definition of Broadcast (numpy)")
u2.update({"op_versions": [3], "mode": "numpy", "target_shape": [2, 2],
           "inputs": [{"name": "data", "shape": [2], "dtype": "u2", "values": [1, 3]}],
           "expected": {"shape": [2, 2], "dtype": "u2", "values": [1, 3, 1, 3]},
           "note": "an element type stride0 does not have (skip)"})
cases.append(u2)

gemm = base("onnx/gemm/all_attributes", "unidirectional", "gemm", "definition of Gemm")
gemm.update({"onnx_op_type": "Gemm", "onnx_opset": 13, "attributes": {"alpha": 0.25, "beta": 0.5, "transA": 0, "transB": 0},
             "inputs": [tin("A", [1, 2], "f32", [1, 2]), tin("B", [2, 1], "f32", [3, 4]), tin("C", [], "f32", [2])],
             "expected": {"shape": [1, 1], "dtype": "f32", "values": [0.25 * 11 + 0.5 * 2]}})
cases.append(gemm)

write(cases, "Derived value cases for stride0: every op of the conformance README (int, float and bool "
             "where the op takes them, errors included) and every Broadcast mode, with values computed from "
             "the definitions by gen_value_cases.py. Not copied from an upstream suite (derived: true).")
