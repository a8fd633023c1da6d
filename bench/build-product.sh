#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds a benchmark product the way the shipped library is built: release,
# with the dynamic exclusivity checks off (scripts/build-lib.sh says why).
#   bash bench/build-product.sh PRODUCT
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release -Xswiftc -enforce-exclusivity=unchecked --product "$1" >/dev/null
