import AASAModel
import Testing

/// How the input names an app on each platform: an expected app with its service, a Windows
/// package family name, a HarmonyOS app identifier; and which file a finding is about.
@Suite struct AppNamesTests {
    /// Package family names and app identifiers are read as the platforms write them; Apple-style
    /// placeholders are named.
    @Test(
        arguments: [
            ("MyApp_9jmtgj1pbbz6e", nil), ("Contoso.App-Beta_8wekyb3d8bbwe", nil),
            ("MyApp", "no publisher ID"), ("MyApp_9JMTGJ1PBBZ6E", "Crockford base32"),
            ("MyApp_9jmtgj1pbbz6", "Crockford base32"), ("YourPackageFamilyName_9jmtgj1pbbz6e", "placeholder"),
            ("My App_9jmtgj1pbbz6e", "package name"),
        ] as [(String, String?)])
    func packageFamilyNamesAreRead(name: String, problem: String?) {
        let found = PackageFamilyName.problem(with: name)
        if let problem {
            #expect(found?.contains(problem) == true, "\(String(describing: found))")
        } else {
            #expect(found == nil, "\(String(describing: found))")
        }
    }

    @Test(
        arguments: [
            ("5765880207854972765", nil), ("com.example.app", "reads as a bundle name"),
            ("app-12", "is a number"), ("<APP ID>", "placeholder"),
            ("your_app_identifier", "placeholder"), ("", "not an app identifier"),
            ("two words", "not an app identifier"),
        ] as [(String, String?)])
    func harmonyAppIdentifiersAreRead(identifier: String, problem: String?) {
        let found = HarmonyAppIdentifier.problem(with: identifier)
        if let problem {
            #expect(found?.contains(problem) == true, "\(String(describing: found))")
        } else {
            #expect(found == nil, "\(String(describing: found))")
        }
    }

    /// `webcredentials:ID` is that service's; a bare ID and `applinks:ID` are applinks', spelled
    /// bare; another prefix is named, and the ID after a service is checked as any app ID.
    @Test func anExpectedAppIsReadWithItsService() {
        let app = "QX7TM4K2RB.com.example.app"
        #expect(ExpectedApp(spelled: "webcredentials:" + app) == ExpectedApp(service: .webcredentials, appID: app))
        #expect(ExpectedApp(spelled: "APPCLIPS:" + app + ".Clip").service == .appclips)
        #expect(ExpectedApp(spelled: "applinks:" + app).spelled == app)
        #expect(ExpectedApp(spelled: app) == ExpectedApp(appID: app))
        #expect(ExpectedApp(service: .webcredentials, appID: app).spelled == "webcredentials:" + app)
        #expect(ExpectedApp.problem(with: "webcredentials:" + app) == nil)
        #expect(ExpectedApp.problem(with: "passkey:" + app)?.contains("names no service") == true)
        #expect(ExpectedApp.problem(with: "webcredentials:ABCDE12345.com.example")?.contains("sample prefix") == true)
        let apps = ["webcredentials:" + app, app, "webcredentials:" + app].map(ExpectedApp.init(spelled:))
        #expect(apps.appIDs(of: .webcredentials) == [app] && apps.appIDs(of: .applinks) == [app])
    }

    /// A finding is about its kind's file, else the AASA's (the domain's own findings too).
    @Test func aFindingsFileIsItsLocationsKind() {
        #expect(AssociationKinds.file(of: .assetlinks) == "assetlinks")
        #expect(AssociationKinds.file(of: .windows) == "windows")
        #expect(AssociationKinds.file(of: .wellKnown) == AssociationKinds.aasaName)
        #expect(AssociationKinds.file(of: .domain) == AssociationKinds.aasaName)
    }

    /// The output folder keeps its own files beside the run folders, and serves a run's reports.
    @Test func theOutputFolderLayoutNamesEachFileOnce() {
        let names =
            OutputFolderLayout.kept + [
                OutputFolderLayout.acknowledgements, OutputFolderLayout.runJSON, OutputFolderLayout.runHTML,
                OutputFolderLayout.domainStream, OutputFolderLayout.journal, OutputFolderLayout.runMarker,
            ]
        #expect(Set(names).count == names.count, "\(names)")
        #expect(OutputFolderLayout.runReports.allSatisfy(names.contains))
    }
}
