# Generates parse_fold.txt: random constant expressions with the value
# Python 3 gives them, the facts TestParseFolding checks Parse's folding
# against. Run: python3 expr/testdata/parse_fold_gen.py > expr/testdata/parse_fold.txt
import ast, math, random, sys, warnings

warnings.simplefilter("ignore")
rnd = random.Random(7)
INTS = ["0", "1", "2", "3", "7", "13", "100", "(2**62)", "0x7f", "0b101", "0o17", "1_000", "True", "False"]
FLOATS = ["0.0", "0.5", "2.25", "3.0", "1e300", "1e-300", "7.5", ".25", "1e3", "2.", "1e400"]
SMALL = ["0", "1", "2", "3", "7", "13", "100", "True", "-1", "0.5", "2.25", "1e3", "-2.5"]
BIN = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "and", "or"]
UN = ["-", "+", "~", "not "]

def atom():
    return rnd.choice(INTS if rnd.random() < 0.6 else FLOATS)

def gen(d):
    r = rnd.random()
    if d == 0 or r < 0.25:
        return atom()
    if r < 0.4:
        return rnd.choice(UN) + gen(d - 1)
    if r < 0.5:
        return "(" + gen(d - 1) + ")"
    op = rnd.choice(BIN)
    right = rnd.choice(SMALL) if op in ("**", "<<", ">>") else gen(d - 1)
    return gen(d - 1) + " " + op + " " + right

def raises(node):
    try:
        eval(compile(ast.Expression(node), "<f>", "eval"))
        return False
    except Exception:
        return True

def lazy_ok(tree):
    # Parse evaluates every operand of and, or and a chained comparison;
    # Python may skip one that raises: leave such cases out.
    for n in ast.walk(tree):
        if isinstance(n, ast.BoolOp) and any(raises(v) for v in n.values):
            return False
        if isinstance(n, ast.Compare) and any(raises(v) for v in [n.left] + n.comparators):
            return False
    return True

seen = set()
while len(seen) < 600:
    src = gen(rnd.randint(1, 4))
    if src in seen:
        continue
    try:
        tree = ast.parse(src, mode="eval")
    except SyntaxError:
        seen.add(src)
        print(src + "\terror\t")
        continue
    if not lazy_ok(tree.body):
        continue
    try:
        v = eval(src)
    except Exception:
        kind, val = "error", ""
    else:
        if isinstance(v, bool):
            kind, val = "bool", str(v)
        elif isinstance(v, int):
            kind, val = ("int", str(v)) if -2**63 <= v < 2**63 else ("error", "")
        elif isinstance(v, float):
            kind, val = "float", repr(v)
        else:
            kind, val = "error", ""
    seen.add(src)
    print(src + "\t" + kind + "\t" + val)
