import Foundation
import HTTPClient
import HTTPTypes
import PushCrypto
import PushModel

/// `pushcheck send`: one push over real HTTP/2 through our libcurl client, to the mock or anywhere
/// that speaks the APNs provider API. Prints the response as one JSON line.
enum SendCommand: PushcheckCommand {
    static let name = "send"
    static let abstract = "Send one push (APNs provider API over HTTP/2) and print the response as JSON."
    static let synopsis =
        "pushcheck send --url URL --device-token HEX --topic TOPIC [auth] [headers] (--payload JSON | FILE | -)"
    static let options: [OptionSpec] = [
        .value("url", "URL", "Gateway base URL, e.g. the sandbox URL from 'pushcheck serve'."),
        .value("device-token", "HEX", "Device token (hex)."),
        .value("topic", "TOPIC", "apns-topic (bundle ID plus the push type's suffix)."),
        .value("push-type", "TYPE", "apns-push-type (alert, background, voip, …)."),
        .value("priority", "N", "apns-priority (10, 5 or 1)."),
        .value("expiration", "EPOCH", "apns-expiration (0 = deliver now or never)."),
        .value("collapse-id", "ID", "apns-collapse-id."),
        .value("apns-id", "UUID", "apns-id (default: the gateway generates one)."),
        .repeated("header", "'NAME: VALUE'", "Extra request header, sent as given."),
        .value("payload", "JSON", "The payload: JSON text, @FILE or a file's path, or - for stdin."),
        .value("team-id", "TEAM", "Token auth: Team ID."),
        .value("key-id", "KID", "Token auth: Key ID."),
        .value("key", "PATH", "Token auth: the .p8 key."),
        .value("cert", "PATH", "Certificate auth: client certificate PEM."),
        .value("cert-key", "PATH", "Certificate auth: its private key PEM."),
        .value("ca", "PATH", "Trust this CA (e.g. the 'ca' from serve's ready line)."),
        .flag("h2c", "Cleartext HTTP/2 with prior knowledge."),
        .value("timeout", "SECONDS", "Give up after this long (default 30)."),
    ]
    static let discussion =
        "Exit codes: 0 when the gateway answered 200, 1 for any other status, 2 usage, 3 transport errors."

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let url = arguments.value("url") else { throw UsageError("missing --url URL") }
        guard let token = arguments.value("device-token") else { throw UsageError("missing --device-token HEX") }
        let payload = try readPayload(arguments)
        var headers = APNsRequestHeaders(
            topic: arguments.value("topic"), expiration: nil, id: arguments.value("apns-id"),
            collapseID: arguments.value("collapse-id"))
        headers.pushType = arguments.value("push-type")
        headers.priority = arguments.value("priority")
        headers.expiration = arguments.value("expiration")
        for raw in arguments.all("header") {
            guard let colon = raw.firstIndex(of: ":") else {
                throw UsageError("--header expects 'NAME: VALUE', got '\(raw)'")
            }
            let name = raw[..<colon].trimmingCharacters(in: .whitespaces)
            let value = raw[raw.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.extra.append(HTTPField(name, value))
        }
        let authentication = try authentication(arguments)
        let trust = try arguments.value("ca").map { path throws(HTTPClientError) in try TrustRoots.files([path]) }
        let timeout = try arguments.int("timeout", in: 1...3600) ?? 30
        let client = try APNsClient(
            baseURL: url, authentication: authentication, trustRoots: trust,
            httpVersion: arguments.has("h2c") ? .http2PriorKnowledge : .http2, timeout: .seconds(timeout))
        let response: APNsResponse
        do {
            response = try await client.send(deviceToken: token, payload: payload, headers: headers)
        } catch {
            await client.client.shutdownAndWait()
            console.err("pushcheck send: error: \(error)")
            return ExitCode.harness
        }
        // The process exits right after this command: let curl close its TLS connection first.
        await client.client.shutdownAndWait()
        var json: [String: JSONValue] = ["status": .number(Double(response.status))]
        if let r = response.reasonText { json["reason"] = .string(r) }
        if let id = response.apnsID { json["apns_id"] = .string(id) }
        if let id = response.apnsUniqueID { json["apns_unique_id"] = .string(id) }
        if let t = response.timestamp { json["timestamp"] = .number(Double(t)) }
        console.out(JSONValue.object(json).serialized())
        return response.status == 200 ? ExitCode.success : ExitCode.failure
    }

    private static func readPayload(_ arguments: ParsedArguments) throws(UsageError) -> [UInt8] {
        let source: String
        if let text = arguments.value("payload") {
            guard arguments.positionals.isEmpty else {
                throw UsageError("give the payload once: --payload or a file, not both")
            }
            switch PayloadArgument(text) {
            case .text: return Array(text.utf8)
            case .file(let path): source = path
            case .missingFile(let path):
                throw UsageError(
                    "no payload file '\(path)' (--payload takes JSON text, @FILE, a file's path or -; "
                        + "to send other text as it is, pipe it to --payload -)")
            }
        } else {
            guard arguments.positionals.count == 1 else {
                throw UsageError(
                    arguments.positionals.isEmpty
                        ? "missing payload (--payload JSON, a file, or -)" : "too many arguments")
            }
            source = arguments.positionals[0]
        }
        let data =
            source == "-"
            ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: source)
        guard let data else { throw UsageError("cannot read payload file '\(source)'") }
        return Array(data)
    }

    private static func authentication(_ arguments: ParsedArguments) throws -> APNsAuthentication {
        if let keyPath = arguments.value("key") {
            guard let team = arguments.value("team-id"), let kid = arguments.value("key-id") else {
                throw UsageError("token auth needs --team-id, --key-id and --key")
            }
            guard let pem = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
                throw UsageError("cannot read '\(keyPath)'")
            }
            return .token(APNsProviderTokenSigner(teamID: team, keyID: kid, privateKey: try P256PrivateKey(pem: pem)))
        }
        if let cert = arguments.value("cert") {
            guard let key = arguments.value("cert-key") else {
                throw UsageError("certificate auth needs --cert and --cert-key")
            }
            return .certificate(try ClientCertificate(certificateFile: cert, privateKeyFile: key))
        }
        return .none
    }
}

/// What `--payload VALUE` names: `-` is standard input, `@PATH` a file (curl's `-d @file`), a value that does not start
/// like JSON and names an existing file that file; a value shaped like a file's path (no spaces, a `/` or a
/// `.ext`) that names no file is a mistake, not a payload (a misspelt `payload.json` was sent as the text
/// "payload.json"); anything else is the payload's text, sent as it is (malformed JSON included: the gateway's
/// answer to it is what such a send tests).
enum PayloadArgument: Equatable {
    case text
    case file(String)
    case missingFile(String)

    init(_ value: String, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) {
        if value == "-" {
            self = .file("-")
        } else if value.hasPrefix("@") {
            self = .file(String(value.dropFirst()))
        } else if let first = value.utf8.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\"")].contains(first)
        {
            self = .text
        } else if !value.isEmpty && fileExists(value) {
            self = .file(value)
        } else {
            self = Self.looksLikePath(value) ? .missingFile(value) : .text
        }
    }

    /// No whitespace, and a `/` or a final extension that starts with a letter (`payload.json`, `./p`, not `1.5`).
    static func looksLikePath(_ value: String) -> Bool {
        guard !value.isEmpty, !value.contains(where: \.isWhitespace) else { return false }
        if value.contains("/") { return true }
        guard let dot = value.lastIndex(of: "."), dot != value.startIndex else { return false }
        return value[value.index(after: dot)...].first?.isLetter == true
    }
}
