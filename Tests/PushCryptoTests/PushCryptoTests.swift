import Testing
@testable import PushCrypto

@Test func PushCryptoBuilds() {}
