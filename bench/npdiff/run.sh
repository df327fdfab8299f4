#!/usr/bin/env bash
# run.sh: stride0's results against NumPy's, every suite (README.md). From
# a stride0 checkout: bench/npdiff/run.sh [suite ...]. Needs python3 with
# NumPy. Exits 1 when a suite finds a difference that is not known.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=${PYTHON:-python3}
work=${NPDIFF_DIR:-$(mktemp -d /tmp/npdiff.XXXXXX)}
bin="$work/npdiff"
(cd "$root" && go build -o "$bin" ./bench/cmd/npdiff)
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(ops mixed reduce structural)
status=0
for s in "${suites[@]}"; do
  d="$work/$s"
  mkdir -p "$d"
  gen=$s
  [ "$s" = mixed ] && gen=ops
  echo "== $s"
  (cd "$d" && "$py" "$here/npdiff.py" gen "$gen" >/dev/null && "$bin" "$s" && "$py" "$here/npdiff.py" cmp "$s") || status=1
done
echo "inputs and results: $work"
exit $status
