import PublicSuffix
import Testing

/// libpsl's answer read while its C string lives (issue 54): with the pointer read after the
/// call, a registrable domain of 16 bytes or more (a name Swift keeps on the heap, not inline)
/// was read from freed memory. Names of every label length from 1 to 63, under public and
/// private suffixes, each answered exactly; under AddressSanitizer (Scripts/sanitize.sh) the
/// old code fails here on the first long name.
@Suite struct RegistrableDomainTests {
    static let suffixes = ["com", "co.uk", "vercel.app", "netlify.app", "github.io", "xn--p1ai"]

    @Test(arguments: suffixes) func everyLabelLengthUnderASuffix(suffix: String) {
        for length in 1...63 {
            let label = String(repeating: "a", count: length - 1) + "z"
            let domain = "\(label).\(suffix)"
            #expect(RegistrableDomain.of(domain) == domain, "\(domain)")
            #expect(RegistrableDomain.of("www.login.\(domain)") == domain)
            #expect(RegistrableDomain.label(of: "shop.\(domain)") == label)
        }
    }

    @Test func whatHasNone() {
        #expect(RegistrableDomain.of("vercel.app") == nil, "a public suffix alone")
        #expect(RegistrableDomain.of("localhost") == nil)
        #expect(RegistrableDomain.of("192.0.2.1") == nil)
        #expect(RegistrableDomain.of("[2001:db8::1]") == nil)
        #expect(RegistrableDomain.of("") == nil)
        #expect(
            RegistrableDomain.of("abcdefghijkl.com\u{0}.example.org") == nil,
            "a NUL would reach libpsl cut at it, and be answered for the prefix")
    }
}
