import Foundation
import PushModel
import PushcheckTestSupport

/// Builds real `.mobileprovision` files: an XML plist CMS-signed (embedded content) with a throwaway
/// certificate made by the `openssl` CLI, as Apple's are (but with a self-signed signer).
enum ProfileFixture {
    /// One throwaway self-signed signer per test process.
    static let signer: Result<CertificateFiles, any Error> = Result {
        try OpenSSLCertificateMaker(in: try TempDirectory.forProcess("pushcheck-prov-signer"))
            .selfSigned("signer", commonName: "pushcheck test profile signer")
    }

    /// CMS-signs `plist` (DER, content embedded unless `detached`).
    static func sign(_ plist: String, detached: Bool = false) throws -> Data {
        let signer = try signer.get()
        let dir = try TempDirectory("pushcheck-prov")
        defer { dir.remove() }
        let input = try dir.write("in.plist", plist)
        var args = [
            "cms", "-sign", "-binary", "-outform", "DER", "-in", input, "-out", dir.file("out.der"),
            "-signer", signer.cert, "-inkey", signer.key,
        ]
        if !detached { args.append("-nodetach") }
        try runTool("openssl", args).requireSuccess()
        return Data(try dir.read("out.der"))
    }

    static func date(_ s: String) -> Date { ISO8601.date(s)! }  // not ISO8601DateFormatter (see PushModel's ISO8601)

    /// The XML plist of a profile with the given facts (keys as in TN3125).
    static func profileXML(
        name: String = "pushcheck Dev", uuid: String = "5B1E0A3C-0000-4000-8000-000000000001",
        team: String = "ABCDE12345", appID: String = "ABCDE12345.com.example.app", aps: String? = "development",
        getTaskAllow: Bool = true, devices: [String]? = ["00008110-000A1C2E0E12801E"], allDevices: Bool = false,
        created: String = "2026-01-01T00:00:00Z", expires: String = "2027-01-01T00:00:00Z"
    ) -> String {
        var ents = "<key>application-identifier</key><string>\(appID)</string>"
        ents += "<key>com.apple.developer.team-identifier</key><string>\(team)</string>"
        ents += "<key>get-task-allow</key>" + (getTaskAllow ? "<true/>" : "<false/>")
        if let aps { ents += "<key>aps-environment</key><string>\(aps)</string>" }
        var body = """
            <key>AppIDName</key><string>Example</string>
            <key>ApplicationIdentifierPrefix</key><array><string>\(team)</string></array>
            <key>CreationDate</key><date>\(created)</date>
            <key>ExpirationDate</key><date>\(expires)</date>
            <key>Entitlements</key><dict>\(ents)</dict>
            <key>Name</key><string>\(name)</string>
            <key>Platform</key><array><string>iOS</string></array>
            <key>TeamIdentifier</key><array><string>\(team)</string></array>
            <key>TeamName</key><string>Example Team</string>
            <key>TimeToLive</key><integer>365</integer>
            <key>UUID</key><string>\(uuid)</string>
            <key>Version</key><integer>1</integer>
            """
        if let devices {
            body +=
                "<key>ProvisionedDevices</key><array>" + devices.map { "<string>\($0)</string>" }.joined() + "</array>"
        }
        if allDevices { body += "<key>ProvisionsAllDevices</key><true/>" }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(body)</dict></plist>
            """
    }
}
