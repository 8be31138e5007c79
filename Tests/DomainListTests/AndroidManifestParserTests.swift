import AASAModel
import DomainList
import Testing

/// `--android-manifest`: the hosts an app's manifest verifies, with the paths it accepts.
@Suite struct AndroidManifestParserTests {
    static let manifest = """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- An app with two verified filters, one unverified, one custom scheme. -->
        <manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">
          <application android:label="Example &amp; Co">
            <activity android:name=".Main">
              <intent-filter android:autoVerify="true">
                <action android:name="android.intent.action.VIEW" />
                <category android:name="android.intent.category.BROWSABLE" />
                <data android:scheme="https" />
                <data android:host="www.example.com" />
                <data android:pathPrefix="/shop" />
                <data android:path="/help" />
              </intent-filter>
              <intent-filter android:autoVerify='true'>
                <data android:scheme="http" android:host="*.Example.org" />
              </intent-filter>
              <intent-filter>
                <data android:scheme="https" android:host="unverified.example.com" />
              </intent-filter>
              <intent-filter android:autoVerify="true">
                <data android:scheme="example" android:host="custom.example.com" />
              </intent-filter>
            </activity>
          </application>
        </manifest>
        """

    @Test func verifiedHostsWithTheirPaths() {
        let result = AndroidManifestParser.parse(Array(Self.manifest.utf8), fileName: "AndroidManifest.xml", apps: [])
        #expect(result.targets.map(\.domain) == ["www.example.com", "example.org"])
        let www = result.targets[0]
        #expect(www.androidApps == [AndroidApp(package: "com.example.app")])
        #expect(www.wants.androidManifestScope?.paths == [.prefix("/shop"), .exact("/help")])
        #expect(www.inputLine == 10)
        // A wildcard host is verified on its base domain, every path.
        #expect(result.targets[1].wants.androidManifestScope?.paths == nil)
        #expect(result.problems.map(\.severity) == [.info])
        #expect(result.problems.first?.message.contains("base domain") == true)
    }

    @Test func theGivenPackageWinsOverTheManifests() {
        let app = AndroidApp(package: "com.example.release", fingerprint: nil)
        let result = AndroidManifestParser.parse(Array(Self.manifest.utf8), fileName: "m.xml", apps: [app])
        #expect(result.targets.allSatisfy { $0.androidApps == [app] })
    }

    @Test func badXMLIsAnErrorWithLineAndColumn() {
        let broken = "<manifest package=\"com.example.app\">\n  <application>\n    <activity android:name=.Main>\n"
        let result = AndroidManifestParser.parse(Array(broken.utf8), fileName: "AndroidManifest.xml", apps: [])
        #expect(result.targets.isEmpty)
        #expect(result.problems.count == 1)
        let problem = result.problems[0]
        #expect(problem.severity == .error && problem.line == 3 && problem.file == "AndroidManifest.xml")
        #expect(problem.message.contains("line 3, column 28"), "\(problem.message)")
    }

    @Test func aManifestWithoutVerifiedHostsSaysSo() {
        let plain = "<manifest package=\"com.example.app\"><application/></manifest>"
        let result = AndroidManifestParser.parse(Array(plain.utf8), fileName: "m.xml", apps: [])
        #expect(result.targets.isEmpty)
        #expect(result.problems.map(\.severity) == [.warning])
        #expect(result.problems[0].message.contains("verifies no App Links host"))
        let unnamed = "<manifest><application/></manifest>"
        let noPackage = AndroidManifestParser.parse(Array(unnamed.utf8), fileName: "m.xml", apps: [])
        #expect(noPackage.problems.map(\.severity) == [.error])
        #expect(noPackage.problems[0].message.contains("--android-package"))
        let notManifest = AndroidManifestParser.parse(Array("<plist/>".utf8), fileName: "m.xml", apps: [])
        #expect(notManifest.problems[0].message.contains("not <manifest>"))
    }

    @Test func theScannerRefusesMismatchedAndUnclosedMarkup() {
        for (text, reason) in [
            ("<a><b></a>", "</a> closes <b>"), ("<a>", "<a> is never closed"), ("<a x=1/>", "quoted value"),
            ("<!-- open", "comment is never closed"), ("<a x=\"&bogus;\"/>", "unknown entity"),
        ] {
            #expect(throws: XMLScanner.ScanError.self) { try XMLScanner.elements(Array(text.utf8)) }
            do {
                _ = try XMLScanner.elements(Array(text.utf8))
            } catch {
                #expect(error.reason.contains(reason), "\(text): \(error.reason)")
            }
        }
        let elements = try? XMLScanner.elements(Array("<a x='&lt;&#65;&#x42;'><b/></a>".utf8))
        #expect(elements?.map(\.name) == ["a", "b"])
        #expect(elements?.first?["x"] == "<AB")
        #expect(elements?.first?.closesAt == 2)
    }
}
