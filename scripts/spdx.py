#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every source file the project writes carries `SPDX-License-Identifier:
Apache-2.0` in its first lines (after a shebang or Package.swift's tools line).

    scripts/spdx.py          # checks; prints "spdx ok" or the files without it
    scripts/spdx.py --write  # adds the line where it is missing

Recorded server responses (Tests/FeatureCacheTests/Fixtures, whose SOURCE.md
files say where each comes from) and fuzz seeds are data, not ours to license.
The Debian copyright and changelog templates (cmake/debian) are skipped: the
first is the licence statement itself, and neither format has comments."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = "SPDX-License-Identifier: Apache-2.0"
COMMENT = {".swift": "// %s", ".c": "/* %s */", ".h": "/* %s */", ".cpp": "// %s", ".hpp": "// %s",
           ".py": "# %s", ".sh": "# %s", ".cmake": "# %s", ".in": "# %s", ".txt": "# %s", ".map": "/* %s */",
           ".toml": "# %s"}
SKIP = ("Tests/FeatureCacheTests/Fixtures/", "Tests/fuzz/seeds/", "bench/data/", "cmake/debian/")


def sources():
    files = subprocess.check_output(["git", "ls-files"], cwd=ROOT, text=True).split()
    for path in files:
        if path.startswith(SKIP):
            continue
        name = os.path.basename(path)
        extension = os.path.splitext(name)[1]
        if name == "run" and path.startswith(".ci/"):
            extension = ".sh"
        if extension in COMMENT and (extension != ".txt" or name == "CMakeLists.txt"):
            yield path, COMMENT[extension] % TAG


def main(write):
    missing = []
    for path, line in sources():
        full = os.path.join(ROOT, path)
        with open(full) as f:
            text = f.read()
        if TAG in "\n".join(text.splitlines()[:3]):
            continue
        if not write:
            missing.append(path)
            continue
        lines = text.splitlines(keepends=True)
        at = 1 if lines and (lines[0].startswith("#!") or lines[0].startswith("// swift-tools-version")) else 0
        lines.insert(at, line + "\n")
        with open(full, "w") as f:
            f.write("".join(lines))
    if missing:
        print("no SPDX-License-Identifier in:\n  " + "\n  ".join(missing))
        return 1
    print("spdx ok")
    return 0


if __name__ == "__main__":
    sys.exit(main("--write" in sys.argv))
