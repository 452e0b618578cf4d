import CXML2

/// libxml2's process-wide set-up, in one place for every module that parses with it (Reports' JUnit reader and
/// schema check, DeviceSimulator's web view).
package enum LibXML2 {
    /// Runs `xmlInitParser` once per process; call it at the top of every function that parses.
    ///
    /// Why: a parse that starts before `xmlInitParser` makes libxml2 (2.9, as in Debian 12) create some of its
    /// global mutexes lazily, on first use and without a lock; two web views parsing at the same time deadlocked
    /// there (`pushcheck run --jobs 2`). `xmlInitParser` creates them all up front, so it must have run before
    /// any thread parses. It is itself guarded by libxml2's global init lock (racing calls to it are harmless);
    /// the Swift global below, initialised atomically on first use, runs it exactly once.
    @inline(__always)
    package static func initialize() { _ = initialized }

    private static let initialized: Void = xmlInitParser()
}
