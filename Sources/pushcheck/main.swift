import CJemalloc  // links jemalloc, the process's malloc and free
import Dispatch
import Foundation
import PushcheckCommands

// Thin executable: everything lives in PushcheckCommands so it can be tested.
// No top-level `await`: this code must run synchronously on the main thread so that the signal
// mask set by `Signals.install()` is inherited by every thread started afterwards.
Signals.install()
let arguments = Array(CommandLine.arguments.dropFirst())
Task {
    exit(await Pushcheck.main(arguments))
}
dispatchMain()
