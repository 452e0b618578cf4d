import Foundation
import PushcheckCommands

// Thin executable: everything lives in PushcheckCommands so it can be tested.
let code = await Pushcheck.main(Array(CommandLine.arguments.dropFirst()))
exit(code)
