import AASAFetch
import Testing

/// The address policy alone: which resolved addresses the fetcher may connect to.
@Suite struct AddressPolicyTests {
    func refusal(_ text: String, _ policy: AddressPolicy = .publicOnly) throws -> String? {
        policy.refusal(for: try #require(IPAddress(text), "not an address: \(text)"))
    }

    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"), ("10.1.2.3", "private"), ("172.16.0.1", "private"),
        ("172.31.255.255", "private"), ("192.168.1.1", "private"), ("169.254.169.254", "link-local"),
        ("100.64.0.1", "CGNAT"),
        ("100.100.100.200", "CGNAT"), ("0.0.0.0", "this network"), ("224.0.0.1", "multicast"),
        ("255.255.255.255", "reserved"),
        ("198.18.0.1", "benchmarking"), ("192.0.2.7", "documentation"),
        ("::1", "loopback"), ("::", "unspecified"), ("fe80::1", "link-local"), ("fd00:ec2::254", "unique local"),
        ("fc00::1", "unique local"), ("ff02::1", "multicast"), ("2001:db8::1", "documentation"),
        ("::ffff:127.0.0.1", "loopback"), ("::ffff:a9fe:a9fe", "link-local"), ("64:ff9b::a9fe:a9fe", "link-local"),
        ("2002:7f00:1::", "loopback"), ("::10.0.0.1", "private"),
    ])
    func specialPurposeAddressesAreRefused(address: String, kind: String) throws {
        let reason = try #require(try refusal(address), "\(address) was allowed")
        #expect(reason.contains(kind), "\(address): \(reason)")
    }

    @Test(arguments: [
        "17.253.144.10", "93.184.216.34", "1.1.1.1", "8.8.8.8", "172.15.255.255", "172.32.0.0", "100.63.255.255",
        "100.128.0.0", "169.253.255.255", "11.0.0.0", "2606:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8",
    ])
    func publicAddressesAreAllowed(address: String) throws {
        #expect(try refusal(address) == nil)
    }

    @Test func allowedNetworksAreExceptionsAndNothingMore() throws {
        let policy = AddressPolicy(allowing: ["127.0.0.0/8", "fd12:3456::/32"].compactMap(IPNetwork.init))
        #expect(policy.allowed.count == 2)
        #expect(try refusal("127.0.0.1", policy) == nil)
        #expect(try refusal("::ffff:127.0.0.1", policy) == nil)
        #expect(try refusal("fd12:3456:1::9", policy) == nil)
        #expect(try refusal("fd12:3457::9", policy) != nil)
        #expect(try refusal("10.0.0.1", policy) != nil)
        #expect(try refusal("::1", policy) != nil)
        #expect(try refusal("169.254.169.254", policy) != nil)
    }

    @Test func networksParseInCIDROrAsOneAddress() throws {
        let single = try #require(IPNetwork("10.1.2.3"))
        #expect(single.prefixLength == 32)
        #expect(single.contains(try #require(IPAddress("10.1.2.3"))))
        #expect(!single.contains(try #require(IPAddress("10.1.2.4"))))
        let wide = try #require(IPNetwork("10.1.0.0/15"))
        #expect(wide.contains(try #require(IPAddress("10.0.255.1"))))
        #expect(!wide.contains(try #require(IPAddress("10.2.0.0"))))
        #expect(IPNetwork("0.0.0.0/0")?.contains(try #require(IPAddress("203.0.113.9"))) == true)
        #expect(IPNetwork("0.0.0.0/0")?.contains(try #require(IPAddress("::1"))) == false)
        #expect(IPNetwork("::1/128")?.description == "::1/128")
        for bad in [
            "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/٣", "example.com", "0x7f.1", "10.1", "",
        ] {
            #expect(IPNetwork(bad) == nil, "\(bad) parsed")
        }
    }
}
