/* SPDX-License-Identifier: Apache-2.0 */
/* The PROJ C API (PROJ 9.1 on Debian 12). Only
 * Sources/FCData/Geometry/Projection/PROJOperation.swift reaches it. */
#include <proj.h>
