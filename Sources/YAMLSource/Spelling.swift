/// "Did you mean …?" suggestions.
package enum Spelling {
    /// The candidate closest to `word`, or nil when none is plausibly a typo of it.
    ///
    /// In order: a case-insensitive exact match; a candidate that `word` is a prefix
    /// of (or the reverse, `prod` → `production`); then the smallest edit distance
    /// (insertions, deletions, substitutions and adjacent transpositions each cost 1)
    /// if it is at most max(1, length/3) for short words and 3 at most. Ties go to the
    /// earlier candidate.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let lower = word.lowercased()
        guard !lower.isEmpty else { return nil }
        if let same = candidates.first(where: { $0.lowercased() == lower }) { return same }
        if lower.count >= 2,
            let prefixed = candidates.first(where: {
                let c = $0.lowercased()
                return c.hasPrefix(lower) || (c.count >= 3 && lower.hasPrefix(c))
            })
        {
            return prefixed
        }
        let limit = min(3, max(1, lower.count / 3))
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(lower, candidate.lowercased())
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a.unicodeScalars)
        let y = Array(b.unicodeScalars)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var d = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
