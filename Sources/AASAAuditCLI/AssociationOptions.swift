import AASAAudit
import AASAModel
import AASAReport
import ArgumentParser

/// The seam's options in the CLI: what each association kind adds to `audit`, and to `check`,
/// `lint` and `match`. A kind's own parsing lives in its folder (`Android/AndroidAppOption.swift`).

/// `audit --android`: every domain's `assetlinks.json` is audited, not only theirs that name apps.
struct AssociationAuditOptions: ParsableArguments {
    @Flag(
        name: .customLong(AssociationKind.androidAppLinks.word),
        help:
            "Audit every domain's Android assetlinks.json too (domains naming android:PACKAGE are always audited for it)."
    ) var everyDomain = false
    @Option(
        name: .customLong(AndroidOption.manifest.rawValue),
        help: ArgumentHelp(
            "An app's AndroidManifest.xml (source XML): audit the assetlinks.json of every host its android:autoVerify=\"true\" intent filters name, for --android-package, and judge the dynamic rules against the manifest's paths (repeatable).",
            valueName: "file"))
    var manifests: [String] = []
    @Option(
        name: .customLong(AndroidOption.package.rawValue),
        help: ArgumentHelp(
            "The app the manifests' hosts must declare (repeatable; default: the manifest's package attribute).",
            valueName: AndroidAppOption.help), transform: AndroidAppOption.parse)
    var manifestApps: [AndroidApp] = []
    @Flag(
        name: .customLong(AssociationKind.passkeyEndpoints.word),
        help:
            "Every domain declares passkeys, as a line that says passkeys does: its AASA's webcredentials and its Android apps' get_login_creds are checked, and its passkey-endpoints, webauthn and change-password are read (a site that serves none is a note)."
    ) var passkeysEveryDomain = false

    /// What every domain is audited for, beside its line.
    var wants: AssociationWants {
        var wants = everyDomain ? AssociationWants(android: []) : AssociationWants()
        if passkeysEveryDomain { wants.insert(PasskeyEndpointsWant()) }
        return wants
    }

    /// The manifests, as input files.
    var projectFiles: [AppProjectFile] { manifests.map { .androidManifest($0, apps: manifestApps) } }

    func validate() throws {
        if !manifestApps.isEmpty && manifests.isEmpty {
            throw ValidationError("--android-package needs --android-manifest.")
        }
    }
}

/// `check`, `lint` and `match`: `--android PACKAGE[@FINGERPRINT]`, repeatable.
struct AssociationAppOptions: ParsableArguments {
    @Option(
        name: .customLong(AssociationKind.androidAppLinks.word),
        help: ArgumentHelp(
            "An Android app assetlinks.json must declare, with its signing certificate's SHA-256 fingerprint when given (repeatable). check audits the domain's assetlinks.json for it; lint checks an assetlinks.json file; match decides URLs for it.",
            valueName: AndroidAppOption.help), transform: AndroidAppOption.parse)
    var apps: [AndroidApp] = []
    @Option(
        name: .customLong(AssociationKind.webauthn.word),
        help: ArgumentHelp(
            "An origin the domain's /.well-known/webauthn must allow for its passkeys, https://HOST[:PORT] (repeatable). check audits the domain's webauthn file for it, as Chromium and Firefox read it; lint checks a webauthn file.",
            valueName: "https-origin"), transform: WebAuthnOriginOption.parse)
    var origins: [String] = []
    @Flag(
        name: .customLong(AssociationKind.passkeyEndpoints.word),
        help:
            "The domain declares passkeys: check holds its AASA's webcredentials to --app-id and its Android apps to get_login_creds, and reads its passkey-endpoints (and each endpoint's page), webauthn and change-password; lint checks a passkey-endpoints file."
    ) var passkeys = false

    @Option(
        name: .customLong(AssociationKind.windows.word),
        help: ArgumentHelp(
            "A Windows app windows-app-web-link must name, by its package family name (repeatable). check audits the domain's file at /.well-known/ and the root; lint checks a windows-app-web-link file; match decides URLs for it.",
            valueName: "package-family-name"))
    var windowsApps: [String] = []
    @Option(
        name: .customLong(AssociationKind.harmony.word),
        help: ArgumentHelp(
            "A HarmonyOS app applinking.json must name, by its AppGallery Connect app identifier (repeatable). check audits the domain's /.well-known/applinking.json; lint checks an applinking.json file.",
            valueName: "app-identifier"))
    var harmonyApps: [String] = []
    @Option(
        name: .customLong(AssociationKind.applePay.word),
        help: ArgumentHelp(
            "Apple Pay's merchant file: on, or the SHA-256 its bytes must have, or the local copy of the provider's file (its SHA-256 is taken). check audits the domain's /.well-known/apple-developer-merchantid-domain-association as Apple fetches it; lint compares a merchant file with it.",
            valueName: ApplePayOption.help), transform: ApplePayOption.parse)
    var applePay: String?
    @Option(
        name: .customLong(AssociationKind.webApp.word),
        help: ArgumentHelp(
            "A web app's manifest id the origin's web-app-origin-association must associate, with @ and its manifest's URL to cross-check the manifest's scope_extensions and id (repeatable). check audits the domain's /.well-known/web-app-origin-association as Chromium reads it; lint checks a web-app-origin-association file.",
            valueName: "manifest-id[@manifest-url]"))
    var webApps: [String] = []

    /// The kinds whose values their want type reads as it is (`AssociationWant.parsing`).
    var valueOptions: [(kind: AssociationKind, values: [String])] {
        [
            (.windows, windowsApps), (.harmony, harmonyApps), (.applePay, applePay.map { [$0] } ?? []),
            (.webApp, webApps),
        ].filter {
            !$0.1.isEmpty
        }
    }

    func validate() throws {
        for (kind, values) in valueOptions {
            for value in values { try KindOptionValue.refuseToken(value, of: kind) }
            do throws(AssociationValueError) {
                _ = try kind.wantType.parsing(values)
            } catch {
                throw ValidationError("--\(kind.word) \(error.reason).")
            }
        }
    }

    var wants: AssociationWants {
        var wants = apps.isEmpty ? AssociationWants() : AssociationWants(android: apps)
        if !origins.isEmpty { wants.insert(WebAuthnWant(origins: origins)) }
        if passkeys { wants.insert(PasskeyEndpointsWant()) }
        for (kind, values) in valueOptions {
            if let want = try? kind.wantType.parsing(values) { wants.insert(want) }
        }
        return wants
    }

    static let matchDiscussion = """
        With --android PACKAGE, the same forms decide with assetlinks.json's Android 15 dynamic rules
        (the domain's file is fetched with its includes); the app's manifest bounds them and is not seen.
        """

    func validateForMatch() throws {
        if apps.count + windowsApps.count > 1 {
            throw ValidationError("match decides for one app: give --android or --windows once.")
        }
        if !origins.isEmpty || passkeys || !harmonyApps.isEmpty || applePay != nil || !webApps.isEmpty {
            throw ValidationError(
                "match decides URLs for an app; --origin, --passkeys, --harmony, --applepay and --webapp are for check and lint."
            )
        }
    }

    /// `match`: with an Android app, by its assetlinks.json's dynamic rules; with a Windows app,
    /// by windows-app-web-link; else by the AASA.
    func match(_ urls: [String], against source: URLMatching.Source) async throws -> [MatchRecord] {
        if let app = apps.first { return try await AssetLinksMatching.run(urls, app: app, against: source) }
        if let name = windowsApps.first {
            return try await WindowsMatching.run(urls, packageFamilyName: name, against: source)
        }
        return try await URLMatching.run(urls, against: source)
    }
}

/// A kind's option value written as its domains.txt token (`--android android:com.acme.app`):
/// refused with the option it means, not with the value's own error.
enum KindOptionValue {
    static func refuseToken(_ value: String, of kind: AssociationKind) throws {
        let prefix = kind.word + ":"
        guard value.lowercased().hasPrefix(prefix) else { return }
        let bare = value.dropFirst(prefix.count)
        throw ValidationError(
            "--\(kind.word) takes the value alone (\(prefix)… is the domains.txt token): did you mean --\(kind.word) \(bare.prefix(120))?"
        )
    }
}
