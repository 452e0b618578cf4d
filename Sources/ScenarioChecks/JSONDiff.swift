import PushModel

/// A structural diff of two JSON values by path: what a snapshot or a whole-object `expect` prints when
/// the observed value differs from the expected one.
///
/// ```
/// - user_info.order_id: "A1001"
/// + user_info.orderId: "A1001"        (renamed?)
/// ~ user_info.count: "3" → 3          (type changed: string → number)
/// - navigation.stack[1]: "order"
/// ```
/// Pure: no I/O, deterministic order (object keys sorted, a removed key directly followed by the key it
/// was renamed to when an added key carries the same value).
package enum JSONDiff {
    /// How strictly `actual` must match `expected`.
    package enum Mode: Sendable {
        /// Every key and element, nothing more.
        case exact
        /// Every key of `expected` (recursively) with its value; extra keys in `actual` are fine. Arrays
        /// still compare element by element.
        case subset
    }

    /// One difference.
    package enum Change: Sendable, Equatable {
        /// In `expected`, not in `actual`.
        case removed(path: String, value: JSONValue)
        /// In `actual`, not in `expected`; `renamedFrom` is the removed path with the same value, if any.
        case added(path: String, value: JSONValue, renamedFrom: String?)
        /// Same place, different value of the same type.
        case changed(path: String, from: JSONValue, to: JSONValue)
        /// Same place, different type (`"3"` → `3`, object → array, value → null).
        case typeChanged(path: String, from: JSONValue, to: JSONValue)

        /// The path the change is at (the added one for a rename).
        package var path: String {
            switch self {
            case .removed(let p, _), .added(let p, _, _), .changed(let p, _, _), .typeChanged(let p, _, _): return p
            }
        }
    }

    /// The differences from `expected` to `actual`, under the path `root` (`"user_info"` gives
    /// `user_info.order_id`; empty gives `order_id`).
    package static func diff(_ expected: JSONValue, _ actual: JSONValue, root: String = "", mode: Mode = .exact)
        -> [Change]
    {
        var out: [Change] = []
        compare(expected, actual, path: root, mode: mode, into: &out)
        return out
    }

    /// One line per change: `- path: value`, `+ path: value`, `~ path: old → new`.
    package static func render(_ changes: [Change]) -> String {
        changes.map(line).joined(separator: "\n")
    }

    /// The line of one change.
    package static func line(_ change: Change) -> String {
        switch change {
        case .removed(let p, let v): return "- \(label(p)): \(show(v))"
        case .added(let p, let v, let from):
            let note = from.map { "    (renamed from \(label($0))?)" } ?? ""
            return "+ \(label(p)): \(show(v))" + note
        case .changed(let p, let a, let b): return "~ \(label(p)): \(show(a)) → \(show(b))"
        case .typeChanged(let p, let a, let b):
            return "~ \(label(p)): \(show(a)) → \(show(b))    (type changed: \(typeName(a)) → \(typeName(b)))"
        }
    }

    /// `a.b`, `a[2]`; a key that is not a plain identifier is quoted (`user_info["gcm.message_id"]`).
    static func join(_ path: String, key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy {
                ($0.value < 128 && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
                    || $0 == "_" || $0 == "-"
            }
        if plain { return path.isEmpty ? key : path + "." + key }
        return path + "[" + JSONValue.string(key).serialized() + "]"
    }

    /// `path[index]`.
    static func join(_ path: String, index: Int) -> String { path + "[\(index)]" }

    /// `number`, `string`, `object`, …
    package static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "bool"
        case .number, .integer: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// A value as compact JSON (strings quoted, keys sorted).
    static func show(_ v: JSONValue) -> String { v.serialized() }

    static func label(_ p: String) -> String { p.isEmpty ? "(root)" : p }

    static func sameType(_ a: JSONValue, _ b: JSONValue) -> Bool { typeName(a) == typeName(b) }

    static func compare(_ e: JSONValue, _ a: JSONValue, path: String, mode: Mode, into out: inout [Change]) {
        if e == a { return }
        switch (e, a) {
        case (.object(let eo), .object(let ao)):
            compareObjects(eo, ao, path: path, mode: mode, into: &out)
        case (.array(let ea), .array(let aa)):
            compareArrays(ea, aa, path: path, mode: mode, into: &out)
        default:
            if sameType(e, a) {
                out.append(.changed(path: path, from: e, to: a))
            } else {
                out.append(.typeChanged(path: path, from: e, to: a))
            }
        }
    }

    static func compareObjects(
        _ e: [String: JSONValue], _ a: [String: JSONValue], path: String, mode: Mode, into out: inout [Change]
    ) {
        let removedKeys = e.keys.filter { a[$0] == nil }.sorted()
        var addedKeys = mode == .exact ? a.keys.filter { e[$0] == nil }.sorted() : []
        // A removed key whose value reappears under an added key reads as a rename: the two lines go together.
        var renames: [String: String] = [:]
        for r in removedKeys {
            if let i = addedKeys.firstIndex(where: { a[$0] == e[r] }) {
                renames[r] = addedKeys.remove(at: i)
            }
        }
        var entries: [(key: String, lines: [Change])] = []
        for key in Set(e.keys).union(a.keys).sorted() {
            let p = join(path, key: key)
            if let ev = e[key], let av = a[key] {
                var sub: [Change] = []
                compare(ev, av, path: p, mode: mode, into: &sub)
                if !sub.isEmpty { entries.append((key, sub)) }
            } else if let ev = e[key] {
                var lines: [Change] = [.removed(path: p, value: ev)]
                if let to = renames[key] {
                    lines.append(.added(path: join(path, key: to), value: a[to]!, renamedFrom: p))
                }
                entries.append((key, lines))
            } else if addedKeys.contains(key), let av = a[key] {
                entries.append((key, [.added(path: p, value: av, renamedFrom: nil)]))
            }
        }
        for entry in entries { out += entry.lines }
    }

    /// Elements are aligned by a longest common subsequence, so one inserted element is one `+` line, not a
    /// change at every later index. Unmatched elements between two aligned ones are paired up and compared
    /// in depth (a changed key inside an element shows as `items[1].id`).
    static func compareArrays(_ e: [JSONValue], _ a: [JSONValue], path: String, mode: Mode, into out: inout [Change]) {
        let pairs = lcs(e, a)
        var ei = 0
        var ai = 0
        func flush(_ eEnd: Int, _ aEnd: Int) {
            let eRange = ei..<eEnd
            let aRange = ai..<aEnd
            let paired = min(eRange.count, aRange.count)
            for k in 0..<paired {
                compare(e[ei + k], a[ai + k], path: join(path, index: ai + k), mode: mode, into: &out)
            }
            for k in paired..<eRange.count { out.append(.removed(path: join(path, index: ei + k), value: e[ei + k])) }
            for k in paired..<aRange.count {
                out.append(.added(path: join(path, index: ai + k), value: a[ai + k], renamedFrom: nil))
            }
        }
        for (i, j) in pairs {
            flush(i, j)
            ei = i + 1
            ai = j + 1
        }
        flush(e.count, a.count)
    }

    /// Index pairs of a longest common subsequence (arrays in payloads are short; O(n·m) is fine).
    static func lcs(_ e: [JSONValue], _ a: [JSONValue]) -> [(Int, Int)] {
        let n = e.count
        let m = a.count
        if n == 0 || m == 0 { return [] }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = e[i] == a[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var i = 0
        var j = 0
        while i < n, j < m {
            if e[i] == a[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if table[i + 1][j] >= table[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }
}
