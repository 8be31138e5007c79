/// The JSON Schema of `assetlinks.json` (`schemas/`, printed by `aasa-audit schema
/// assetlinks`): every list Google's parser accepts, the statements it skips refused. Its text is
/// the repository's file, embedded by Scripts/generate-docs.sh.
public enum AssetLinksSchema {
    public static let entry = AssociationSchema(
        kind: .androidAppLinks, file: "assetlinks.schema.json", text: text)
}
