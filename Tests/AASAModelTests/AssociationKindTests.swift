import AASAModel
import Foundation
import Testing

/// The registry of association kinds: a kind's locations and category carry it, and read back.
@Suite struct AssociationKindTests {
    @Test func eachKindsLocationCarriesItAndReadsBack() throws {
        #expect(!AssociationKinds.all.isEmpty)
        for kind in AssociationKinds.all {
            #expect(kind.location.kind?.id == kind.id)
            #expect(kind.location.path == kind.path)
            #expect(AASALocation(rawValue: kind.id) == kind.location)
            #expect(FindingLocation(rawValue: kind.id) == kind.findingLocation)
            let encoded = try JSONEncoder().encode([kind.location])
            #expect(String(decoding: encoded, as: UTF8.self) == "[\"\(kind.id)\"]")
            #expect(try JSONDecoder().decode([FindingLocation].self, from: encoded) == [kind.findingLocation])
            let codes = FindingCode.allCases.filter(kind.owns)
            #expect(!codes.isEmpty, "\(kind.id) has no codes")
            #expect(codes.allSatisfy { $0.definition.category == kind.category })
        }
        #expect(AASALocation.wellKnown.kind == nil && AASALocation.cdn.kind == nil)
    }

    /// A section of what the input expects and what the file says merges field by field, the
    /// other's winning where it has one, and a record holding neither has no section.
    @Test func expectedAndReadSectionsMergeFieldByFieldAndAreAbsentWhenEmpty() throws {
        let declared = WindowsDeclarations(entries: [.init(packageFamilyName: "MyApp_9jmtgj1pbbz6e", paths: ["/*"])])
        let expectedOnly = WindowsRecord(expectedWindowsApps: ["MyApp_9jmtgj1pbbz6e"])
        let readOnly = WindowsRecord(windows: declared)
        #expect(
            expectedOnly.merging(readOnly)
                == WindowsRecord(expectedWindowsApps: ["MyApp_9jmtgj1pbbz6e"], windows: declared))
        #expect(readOnly.merging(expectedOnly) == expectedOnly.merging(readOnly))
        let other = WebAuthnRecord(expectedOrigins: ["https://b.example"])
        #expect(WebAuthnRecord(expectedOrigins: ["https://a.example"]).merging(other).expected == ["https://b.example"])
        var record = AssociationRecords(readOnly)
        record.merge(AssociationRecords(expectedOnly))
        let encoded = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(AssociationRecords.self, from: encoded)
        #expect(
            decoded.kinds.map(\.id) == ["windows"] && decoded[WindowsRecord.self]?.expected == ["MyApp_9jmtgj1pbbz6e"])
        #expect(try JSONDecoder().decode(AssociationRecords.self, from: Data("{}".utf8)).kinds.isEmpty)
    }

    @Test func aNameNoLocationHasIsRefused() {
        #expect(AASALocation(rawValue: "no-such-file") == nil)
        #expect(FindingLocation(rawValue: "nowhere") == nil)
        #expect(FindingLocation(rawValue: "domain") == .domain)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([AASALocation].self, from: Data("[\"domain\"]".utf8))
        }
    }

    @Test func theKindsCategoriesStandBeforeTheRunsAndEachCodeHasOne() {
        let names = FindingCategory.allCases.map(\.rawValue)
        #expect(names.first == "transfer" && names.last == "run")
        for kind in AssociationKinds.all { #expect(names.dropLast().contains(kind.category.rawValue)) }
        #expect(Set(names).count == names.count)
        for code in FindingCode.allCases {
            #expect(FindingCategory.allCases.contains(code.definition.category), "\(code.rawValue)")
        }
    }

    /// Every code reads back from its name, through the registry's table, and is its own family's;
    /// a name no family has, in any case, is nil.
    @Test func everyCodeReadsBackFromItsName() {
        let codes = FindingCode.allCases
        #expect(Set(codes.map(\.rawValue)).count == codes.count, "a name is two codes'")
        for code in codes {
            let read = FindingCode(rawValue: code.rawValue)
            #expect(read == code && read?.definition.category == code.definition.category, "\(code.rawValue)")
        }
        #expect(FindingCode(rawValue: "http.nothing") == nil && FindingCode(rawValue: "HTTP.REDIRECT") == nil)
        #expect(FindingCode(rawValue: "") == nil)
    }

    /// The registry's files: the AASA's first, then each kind's; the catalog's families and
    /// categories are theirs between the house's, and each file's codes are its own.
    @Test func theAASAIsTheRegistrysFirstFile() {
        let files = AssociationKinds.files
        #expect(files.first?.id == AssociationKinds.aasaName && files.first?.name == "apple-app-site-association")
        #expect(files.dropFirst().map(\.id) == AssociationKinds.all.map(\.id))
        #expect(AssociationKinds.servedFileNames == files.map(\.name))
        #expect(FindingCategory.allCases == [.transfer] + files.flatMap(\.categories) + [.run])
        for file in files {
            let codes = FindingCode.allCases.filter { $0.belongs(to: file.codes) }
            #expect(!codes.isEmpty, "\(file.id)")
            #expect(codes.allSatisfy { file.categories.contains($0.definition.category) }, "\(file.id)")
            #expect(codes.allSatisfy { code in files.filter { code.belongs(to: $0.codes) }.count == 1 })
        }
        #expect(files.first?.platform == .ios)
    }
}
