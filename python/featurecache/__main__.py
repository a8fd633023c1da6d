# SPDX-License-Identifier: Apache-2.0
"""``python -m featurecache`` (and the ``featurecache`` script pip installs):
the command-line tool built with the library and shipped inside the package
(tools/featurecache/ in the source; ``featurecache --help``)."""
import os
import sys


def main():
    program = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "featurecache")
    if not os.access(program, os.X_OK):
        sys.stderr.write("featurecache: the command-line tool is not in this copy of the package "
                         "(it is built by `pip install`, or CMake as build/bin/featurecache)\n")
        return 1
    os.execv(program, [program] + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
