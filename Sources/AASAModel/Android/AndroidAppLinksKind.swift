/// `assetlinks.json` (Digital Asset Links), Android's App Links: the registry's entry.
extension AssociationKind {
    public static let androidAppLinks = AssociationKind(
        id: "assetlinks", word: "android", fileName: "assetlinks.json", path: "/.well-known/assetlinks.json",
        categoryName: "assetLinks", categoryTitle: "Android App Links: assetlinks.json",
        linkedFetchLabel: "included list", room: "Android",
        formLabel: "Android app", formPlaceholder: "com.example.app or com.example.app@SHA256",
        definition: { $0.assetLinksDefinition })
}

extension AASALocation {
    /// `/.well-known/assetlinks.json`, when a domain's line asks for it, and the lists it includes.
    public static let assetlinks = AssociationKind.androidAppLinks.location
}

extension FindingLocation {
    /// `assetlinks.json` and the lists it includes.
    public static let assetlinks = AssociationKind.androidAppLinks.findingLocation
}

extension FindingCategory {
    /// `assetlinks.json`'s findings: their entries are in `FindingCatalog+AssetLinks.swift`.
    static let assetLinks = AssociationKind.androidAppLinks.category
}
