import Foundation
import Provisioning
import PushCrypto
import PushModel

/// The files `doctor` is asked to read (any subset). Paths are used as given in findings.
package struct DoctorFilePaths: Sendable, Equatable {
    package var profile: String?
    package var entitlements: String?
    package var infoPlist: String?
    /// A built `.app` bundle: its `embedded.mobileprovision`, `Info.plist`, `archived-expanded-entitlements.xcent`
    /// and `PlugIns/*.appex/Info.plist` are used for whatever the other paths do not give.
    package var app: String?
    package var apnsKey: String?
    package var apnsCertificate: String?
    /// The `.p12` password ("" when none).
    package var certificatePassword: String = ""
    package var googleServiceInfo: String?
    package var serviceAccount: String?
    /// An Android app's `google-services.json`.
    package var googleServices: String?
    /// A plain-XML `AndroidManifest.xml` (binary AXML is refused with the way to get a plain one).
    package var androidManifest: String?

    package init() {}

    /// True when no file at all was named.
    package var isEmpty: Bool {
        [
            profile, entitlements, infoPlist, app, apnsKey, apnsCertificate, googleServiceInfo, serviceAccount,
            googleServices, androidManifest,
        ].allSatisfy { $0 == nil }
    }
}

/// Reads and parses doctor's input files. The only part of doctor that touches the disk; every
/// failure becomes a `DoctorFinding` naming the file and the reason.
package enum DoctorInputLoader {
    package static func load(_ paths: DoctorFilePaths) -> DoctorInputs {
        var inputs = DoctorInputs()
        inputs.profile = paths.profile.map(profile)
        inputs.entitlements = paths.entitlements.map { plist($0, expected: "an .entitlements property list") }
        inputs.entitlementsAreSigned = paths.entitlements?.hasSuffix(".xcent") ?? false
        inputs.infoPlist = paths.infoPlist.map { plist($0, expected: "an Info.plist (XML or binary)") }
        if let app = paths.app { addBundle(app, to: &inputs) }
        inputs.apnsKey = paths.apnsKey.map(apnsKey)
        inputs.apnsCertificate = paths.apnsCertificate.map { certificate($0, password: paths.certificatePassword) }
        inputs.googleServiceInfo = paths.googleServiceInfo.map {
            plist($0, expected: "the GoogleService-Info.plist downloaded from the Firebase console")
        }
        inputs.serviceAccount = paths.serviceAccount.map(serviceAccount)
        inputs.googleServices = paths.googleServices.map(googleServices)
        inputs.androidManifest = paths.androidManifest.map(androidManifest)
        return inputs
    }

    /// Fills what a `.app` bundle provides and the explicit paths did not.
    static func addBundle(_ app: String, to inputs: inout DoctorInputs) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: app, isDirectory: &isDirectory), isDirectory.boolValue else {
            inputs.infoPlist =
                inputs.infoPlist
                ?? DoctorFile(
                    path: app,
                    content: .failure(.unreadable(app, reason: "not a directory", expected: "--app Payload/App.app")))
            return
        }
        let embedded = app + "/embedded.mobileprovision"
        if inputs.profile == nil {
            inputs.profile =
                fm.fileExists(atPath: embedded)
                ? profile(embedded)
                : DoctorFile(
                    path: embedded,
                    content: .failure(
                        .unreadable(
                            embedded, reason: "the app has no embedded.mobileprovision (App Store builds have none)",
                            expected: "--profile X.mobileprovision")))
        }
        if inputs.infoPlist == nil { inputs.infoPlist = plist(app + "/Info.plist", expected: "the app's Info.plist") }
        let xcent = app + "/archived-expanded-entitlements.xcent"
        if inputs.entitlements == nil, fm.fileExists(atPath: xcent) {
            inputs.entitlements = plist(xcent, expected: "the app's signed entitlements")
            inputs.entitlementsAreSigned = true
        }
        let plugins = app + "/PlugIns"
        let appexes = ((try? fm.contentsOfDirectory(atPath: plugins)) ?? []).filter { $0.hasSuffix(".appex") }.sorted()
        for appex in appexes {
            let path = "\(plugins)/\(appex)/Info.plist"
            let parsed = plist(path, expected: "the extension's Info.plist")
            inputs.extensions.append(
                DoctorFile(
                    path: path,
                    content: parsed.content.map { info in
                        let embedded = "\(plugins)/\(appex)/embedded.mobileprovision"
                        return ExtensionFile(
                            info: info, bytes: FileManager.default.contents(atPath: path) ?? Data(),
                            profile: fm.fileExists(atPath: embedded) ? profile(embedded) : nil)
                    }))
        }
    }

    static func read(_ path: String, expected: String) -> Result<Data, DoctorFinding> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.unreadable(path, reason: "no such file", expected: expected))
        }
        if isDirectory.boolValue { return .failure(.unreadable(path, reason: "is a directory", expected: expected)) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.unreadable(path, reason: "cannot be read (permissions?)", expected: expected))
        }
        return .success(data)
    }

    /// Why a file that was read is still not usable, in the words the finding shows.
    struct Unusable: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads `path` and hands its bytes to `parse`; a read failure, or anything `parse` throws, is an
    /// `unreadable` finding naming the file (an `Unusable` with its own words, any other error as it describes itself).
    static func parsed<Content>(
        _ path: String, expected: String, _ parse: (Data) throws -> Content
    ) -> DoctorFile<Content> {
        DoctorFile(
            path: path,
            content: read(path, expected: expected).flatMap { data in
                do {
                    return .success(try parse(data))
                } catch {
                    return .failure(.unreadable(path, reason: "\(error)", expected: expected))
                }
            })
    }

    /// A property list whose root is a dictionary. External entities are never resolved: the bytes go
    /// to Foundation's own plist parser, which has no network or file access (see the XXE test).
    static func plist(_ path: String, expected: String) -> DoctorFile<[String: PlistValue]> {
        parsed(path, expected: expected) { data in
            let value = try PlistValue.parse(data, source: path)
            guard let dictionary = value.dictionaryValue else {
                throw Unusable("the root is a \(value.typeName), not a dictionary")
            }
            return dictionary
        }
    }

    static func profile(_ path: String) -> DoctorFile<ProfileFile> {
        parsed(path, expected: "the .mobileprovision as downloaded from the developer portal or Xcode") { data in
            let profile = try ProvisioningProfile(mobileprovision: data, source: path)
            let cms = try? CMSSignedData(der: [UInt8](data))
            let plist = try? PlistValue.parse(cms.map { Data($0.content) } ?? data, source: path)
            let certificates = (plist?["DeveloperCertificates"]?.arrayValue ?? []).compactMap { item in
                if case .data(let der) = item { return try? CertificateInfo(der: der) } else { return nil }
            }
            return ProfileFile(
                profile: profile, signatureVerifies: !(cms?.signers.isEmpty ?? true),
                signers: cms?.signerSubjects.map(\.oneLine) ?? [], developerCertificates: certificates,
                isCMS: cms != nil)
        }
    }

    static func apnsKey(_ path: String) -> DoctorFile<APNsKeyFile> {
        parsed(path, expected: "the AuthKey_<KEYID>.p8 downloaded from Certificates, Identifiers & Profiles ▸ Keys") {
            data in
            do {
                return APNsKeyFile(key: try P256PrivateKey(pem: String(decoding: data, as: UTF8.self)), wrongType: nil)
            } catch KeyError.wrongKeyType(_, let found) {
                return APNsKeyFile(key: nil, wrongType: found)
            }
        }
    }

    /// A push certificate: PEM, DER (`aps.cer` as downloaded) or a `.p12` export.
    static func certificate(_ path: String, password: String) -> DoctorFile<CertificateInfo> {
        parsed(path, expected: "the push certificate as PEM, .cer (DER) or a .p12 export with --password") { data in
            let bytes = [UInt8](data)
            if bytes.starts(with: Array("-----BEGIN".utf8))
                || String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE")
            {
                return try pushCertificate(pem: String(decoding: bytes, as: UTF8.self))
            }
            if let der = try? CertificateInfo(der: bytes) { return der }
            return try PKCS12Bundle(der: bytes, password: password).info
        }
    }

    /// The push certificate among a PEM's certificates: a PEM exported with its chain may list the intermediate CA
    /// first. The one with Apple's push extensions (…6.3.1/…6.3.2) or a UID (the App ID) is the client certificate;
    /// else the first, as before.
    static func pushCertificate(pem: String) throws -> CertificateInfo {
        let end = "-----END CERTIFICATE-----"
        let blocks = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { body in
            body.range(of: end).map { "-----BEGIN CERTIFICATE-----" + body[..<$0.upperBound] }
        }
        let certificates = blocks.compactMap { try? CertificateInfo(pem: $0) }
        if let push = certificates.first(where: { !$0.apnsEnvironments.isEmpty || $0.subject.userID != nil }) {
            return push
        }
        return try certificates.first ?? CertificateInfo(pem: pem)
    }

    static func serviceAccount(_ path: String) -> DoctorFile<JSONValue> {
        parsed(path, expected: "the service-account key JSON from the Google Cloud console") { data in
            let json: JSONValue
            do { json = try JSONValue.parse([UInt8](data)) } catch { throw Unusable("not JSON (\(error))") }
            guard json.objectValue != nil else { throw Unusable("the JSON root is not an object") }
            return json
        }
    }
}
