import AASAFetch
import Foundation
import TestSupport
import Testing

@testable import AASAServe

/// Who a request is from, as serve limits and logs it (issue 36, items 5 and 10).
@Suite struct ServeClientTests {
    @Test func clientsAreParsedAddressesAndIPv6CountsByItsSlash64() throws {
        #expect(ClientAddress("::ffff:127.0.0.1")?.description == "127.0.0.1")
        #expect(ClientAddress("2001:db8:1:2:aaaa::1")?.limitKey == ClientAddress("2001:db8:1:2:bbbb::9")?.limitKey)
        #expect(ClientAddress("2001:db8:1:2:aaaa::1")?.limitKey == "2001:db8:1:2::/64")
        #expect(ClientAddress("2001:db8:1:3::1")?.limitKey != ClientAddress("2001:db8:1:2::1")?.limitKey)
        #expect(ClientAddress("203.0.113.7")?.limitKey == "203.0.113.7")
        for forged in ["1.2.3.4 GET /admin 200", "x\u{85}y", "a\u{2028}b", "", "::ffff:1.2.3.4\r\nX: y", "999.1.1.1"] {
            #expect(ClientAddress(forged) == nil, "\(forged)")
        }
        let peer = ClientAddress("::ffff:127.0.0.1")
        let proxies = [try #require(IPNetwork("127.0.0.0/8"))]
        // A dual-stack peer matches an IPv4 range; the last forwarded address is the client's.
        #expect(
            ClientAddress.of(peer: peer, forwardedFor: ["10.9.8.7, 198.51.100.4"], trusting: proxies)?.description
                == "198.51.100.4")
        // A forwarded value that is not an address is not believed: the peer it is.
        #expect(
            ClientAddress.of(peer: peer, forwardedFor: ["evil\u{2028}200 OK"], trusting: proxies)?.description
                == "127.0.0.1")
        // An untrusted peer's header is ignored.
        #expect(ClientAddress.of(peer: peer, forwardedFor: ["198.51.100.4"], trusting: [])?.description == "127.0.0.1")
    }

    /// 10,000 made-up identities of 5 requests each cannot lock a new client out, nor grow the
    /// table past its bound.
    @Test func madeUpIdentitiesNeitherFillTheTableNorLockOthersOut() {
        var limiter = RateLimiter(perMinute: 20, burst: 5, maximumClients: 1_000)
        for identity in 0..<10_000 {
            for _ in 0..<5 {
                _ = limiter.take("198.18.\(identity / 256).\(identity % 256)", now: Double(identity) / 1000)
            }
        }
        #expect(limiter.clientCount <= 1_000)
        #expect(limiter.take("203.0.113.9", now: 10) == nil, "a new client is served")
        // The limit itself still holds for a client that is seen.
        for _ in 0..<4 { _ = limiter.take("203.0.113.9", now: 10) }
        #expect(limiter.take("203.0.113.9", now: 10) != nil)
    }
}
