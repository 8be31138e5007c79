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
}
