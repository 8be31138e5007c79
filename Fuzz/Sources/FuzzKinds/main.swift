import AASAChecks
import AASAModel
import FuzzDriver

/// Every association kind's parser and checks (`lint --kind`): the first byte picks the kind and
/// whether the wants are given (an app for each platform), the rest is the file. Checks that the
/// verdict follows from the findings and that every finding is about the file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKinds(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let names = AssociationFileLint.kindNames
    let selector = Int(data[0])
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let kind = names[selector % names.count]
    let wants = selector & 0x80 == 0 ? AssociationWants() : FuzzWants.all
    let result =
        kind == AssociationFileLint.aasaKindName
        ? FileLint.lint(bytes, size: bytes.count)
        : AssociationFileLint.lint(bytes, size: bytes.count, wants: wants, kind: kind)
    guard let result else { return 0 }
    precondition(result.verdict == Verdict(findings: result.findings))
    precondition(result.findings.allSatisfy { $0.location == .file })
    return 0
}

/// An app of each kind, as `domains.txt` names them.
enum FuzzWants {
    static let all: AssociationWants = {
        var wants = AssociationWants()
        let lines = [
            ("android", "com.example.app"), ("origin", "https://login.an-ordinary-shop-name.com"),
            ("passkeys", ""), ("windows", "Contoso.ExampleApp_8wekyb3d8bbwe"), ("harmony", "5765880207854649689"),
            ("applepay", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("webapp", "https://app.example.com/app"),
        ]
        for (word, value) in lines {
            guard let kind = AssociationKinds.all.first(where: { $0.word == word }),
                let want = try? kind.wantType.parsing(value.isEmpty ? [] : [value])
            else { continue }
            wants.insert(want)
        }
        return wants
    }()
}

@_cdecl("FuzzKinds_main")
public func fuzzKindsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    fuzz_run(argc, argv) { data, size in fuzzKinds(data!, size) }
}
