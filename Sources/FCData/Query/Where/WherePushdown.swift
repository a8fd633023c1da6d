// SPDX-License-Identifier: Apache-2.0
import FCSupport

/// Splits a where clause between a server and the local evaluator: the top-level
/// AND-terms a server dialect can express go to the server, the rest is
/// evaluated locally on what comes back (partial pushdown).
public struct WherePushdown: Sendable, Equatable {
    /// The part to send (nil = nothing to send).
    public let server: WhereExpression?
    /// The part to evaluate locally after the answer (nil = nothing left).
    public let local: WhereExpression?

    public init(_ expression: WhereExpression?, canTranslate: (WhereExpression) -> Bool) {
        guard let expression else { server = nil; local = nil; return }
        var pushed: [WhereExpression] = [], kept: [WhereExpression] = []
        for term in expression.conjuncts {
            if canTranslate(term) { pushed.append(term) } else { kept.append(term) }
        }
        server = WhereExpression.conjunction(pushed)
        local = WhereExpression.conjunction(kept)
    }
}
