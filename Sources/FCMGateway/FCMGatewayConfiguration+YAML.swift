import APNsGateway
import Foundation
import PushCrypto
import PushModel
import YAMLSource

/// The `fcm:` section of `pushcheck serve`'s config (later also a suite world's `gateway: { fcm: … }`),
/// every mistake reported at its `file:line:col` with did-you-mean for keys.
///
/// ```yaml
/// fcm:
///   service_accounts:
///     - { client_email: sa@demo-project.iam.gserviceaccount.com, public_key: sa.pub.pem, projects: [demo-project] }
///     - { credentials_file: service-account.json }     # Google's JSON; its private key then signs too
///   projects:
///     - id: demo-project
///       number: "123456789012"
///       apns: { team_id: TEAM123456, key_id: KEY1234567, environment: sandbox }  # the .p8 from apns.keys
///       # or apns: { certificate: push-cert.pem, environment: production }
///       tokens:
///         - { token: "<fcm token>", apns_token: "<hex>", topic: com.example.app, fid: "<22 chars>" }
///         - { token: "<fcm token>", package_name: com.example.app, app_id: "1:<number>:android:<hex>" }
///         - { token: "<fcm token>", unregistered: true }
///       quota: { per_device_per_minute: 240, per_project_per_minute: 600000 }
///   faults: [{ error: UNAVAILABLE, count: 2, retry_after: 30, token: "<fcm token>" }]
///   access_token_lifetime: 3599
///   log: { capacity: 10000 }
/// ```
/// The keys of each mapping are the tables in FCMGatewayConfiguration+Keys.swift.
extension FCMGatewayConfiguration {
    /// The .p8 keys an `apns:` section declares with `private_key:` (key ID → team, key), which FCM projects
    /// name in `apns: { key_id: … }`.
    package static func apnsSigningKeys(apnsSection m: YAMLMapping?, file: String) throws(SourceError) -> [String: (
        teamID: String, key: P256PrivateKey
    )] {
        var out: [String: (String, P256PrivateKey)] = [:]
        for node in try m?.optionalSequence("keys") ?? [] {
            let k = try node.mapping()
            guard let keyNode = k["private_key"] else { continue }
            let pem = String(decoding: try keyNode.referencedFile(from: file).bytes, as: UTF8.self)
            guard let key = try? P256PrivateKey(pem: pem) else { continue }  // the APNs section reports bad keys itself
            out[try k.required("key_id", as: String.self)] = (try k.required("team_id", as: String.self), key)
        }
        return out
    }

    /// Decodes an `fcm:` mapping; relative paths resolve against `file`'s directory.
    package static func decode(
        _ m: YAMLMapping, file: String, apnsKeys: [String: (teamID: String, key: P256PrivateKey)]
    ) throws(SourceError) -> FCMGatewayConfiguration {
        try m.checkKeys(keyTable)
        var c = FCMGatewayConfiguration()
        for node in try m.optionalSequence("projects") ?? [] {
            let p = try decodeProject(node, file: file, apnsKeys: apnsKeys)
            if c.projects.contains(where: { $0.id == p.id }) {
                throw try node.mapping()["id"]!.invalidValue(
                    expected: "a unique project id; '\(p.id)' is declared twice")
            }
            c.projects.append(p)
        }
        for node in try m.optionalSequence("service_accounts") ?? [] {
            c.serviceAccounts.append(try decodeServiceAccount(node, file: file, projects: c.projects))
        }
        for node in try m.optionalSequence("faults") ?? [] { c.faults.append(try decodeFault(node)) }
        if let lifetime = try m.optional("access_token_lifetime", as: Int.self) {
            guard lifetime >= 1 else {
                throw m["access_token_lifetime"]!.invalidValue(expected: "expected seconds, at least 1")
            }
            c.accessTokenLifetime = lifetime
        }
        if let log = try m.optionalMapping("log", keys: logTable) {
            let capacity = try log.required("capacity", as: Int.self)
            guard capacity >= 1 else {
                throw log["capacity"]!.invalidValue(expected: "expected a whole number of at least 1")
            }
            c.logCapacity = capacity
        }
        return c
    }

    static func decodeServiceAccount(_ node: YAMLNode, file: String, projects: [FCMProject]) throws(SourceError)
        -> FCMServiceAccount
    {
        let s = try node.mapping(keys: serviceAccountTable)
        let which = try s.exactlyOne(of: ["public_key", "credentials_file"])
        var account: FCMServiceAccount
        var defaultProjects: Set<String> = []
        if which == "public_key" {
            let email = try s.required("client_email", as: String.self)
            let keyNode = s["public_key"]!
            let (path, bytes) = try keyNode.referencedFile(from: file, expected: "expected an RSA public key (PEM)")
            let pem = String(decoding: bytes, as: UTF8.self)
            if let key = try? RSAPublicKey(pem: pem) {
                account = FCMServiceAccount(clientEmail: email, publicKey: key)
            } else if let key = try? RSAPrivateKey(pem: pem) {
                account = FCMServiceAccount(clientEmail: email, publicKey: key.publicKey, privateKey: key)
            } else {
                throw SourceError(
                    .invalidValue, "cannot use '\(path)' as the key of \(email)", at: keyNode.range,
                    expected: "expected an RSA public key in PEM (BEGIN PUBLIC KEY) or the account's private key",
                    suggestion: "openssl rsa -in key.pem -pubout > sa.pub.pem")
            }
        } else {
            let fileNode = s["credentials_file"]!
            let (path, bytes) = try fileNode.referencedFile(
                from: file, expected: "expected a service-account JSON file")
            func bad(_ why: String) -> SourceError {
                SourceError(
                    .invalidValue, "cannot use '\(path)' as a service account: \(why)", at: fileNode.range,
                    expected: "expected Google's service-account JSON (type, project_id, private_key, client_email …)")
            }
            guard let json = try? JSONValue.parse(bytes) else { throw bad("not JSON") }
            guard let email = json["client_email"]?.stringValue else { throw bad("no client_email") }
            guard let pem = json["private_key"]?.stringValue, let key = try? RSAPrivateKey(pem: pem) else {
                throw bad("private_key is missing or not an RSA key")
            }
            if let given = try s.optional("client_email", as: String.self), given != email {
                throw s["client_email"]!.invalidValue(expected: "the file's client_email '\(email)'")
            }
            account = FCMServiceAccount(
                clientEmail: email, publicKey: key.publicKey, privateKey: key,
                privateKeyID: json["private_key_id"]?.stringValue)
            if let p = json["project_id"]?.stringValue { defaultProjects = [p] }
        }
        if let list = try s.optional("projects", as: [String].self) {
            let known = projects.flatMap { [$0.id, $0.number] }
            for (i, name) in list.enumerated() where !known.contains(name) {
                let item = try s["projects"]!.sequence()[i]
                throw item.invalidValue(
                    expected: "a project declared under fcm.projects (\(projects.map(\.id).joined(separator: ", ")))",
                    suggestion: Spelling.closest(to: name, in: projects.map(\.id)).map { "did you mean '\($0)'?" })
            }
            account.projects = Set(list)
        } else {
            account.projects = defaultProjects
        }
        return account
    }

    static func decodeProject(_ node: YAMLNode, file: String, apnsKeys: [String: (teamID: String, key: P256PrivateKey)])
        throws(SourceError) -> FCMProject
    {
        let p = try node.mapping(keys: projectTable)
        let id = try p.required("id", as: String.self)
        let number = try p.required("number", as: String.self)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw p["number"]!.invalidValue(expected: "the project number: digits only, e.g. \"123456789012\"")
        }
        var project = FCMProject(id: id, number: number)
        if let a = try p.optionalMapping("apns", keys: projectAPNsTable) {
            let environment = try a.optional("environment", as: APNsEnvironment.self) ?? .production
            if try a.exactlyOne(of: ["key_id", "certificate"]) == "certificate" {
                for key in ["team_id", "private_key"] where a[key] != nil {
                    throw a[key]!.invalidValue(
                        expected: "no \(key) with a certificate (the certificate names the team and app)")
                }
                let certNode = a["certificate"]!
                let (path, bytes) = try certNode.referencedFile(
                    from: file, expected: "expected the push certificate (PEM)")
                guard let cert = try? CertificateInfo(pem: String(decoding: bytes, as: UTF8.self)) else {
                    throw SourceError(
                        .invalidValue, "cannot use '\(path)' as an APNs certificate", at: certNode.range,
                        expected:
                            "expected the Apple push certificate in PEM (openssl pkcs12 -in cert.p12 -clcerts -nokeys)")
                }
                project.apns = FCMAPNsCredentials(certificateDER: cert.der, environment: environment)
                return try decodeTokensAndQuota(p, into: project)
            }
            let keyID = try a.required("key_id", as: String.self)
            let team = try a.required("team_id", as: String.self)
            let key: P256PrivateKey
            if let keyNode = a["private_key"] {
                let (path, bytes) = try keyNode.referencedFile(from: file, expected: "expected the .p8 key")
                guard let k = try? P256PrivateKey(pem: String(decoding: bytes, as: UTF8.self)) else {
                    throw SourceError(
                        .invalidValue, "cannot use '\(path)' as an APNs key", at: keyNode.range,
                        expected: "expected the .p8 file Apple gave you")
                }
                key = k
            } else if let known = apnsKeys[keyID] {
                guard known.teamID == team else {
                    throw a["team_id"]!.invalidValue(
                        expected: "the team of key \(keyID) in apns.keys ('\(known.teamID)')")
                }
                key = known.key
            } else {
                throw a["key_id"]!.invalidValue(
                    expected:
                        "a key declared under apns.keys with private_key: (Firebase signs with the .p8), or private_key: here",
                    suggestion: Spelling.closest(to: keyID, in: Array(apnsKeys.keys)).map { "did you mean '\($0)'?" })
            }
            project.apns = FCMAPNsCredentials(teamID: team, keyID: keyID, privateKey: key, environment: environment)
        }
        return try decodeTokensAndQuota(p, into: project)
    }

    static func decodeTokensAndQuota(_ p: YAMLMapping, into project: FCMProject) throws(SourceError) -> FCMProject {
        var project = project
        var seen = Set<String>()
        for t in try p.optionalSequence("tokens") ?? [] {
            let entry = try decodeToken(t)
            guard seen.insert(entry.token).inserted else {
                throw try t.mapping()["token"]!.invalidValue(expected: "a token not listed before in this project")
            }
            project.tokens.append(entry)
        }
        if let q = try p.optionalMapping("quota", keys: quotaTable) {
            for key in ["per_device_per_minute", "per_project_per_minute"] {
                if let n = try q.optional(key, as: Int.self), n < 1 {
                    throw q[key]!.invalidValue(expected: "expected at least 1")
                }
            }
            project.quota = FCMQuota(
                perDevicePerMinute: try q.optional("per_device_per_minute", as: Int.self),
                perProjectPerMinute: try q.optional("per_project_per_minute", as: Int.self))
        }
        return project
    }

    /// One `tokens:` entry (also the body of the control endpoint's POST /fcm/tokens, which adds `project`).
    package static func decodeToken(_ node: YAMLNode, alsoAllowing extra: [String] = []) throws(SourceError)
        -> FCMRegisteredToken
    {
        let t = try node.mapping(allowedKeys: tokenTable.names + extra)
        let token = try t.required("token", as: String.self)
        guard !token.isEmpty else { throw t["token"]!.invalidValue(expected: "a non-empty FCM registration token") }
        let apnsToken = try t.optional("apns_token", as: DeviceToken.self)
        let topic = try t.optional("topic", as: String.self)
        if apnsToken != nil, topic == nil {
            throw SourceError(
                .missingKey, "missing required key 'topic'", at: t.range,
                expected: "the app's bundle ID beside apns_token (FCM sends it as apns-topic)")
        }
        let package = try t.optional("package_name", as: String.self)
        if package != nil, apnsToken != nil {
            throw t["package_name"]!.invalidValue(
                expected: "either apns_token (an iOS instance) or package_name (Android)")
        }
        let appID = try t.optional("app_id", as: String.self)
        if appID != nil, package == nil {
            throw SourceError(
                .missingKey, "missing required key 'package_name'", at: t.range,
                expected: "the Android app's package beside app_id")
        }
        return FCMRegisteredToken(
            token: token, apnsToken: apnsToken, bundleID: topic, fid: try t.optional("fid", as: String.self),
            unregistered: try t.optional("unregistered", as: Bool.self) ?? false,
            android: package.map { FCMAndroidInstance(packageName: $0, appID: appID) })
    }

    /// One `faults:` entry (also the body of POST /fcm/faults).
    package static func decodeFault(_ node: YAMLNode) throws(SourceError) -> FCMFault {
        let f = try node.mapping(keys: faultTable)
        let code = FCMErrorCode(rawValue: try f.required("error", oneOf: FCMErrorCode.allCases.map(\.rawValue)))!
        let count = try f.optional("count", as: Int.self)
        if let count, count < 1 { throw f["count"]!.invalidValue(expected: "expected a count of at least 1") }
        let retry = try f.optional("retry_after", as: Int.self)
        if let retry, retry < 0 { throw f["retry_after"]!.invalidValue(expected: "expected seconds, 0 or more") }
        if retry != nil, !FCMFault.retryAfterCodes.contains(code) {
            throw f["retry_after"]!.invalidValue(
                expected:
                    "no retry_after for \(code.rawValue): Google sends Retry-After only with QUOTA_EXCEEDED and UNAVAILABLE"
            )
        }
        return FCMFault(code, token: try f.optional("token", as: String.self), count: count, retryAfter: retry)
    }
}
