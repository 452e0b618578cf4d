import COpenSSL
import Foundation

/// Which APNs gateways a push certificate may use (Apple OIDs 1.2.840.113635.100.6.3.1 / .2).
package struct APNsCertificateEnvironments: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// api.sandbox.push.apple.com (OID …6.3.1).
    package static let sandbox = APNsCertificateEnvironments(rawValue: 1)
    /// api.push.apple.com (OID …6.3.2).
    package static let production = APNsCertificateEnvironments(rawValue: 2)
    /// Both, as Apple's current "Apple Push Services" certificates allow.
    static let both: APNsCertificateEnvironments = [.sandbox, .production]

    package var description: String {
        switch self {
        case .both: return "sandbox+production"
        case .sandbox: return "sandbox"
        case .production: return "production"
        default: return "none"
        }
    }
}

/// What an Apple-shaped APNs client (provider) certificate should say.
package struct APNsClientCertificateRequest: Sendable {
    /// The app's bundle ID; becomes `UID=` and the base topic.
    package var bundleID: String
    /// The 10-character Team ID; becomes `OU=`.
    package var teamID: String
    var organization: String
    var country: String
    package var environments: APNsCertificateEnvironments
    /// Topics for the …6.3.6 extension; nil means the extension is omitted (as in Apple's old
    /// single-environment certificates). Default: bundle ID, `.voip`, `.complication`.
    package var topics: [String]?
    /// Subject CN; nil derives Apple's wording from `environments`.
    package var commonName: String?
    package var notBefore: Date
    package var notAfter: Date
    var keyType: CertificateKeyType

    package init(
        bundleID: String, teamID: String, organization: String = "Pushcheck Test Org", country: String = "US",
        environments: APNsCertificateEnvironments = .both, topics: [String]? = nil, commonName: String? = nil,
        notBefore: Date = Date(timeIntervalSinceNow: -3600), notAfter: Date = Date(timeIntervalSinceNow: 365 * 86400),
        keyType: CertificateKeyType = .p256
    ) {
        self.bundleID = bundleID
        self.teamID = teamID
        self.organization = organization
        self.country = country
        self.environments = environments
        self.topics = topics ?? [bundleID, bundleID + ".voip", bundleID + ".complication"]
        self.commonName = commonName
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.keyType = keyType
    }

    /// Apple's CN for these environments: "Apple Push Services: …" (both),
    /// "Apple Development IOS Push Services: …", "Apple Production IOS Push Services: …".
    var effectiveCommonName: String {
        if let commonName { return commonName }
        switch environments {
        case .sandbox: return "Apple Development IOS Push Services: \(bundleID)"
        case .production: return "Apple Production IOS Push Services: \(bundleID)"
        default: return "Apple Push Services: \(bundleID)"
        }
    }
}

/// A local certificate authority for the mock gateways: issues TLS server certificates and
/// Apple-shaped APNs client certificates.
package struct CertificateAuthority: Sendable, Equatable {
    /// The CA's own (self-signed) certificate and key.
    package let certificate: IssuedCertificate

    /// Loads a CA from its certificate and key PEM.
    package init(certificatePEM: String, privateKeyPEM: String) throws {
        certificate = try IssuedCertificate(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
    }

    private init(certificate: IssuedCertificate) { self.certificate = certificate }

    /// Generates a new self-signed CA (P-256, valid from an hour ago for `validity` seconds; default 10 years).
    package static func generate(
        commonName: String, organization: String = "pushcheck", validity: TimeInterval = 10 * 365 * 86400
    ) throws -> CertificateAuthority {
        let key = try CertificateKeyType.p256.generate()
        let builder = CertificateBuilder(
            subject: [("CN", commonName), ("O", organization)],
            notBefore: Date(timeIntervalSinceNow: -3600), notAfter: Date(timeIntervalSinceNow: validity),
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE"),
                (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"),
                (NID_subject_key_identifier, "hash"),
            ])
        let der = try builder.sign(subjectKey: key, issuer: nil, issuerKey: key)
        return CertificateAuthority(certificate: IssuedCertificate(der: der, privateKeyDER: try key.pkcs8DER()))
    }

    /// CA certificate PEM (what clients put in their trust store / `curl --cacert`).
    package var certificatePEM: String { certificate.pem }

    /// Issues a TLS server certificate. `ipAddresses` are textual IPv4/IPv6 ("127.0.0.1", "::1").
    package func issueServerCertificate(
        commonName: String = "localhost",
        dnsNames: [String] = [
            "localhost", "api.development.push.apple.com", "api.sandbox.push.apple.com", "api.push.apple.com",
            "api-manage-broadcast.sandbox.push.apple.com", "api-manage-broadcast.push.apple.com",
            "api-broadcast.sandbox.push.apple.com", "api-broadcast.push.apple.com",
        ],
        ipAddresses: [String] = ["127.0.0.1", "::1"],
        notBefore: Date = Date(timeIntervalSinceNow: -3600), notAfter: Date = Date(timeIntervalSinceNow: 365 * 86400),
        keyType: CertificateKeyType = .p256
    ) throws -> IssuedCertificate {
        for ip in ipAddresses where !IPAddressText.isValid(ip) {
            throw CertificateError.invalidRequest(detail: "'\(ip)' is not an IPv4 or IPv6 address")
        }
        for name in dnsNames where name.isEmpty || name.contains(",") || name.contains(" ") {
            throw CertificateError.invalidRequest(detail: "'\(name)' is not a DNS name")
        }
        let sans = (dnsNames.map { "DNS:\($0)" } + ipAddresses.map { "IP:\($0)" }).joined(separator: ",")
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
        ]
        if !sans.isEmpty { extensions.append((NID_subject_alt_name, sans)) }
        let builder = CertificateBuilder(
            subject: [("CN", commonName)], notBefore: notBefore, notAfter: notAfter, extensions: extensions)
        return try issue(builder, keyType: keyType)
    }

    /// Issues a client certificate shaped like Apple's APNs provider certificates:
    /// subject `UID=<bundle>, CN=Apple Push Services: <bundle>, OU=<team>, O=…, C=…`,
    /// extensions …6.3.1 / …6.3.2 per environment and …6.3.6 with the topics.
    package func issueAPNsClientCertificate(_ request: APNsClientCertificateRequest) throws -> IssuedCertificate {
        var builder = CertificateBuilder(
            subject: [
                ("UID", request.bundleID), ("CN", request.effectiveCommonName), ("OU", request.teamID),
                ("O", request.organization), ("C", request.country),
            ],
            notBefore: request.notBefore, notAfter: request.notAfter,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "clientAuth"),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
            ])
        if request.environments.contains(.sandbox) {
            builder.rawExtensions.append((ApplePushExtensions.developmentOID, ApplePushExtensions.markerValue, false))
        }
        if request.environments.contains(.production) {
            builder.rawExtensions.append((ApplePushExtensions.productionOID, ApplePushExtensions.markerValue, false))
        }
        if let topics = request.topics {
            let value = ApplePushExtensions.encodeTopics(topics, bundleID: request.bundleID)
            builder.rawExtensions.append((ApplePushExtensions.topicsOID, value, false))
        }
        return try issue(builder, keyType: request.keyType)
    }

    private func issue(_ builder: CertificateBuilder, keyType: CertificateKeyType) throws -> IssuedCertificate {
        let key = try keyType.generate()
        let issuer = try X509Handle.parse(der: certificate.der)
        let issuerKey = try EVPKey.privateKey(der: certificate.privateKeyDER)
        let der = try builder.sign(subjectKey: key, issuer: issuer, issuerKey: issuerKey)
        return IssuedCertificate(der: der, privateKeyDER: try key.pkcs8DER())
    }

    /// Writes the CA certificate and key PEMs.
    package func write(certificateTo certificatePath: String, privateKeyTo keyPath: String? = nil) throws {
        try certificate.write(certificateTo: certificatePath, privateKeyTo: keyPath)
    }
}

/// Parsing and formatting textual IP addresses (for SANs).
enum IPAddressText {
    static func isValid(_ text: String) -> Bool { bytes(text) != nil }

    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    static func format(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var buffer = [CChar](repeating: 0, count: 64)
        let ok = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}
