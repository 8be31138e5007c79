// swift-tools-version:6.1
import Foundation
import PackageDescription

// Scripts/sanitize.sh builds with AddressSanitizer, whose allocator must be the only one:
// AASA_AUDIT_NO_JEMALLOC=1 leaves jemalloc out of the executable (it keeps glibc's malloc).
let jemalloc = ProcessInfo.processInfo.environment["AASA_AUDIT_NO_JEMALLOC"] == nil

// The map is docs/architecture.md. Pure libraries (JSON, model, matching, checks, domain
// list, report rendering) do no I/O; AASAFetch is the only networking target; AASAAudit is the
// engine and the commands' use cases; AASAAuditCLI is a thin ArgumentParser front end. Each
// target's dependencies are exactly what its files import.
//
// Platforms: Linux (Debian's libcurl4-openssl-dev, jemalloc, /proc) is built and tested.
// macOS is meant to build with Homebrew's curl and OpenSSL (README, "macOS"): the Linux-only
// parts (jemalloc, /proc, Glibc) are behind platform conditions; it is not tested here.
let package = Package(
    name: "aasa-audit",
    products: [
        .executable(name: "aasa-audit", targets: ["AASAAuditCLI"]),
        // The pure core and the host-name path, for the fuzz targets in Fuzz/ (a package of its own).
        .library(
            name: "AASAAuditCore",
            targets: [
                "AASAJSON", "AASAModel", "AASAMatching", "AASAChecks", "SignedFiles", "PublicSuffix", "DomainList",
            ]
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // SwiftNIO's HTTP/1 server: `serve` (AASAServe). Its parser bounds request lines and
        // headers; the tests' loopback servers use it too (docs/serve.md says why not a framework).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // The Model Context Protocol's Swift SDK: `aasa-audit mcp` (AASAMCP), over stdio.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", from: "0.12.1"),
        // Its transports' logger type (the SDK's own dependency; the server logs to standard error).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // Test-only (TestSupport and the test targets): real HTTPS servers on loopback, a test
        // CA made at run time, property-based tests. `swift build --product aasa-audit` (the
        // README's command) compiles none of them.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // C boundary: the system libraries and a small typed shim over libcurl's variadic calls.
        .systemLibrary(name: "CLibcurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto, which libcurl links for TLS: the tool's one SHA-256.
        .systemLibrary(name: "CLibcrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CIDN2", pkgConfig: "libidn2", providers: [.apt(["libidn2-dev"])]),
        // SQLite: the run's journal (`audit --resume`).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CPSL", pkgConfig: "libpsl", providers: [.apt(["libpsl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CLibcurl"], linkerSettings: [.linkedLibrary("ssl")]),
        // One DNS question asked of the resolver directly (libresolv): why a name did not resolve.
        .target(name: "CResolv", linkerSettings: [.linkedLibrary("resolv")]),
        // Typed calls into OpenSSL's CMS (PKCS#7) implementation, for signed files.
        .target(name: "CCMS", linkerSettings: [.linkedLibrary("crypto")]),
        // What a crash leaves behind: a fatal signal writes notes set beforehand (the run's
        // crash mark, the requests serve is answering), then the previous handler runs.
        .target(name: "CCrashNote"),
        // The commit a release was built from (Scripts/release.sh defines it; empty otherwise).
        .target(name: "CBuildInfo"),
        // The executable's allocator: jemalloc and its settings (docs/performance.md).
        .target(
            name: "CMallocSettings",
            linkerSettings: jemalloc ? [.linkedLibrary("jemalloc", .when(platforms: [.linux]))] : []),

        // Pure logic: no I/O.
        .target(name: "AASAJSON"),
        .target(name: "AASAModel"),
        .target(name: "AASAMatching", dependencies: ["AASAJSON"]),
        .target(name: "PublicSuffix", dependencies: ["CPSL"]),
        .target(
            name: "AASAChecks", dependencies: ["AASAModel", "AASAJSON", "AASAMatching", "PublicSuffix", "Digest"]),
        .target(name: "DomainList", dependencies: ["AASAModel", "AASAJSON", "AASAMatching", "CIDN2"]),
        .target(
            name: "AASAReport",
            dependencies: [
                "AASAModel", "AASAJSON", "AASAMatching",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),

        // SHA-256 over OpenSSL's libcrypto: bodies, the run's domain list, a merchant file.
        .target(name: "Digest", dependencies: ["CLibcrypto"]),
        // Signed (PKCS#7) files opened and verified with OpenSSL's CMS.
        .target(name: "SignedFiles", dependencies: ["AASAModel", "CCMS"]),
        // Networking: libcurl multi handles, each driven by a thread, bridged to async/await.
        .target(
            name: "AASAFetch", dependencies: ["AASAModel", "CCurlShim", "CLibcurl", "CLibcrypto", "CResolv", "Digest"]),

        // The engine (workspace, loop, outputs) and the commands' use cases.
        .target(
            name: "AASAAudit",
            dependencies: [
                "AASAModel", "AASAJSON", "AASAMatching", "AASAChecks", "AASAFetch", "AASAReport", "DomainList",
                "SignedFiles", "CBuildInfo", "CSQLite", "CCrashNote", "Digest",
            ]
        ),

        // `serve`: the team's page and API over HTTP (SwiftNIO), on the engine's use cases.
        .target(
            name: "AASAServe",
            dependencies: [
                "AASAAudit", "AASAChecks", "AASAModel", "AASAFetch", "AASAReport", "AASAMCP", "Digest",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // `mcp`: the engine's checks, audits, lint, findings and history as tools of a Model
        // Context Protocol server, for assistants.
        .target(
            name: "AASAMCP",
            dependencies: [
                "AASAAudit", "AASAChecks", "AASAModel", "AASAFetch", "AASAReport", "DomainList",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The command-line front end.
        .executableTarget(
            name: "AASAAuditCLI",
            dependencies: [
                "AASAAudit", "AASAModel", "AASAChecks", "AASAFetch", "AASAReport", "AASAServe", "AASAMCP",
                "CMallocSettings", "Digest",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Tests. TestSupport is used by test targets only.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport"
        ),
        // The engine's loopback world (TestWorld: one HTTPS server for many hosts under aasa.test)
        // and serve on a live port, for the test targets that audit or serve over it.
        .target(
            name: "AuditTestSupport",
            dependencies: ["AASAAudit", "AASAFetch", "AASAModel", "AASAServe", "TestSupport"],
            path: "Tests/AuditTestSupport"
        ),
        .testTarget(name: "AASAJSONTests", dependencies: ["AASAJSON"]),
        .testTarget(name: "AASAModelTests", dependencies: ["AASAModel"]),
        .testTarget(name: "SignedFilesTests", dependencies: ["SignedFiles", "AASAModel", "TestSupport"]),
        .testTarget(
            name: "AASAMatchingTests",
            dependencies: [
                "AASAMatching", "AASAJSON", .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "AASAChecksTests",
            dependencies: ["AASAChecks", "AASAModel", "AASAJSON", "AASAMatching", "PublicSuffix", "TestSupport"]),
        .testTarget(name: "DomainListTests", dependencies: ["DomainList", "AASAModel", "TestSupport"]),
        .testTarget(name: "AASAReportTests", dependencies: ["AASAReport", "AASAModel", "TestSupport"]),
        .testTarget(
            name: "AASAFetchTests",
            dependencies: ["AASAFetch", "AASAModel", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // serve's routing, middleware and handlers without a socket, and serve on a live port.
        .testTarget(
            name: "AASAServeTests",
            dependencies: [
                "AASAServe", "AASAAudit", "AASAFetch", "AASAModel", "AASAReport", "AuditTestSupport", "TestSupport",
                "Digest", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // `aasa-audit mcp` driven by the reference MCP client (PyPI's mcp), and its parts.
        .testTarget(
            name: "AASAMCPTests",
            dependencies: ["AASAMCP", "AASAModel", "AuditTestSupport", "TestSupport"]
        ),
        .testTarget(
            name: "AASAAuditTests",
            dependencies: [
                "AASAAudit", "AASAChecks", "AASAFetch", "AASAModel", "AASAReport", "AASAServe", "AuditTestSupport",
                "DomainList", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
