/// A topic condition such as `'dogs' in topics && ('cats' in topics || !('fish' in topics))`.
///
/// Grammar (FCM's "send to topics" guide): operands `'topic' in topics` (single or double quotes),
/// operators `&&`, `||`, unary `!`, parentheses. At most five topics. Parenthesised groups are evaluated first,
/// then the expression is evaluated left to right: `&&` and `||` have the same precedence (Google's wording),
/// so `A || B && C` means `(A || B) && C`.
package indirect enum FCMCondition: Sendable, Equatable {
    case topic(String)
    case not(FCMCondition)
    case and(FCMCondition, FCMCondition)
    case or(FCMCondition, FCMCondition)

    /// At most this many topics per condition.
    static let maxTopics = 5

    /// Why a condition did not parse (the message FCM's field violation carries).
    package struct ParseError: Error, Equatable, Sendable {
        package var description: String
    }

    /// Parses a condition; topic names must match FCM's topic pattern.
    package static func parse(_ text: String) throws(ParseError) -> FCMCondition {
        var p = Parser(Array(text.unicodeScalars))
        let c = try p.expression()
        p.skipSpace()
        guard p.atEnd else { throw ParseError(description: "Invalid condition expression provided.") }
        guard c.topics.count <= maxTopics else {
            throw ParseError(description: "Invalid condition expression provided: more than \(maxTopics) topics.")
        }
        return c
    }

    /// Every topic operand, in order (repeats counted).
    package var topics: [String] {
        switch self {
        case .topic(let t): return [t]
        case .not(let c): return c.topics
        case .and(let a, let b), .or(let a, let b): return a.topics + b.topics
        }
    }

    /// Whether an instance subscribed to `subscribed` matches.
    package func matches(_ subscribed: Set<String>) -> Bool {
        switch self {
        case .topic(let t): return subscribed.contains(t)
        case .not(let c): return !c.matches(subscribed)
        case .and(let a, let b): return a.matches(subscribed) && b.matches(subscribed)
        case .or(let a, let b): return a.matches(subscribed) || b.matches(subscribed)
        }
    }

    /// Deepest nesting of parentheses and `!` accepted: the parser recurses once per level, and a body of nothing
    /// but `(((…` must be refused, not overflow the event loop's stack (found by the `fcm` fuzz target).
    static let maxNesting = 32

    struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var depth = 0
        init(_ s: [Unicode.Scalar]) { self.s = s }
        var atEnd: Bool { i >= s.count }

        mutating func skipSpace() { while i < s.count, s[i].properties.isWhitespace { i += 1 } }

        mutating func take(_ literal: String) -> Bool {
            skipSpace()
            let l = Array(literal.unicodeScalars)
            guard i + l.count <= s.count, Array(s[i..<i + l.count]) == l else { return false }
            i += l.count
            return true
        }

        static let bad = ParseError(description: "Invalid condition expression provided.")

        mutating func enter() throws(ParseError) {
            depth += 1
            guard depth <= FCMCondition.maxNesting else { throw Self.bad }
        }

        /// operand (op operand)*, left to right.
        mutating func expression() throws(ParseError) -> FCMCondition {
            var left = try operand()
            while true {
                if take("&&") {
                    left = .and(left, try operand())
                } else if take("||") {
                    left = .or(left, try operand())
                } else {
                    return left
                }
            }
        }

        mutating func operand() throws(ParseError) -> FCMCondition {
            if take("!") {
                try enter()
                defer { depth -= 1 }
                return .not(try operand())
            }
            if take("(") {
                try enter()
                defer { depth -= 1 }
                let inner = try expression()
                guard take(")") else { throw Self.bad }
                return inner
            }
            skipSpace()
            guard i < s.count, s[i] == "'" || s[i] == "\"" else { throw Self.bad }
            let quote = s[i]
            i += 1
            var name = ""
            while i < s.count, s[i] != quote {
                name.unicodeScalars.append(s[i])
                i += 1
            }
            guard i < s.count else { throw Self.bad }
            i += 1
            guard FCMMessageRules.isValidTopicName(name) else {
                throw ParseError(
                    description: "Invalid condition expression provided: '\(name)' is not a valid topic name.")
            }
            guard take("in"), let after = s[safe: i], after.properties.isWhitespace else { throw Self.bad }
            guard take("topics") else { throw Self.bad }
            // `topics` must end the word (not `topicsX`).
            if let next = s[safe: i], next.properties.isAlphabetic || next == "_" { throw Self.bad }
            return .topic(name)
        }
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
