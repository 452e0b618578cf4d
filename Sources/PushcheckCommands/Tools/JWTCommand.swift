import Foundation
import PushCrypto

/// `pushcheck jwt`: make an APNs provider token from a `.p8` key, or check one the way Apple's
/// Push Notifications Console's JWT validator does (signature, team, key ID, age).
enum JWTCommand: PushcheckCommand {
    static let name = "jwt"
    static let abstract = "Sign an APNs provider token (ES256) with a .p8 key, or validate one."
    static let synopsis =
        "pushcheck jwt --team-id TEAM --key-id KID --key AuthKey.p8 [--iat SECONDS]\n       pushcheck jwt --verify TOKEN --key KEY.pem [--team-id TEAM] [--key-id KID]"
    static let options: [OptionSpec] = [
        .value("team-id", "TEAM", "The 10-character Team ID (the token's iss)."),
        .value("key-id", "KID", "The 10-character Key ID (the token's kid)."),
        .value("key", "PATH", "The .p8 private key (signing) or the key or its public half (verifying)."),
        .value("iat", "SECONDS", "Issued-at time in epoch seconds (default: now)."),
        .value("verify", "TOKEN", "Validate TOKEN instead of signing; exit 1 when APNs would reject it."),
    ]

    static let discussion = """
        Signing does not check the IDs: a Team ID or Key ID that is not 10 characters (Apple's are) is signed all
        the same, with a warning on stderr, since a test may want a token APNs refuses.
        Exit codes: 0 signed (or, with --verify, every check passed), 1 --verify: APNs would reject the token,
        2 usage error or a key file that cannot be read.
        """

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let keyPath = arguments.value("key") else { throw UsageError("missing --key PATH") }
        guard let pem = try? String(contentsOfFile: keyPath, encoding: .utf8) else {
            throw UsageError("cannot read key file '\(keyPath)'")
        }
        if let token = arguments.value("verify") {
            return verify(token, pem: pem, arguments: arguments, console: console)
        }
        guard let team = arguments.value("team-id") else { throw UsageError("missing --team-id TEAM") }
        guard let kid = arguments.value("key-id") else { throw UsageError("missing --key-id KID") }
        let key: P256PrivateKey
        do { key = try P256PrivateKey(pem: pem) } catch {
            console.err("pushcheck jwt: error: \(keyPath): \(error)")
            return ExitCode.usage
        }
        let iat = try arguments.int("iat", in: 0...Int(Int32.max) * 2) ?? Int(Date().timeIntervalSince1970)
        // Apple's Team ID (iss) and Key ID (kid) are 10 characters (../shared/reference/apns.md §1.5 [A3]).
        for (option, value, what) in [("team-id", team, "Team ID (iss)"), ("key-id", kid, "Key ID (kid)")]
        where value.count != 10 {
            console.err(
                "pushcheck jwt: warning: --\(option) '\(value)' is \(value.count) characters; an Apple \(what) is 10 "
                    + "(signed anyway)")
        }
        console.out(try JWT.apnsProviderToken(teamID: team, keyID: kid, issuedAt: iat, key: key))
        return ExitCode.success
    }

    /// Prints one line per check, `ok` or the reason APNs would give.
    private static func verify(_ token: String, pem: String, arguments: ParsedArguments, console: Console) -> Int32 {
        var failures = 0
        func check(_ ok: Bool, _ what: String, _ reason: String) {
            console.out((ok ? "ok    " : "FAIL  ") + what + (ok ? "" : " — APNs answers \(reason)"))
            if !ok { failures += 1 }
        }
        let jwt: JWT
        do { jwt = try JWT(compact: token) } catch {
            console.out("FAIL  structure: \(error) — APNs answers 403 InvalidProviderToken")
            return ExitCode.failure
        }
        check(jwt.algorithm == "ES256", "alg is ES256 (found \(jwt.algorithm ?? "none"))", "403 InvalidProviderToken")
        let publicKey = (try? P256PublicKey(pem: pem)) ?? (try? P256PrivateKey(pem: pem))?.publicKey
        if let publicKey {
            var signatureOK = true
            do { try jwt.verifyES256(using: publicKey) } catch { signatureOK = false }
            check(
                signatureOK, "signature verifies with \(arguments.value("key") ?? "the key")",
                "403 InvalidProviderToken")
        } else {
            check(false, "the key file holds a P-256 key", "403 InvalidProviderToken (no key to check with)")
        }
        if let kid = arguments.value("key-id") {
            check(jwt.keyID == kid, "kid is \(kid) (found \(jwt.keyID ?? "none"))", "403 InvalidProviderToken")
        }
        if let team = arguments.value("team-id") {
            check(jwt.issuer == team, "iss is \(team) (found \(jwt.issuer ?? "none"))", "403 InvalidProviderToken")
        }
        if let iat = jwt.issuedAtClaim {
            let age = Int64(Date().timeIntervalSince1970) - iat.seconds
            if age < 0 {
                check(
                    age >= -3600, "iat is at most one hour ahead (\(IssuedAtClaim.describe(seconds: age)) ahead)",
                    "403 InvalidProviderToken")
            } else {
                check(
                    age <= 3600, "iat is at most one hour old (\(IssuedAtClaim.describe(seconds: age)) old)",
                    "403 ExpiredProviderToken")
            }
            // APNs delivers with these; a warning, not a failure (the exit status stays 0).
            if let warning = iat.warning { console.out("WARN  \(warning)") }
        } else {
            check(false, "iat is a number of seconds (or a numeric string)", "403 InvalidProviderToken")
        }
        return failures == 0 ? ExitCode.success : ExitCode.failure
    }
}
