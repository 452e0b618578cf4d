import PushModel
import Testing

/// `PathText.directory(of:)` gives what `NSString.deletingLastPathComponent` gives, without its trap on a
/// one-character path.
@Suite struct PathTextTests {
    @Test(arguments: [
        ("a/b", "a"), ("a//b", "a"), ("a/b/", "a"), ("/a", "/"), ("//a", "/"), ("/a/", "/"), ("/", "/"),
        ("./a", "."), ("../a", ".."), ("ab", ""), ("", ""),
        // Foundation traps on these three.
        ("q", ""), (".", ""), ("q/", ""),
        ("Suites/sub/x.yaml", "Suites/sub"), ("/tmp/ü/ä.yaml", "/tmp/ü"),
    ])
    func directoryOfAPath(path: String, directory: String) {
        #expect(PathText.directory(of: path) == directory)
    }
}
