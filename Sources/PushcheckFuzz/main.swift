// libFuzzer driver for `FuzzTargets`; built only by `make fuzz` (PUSHCHECK_FUZZ=1, -sanitize=fuzzer).
// Usage: pushcheck-fuzz <json|jwt|yaml|plist|http1> [libFuzzer flags and corpus directories…]
import FuzzTargets
import Glibc

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTargets.all[arguments[1]] else {
    let names = FuzzTargets.all.keys.sorted().joined(separator: "|")
    print("usage: pushcheck-fuzz <\(names)> [libFuzzer flags] [corpus dirs]")
    exit(2)
}
// libFuzzer callbacks are C function pointers: the chosen target reaches it through a global.
nonisolated(unsafe) var selected: ([UInt8]) -> Void = target
// The selector is ours, not libFuzzer's: argv from the selector on, with the program name in its place.
CommandLine.unsafeArgv[1] = CommandLine.unsafeArgv[0]
var argv = CommandLine.unsafeArgv + 1
var argc = CommandLine.argc - 1
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        selected(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
