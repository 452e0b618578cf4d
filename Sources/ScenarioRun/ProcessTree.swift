import CLinux
import Foundation

/// Finds and kills the processes a `run:` step started, wherever they went.
///
/// A command can leave its process group (`setsid`) and its parent can exit, so neither the group nor
/// the parent/child tree of the moment is enough. Two things together are:
/// - pushcheck is a child subreaper (`PR_SET_CHILD_SUBREAPER`): an orphan of any of its commands is
///   re-parented to pushcheck instead of init, so it stays a descendant;
/// - every step's environment carries `PUSHCHECK_STEP_TOKEN=<unique>`, inherited by everything it starts,
///   so the descendants of one step are told apart from another's under `--jobs N`.
/// A descendant that cleared its environment (`env -i`) is still a descendant: `killAllDescendants()`
/// at exit catches it.
package enum ProcessTree {
    /// The environment variable that marks a step's processes.
    static let tokenVariable = "PUSHCHECK_STEP_TOKEN"

    /// Makes pushcheck the reaper of its commands' orphans (once; later calls do nothing).
    static func becomeSubreaper() {
        _ = subreaper
    }

    private static let subreaper: Bool = pc_set_child_subreaper() == 0

    /// Kills (SIGKILL) every descendant of pushcheck whose environment carries `token`, and every
    /// descendant of `root` (the step's shell), repeating until none is left (a process forking while
    /// it is being killed is caught on the next round). Reaps the orphans it killed; never reaps
    /// `root`, which belongs to Foundation's `Process`.
    package static func kill(token: String, root: pid_t) {
        let marker = Array("\(tokenVariable)=\(token)".utf8)
        var killed: Set<pid_t> = []
        for _ in 0..<20 {
            let table = processTable()
            let mine = descendants(of: getpid(), in: table)
            let underRoot = descendants(of: root, in: table)
            var victims: [pid_t] = []
            for pid in mine where table[pid]?.zombie == false {
                if underRoot.contains(pid) || pid == root || environment(of: pid, contains: marker) {
                    victims.append(pid)
                }
            }
            if victims.isEmpty { break }
            for pid in victims { Foundation.kill(pid, SIGKILL) }
            killed.formUnion(victims)
        }
        reap(killed.subtracting([root]))
    }

    /// Kills every descendant of pushcheck (what is left when a run ends or is interrupted). Call it
    /// only when pushcheck is about to exit: it reaps nothing (init does, once pushcheck is gone).
    package static func killAllDescendants() {
        for _ in 0..<20 {
            let table = processTable()
            let victims = descendants(of: getpid(), in: table).filter { table[$0]?.zombie == false }
            if victims.isEmpty { break }
            for pid in victims { Foundation.kill(pid, SIGKILL) }
        }
    }

    // MARK: /proc

    struct Entry {
        var parent: pid_t
        var zombie: Bool
    }

    /// pid → (parent, zombie) for every process visible in /proc.
    static func processTable() -> [pid_t: Entry] {
        var table: [pid_t: Entry] = [:]
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return table }
        for name in names {
            guard let pid = pid_t(name), let entry = stat(of: pid) else { continue }
            table[pid] = entry
        }
        return table
    }

    /// Parses `/proc/<pid>/stat`: the fields after the command name (which may contain spaces and ')').
    private static func stat(of pid: pid_t) -> Entry? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let close = data.lastIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let fields = data[data.index(after: close)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 2, let state = fields[0].first,
            let parent = pid_t(String(decoding: fields[1], as: UTF8.self))
        else { return nil }
        return Entry(parent: parent, zombie: state == UInt8(ascii: "Z") || state == UInt8(ascii: "X"))
    }

    static func descendants(of root: pid_t, in table: [pid_t: Entry]) -> Set<pid_t> {
        var children: [pid_t: [pid_t]] = [:]
        for (pid, entry) in table { children[entry.parent, default: []].append(pid) }
        var found: Set<pid_t> = []
        var stack = children[root] ?? []
        while let pid = stack.popLast() {
            guard found.insert(pid).inserted else { continue }
            stack.append(contentsOf: children[pid] ?? [])
        }
        return found
    }

    private static func environment(of pid: pid_t, contains marker: [UInt8]) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        for entry in data.split(separator: 0) where entry.elementsEqual(marker) { return true }
        return false
    }

    /// Waits (briefly) for killed orphans so they do not stay zombies for the rest of the run.
    private static func reap(_ pids: Set<pid_t>) {
        let me = getpid()
        for pid in pids {
            for _ in 0..<100 {
                guard let entry = stat(of: pid), entry.parent == me else { break }
                var status: Int32 = 0
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid || (r < 0 && errno == ECHILD) { break }
                usleep(10_000)
            }
        }
    }
}
