// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets over the pure core. Built only by Scripts/fuzz.sh, with
// -sanitize=fuzzer,address (libFuzzer supplies main), never by the main build.
let package = Package(
    name: "aasa-audit-fuzz",
    // Scripts/fuzz.sh links the repository here as .build-fuzz/aasa-audit, so that the
    // dependency's identity does not depend on the name of the checkout's folder.
    dependencies: [.package(path: "../.build-fuzz/aasa-audit")],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzChecks", dependencies: ["FuzzDriver", .product(name: "AASAAuditCore", package: "aasa-audit")]),
        .executableTarget(
            name: "FuzzMatcher", dependencies: ["FuzzDriver", .product(name: "AASAAuditCore", package: "aasa-audit")]),
        .executableTarget(
            name: "FuzzKinds", dependencies: ["FuzzDriver", .product(name: "AASAAuditCore", package: "aasa-audit")]),
        .executableTarget(
            name: "FuzzHostNames",
            dependencies: ["FuzzDriver", .product(name: "AASAAuditCore", package: "aasa-audit")]),
        .executableTarget(
            name: "FuzzSignedFiles",
            dependencies: ["FuzzDriver", .product(name: "AASAAuditCore", package: "aasa-audit")]),
    ],
    swiftLanguageModes: [.v6]
)
