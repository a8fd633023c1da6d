// SPDX-License-Identifier: Apache-2.0
import FCSupport
import FCData
import FCTransport
