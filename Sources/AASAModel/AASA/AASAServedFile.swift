extension ServedFile {
    /// The AASA, at `/.well-known/`, as Apple's bot fetches it: the registry's first file
    /// (`AssociationKinds.files`).
    /// Its name is the one owner of `apple-app-site-association`: its two locations' paths
    /// (`AASALocation.wellKnown`, `.root`), lint's names and its schema's read it.
    public static let aasa: ServedFile = {
        let name = "apple-app-site-association"
        return ServedFile(
            id: "aasa", name: name, path: "/.well-known/" + name, fetchedBy: "Apple's bot (AASA-Bot)",
            codes: AASACode.self, categories: [.serving, .content, .domain, .expectations, .deviceView],
            platform: .ios,
            serving: ServingCodes(
                status: .aasa(.httpStatus), redirect: .aasa(.httpRedirect), contentType: .aasa(.httpContentType),
                syntax: [.aasa(.jsonInvalid), .aasa(.jsonNotObject)], blocked: .aasa(.uaBlocked),
                misnamed: .aasa(.locationMisnamed)))
    }()

    /// The root location's path, `/apple-app-site-association`.
    static let aasaRootPath = "/" + aasa.name
}
