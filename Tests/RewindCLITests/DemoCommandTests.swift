import Foundation
import Testing

@Suite struct DemoCommandTests {
    @Test func demoPrintsTimelinesOfTheLoginAndPhotoFlows() throws {
        let result = try RewindBinary.run(["demo"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout
        for session in ["login-happy", "login-invalid-then-fixed", "login-network-error-retry", "photos-happy-browse",
                        "photos-list-error-retry", "photos-thumbnail-error-retry", "app-full"] {
            #expect(output.contains(session), "missing \(session)")
        }
        #expect(output.contains("(login flow,"))
        #expect(output.contains("(photos flow,"))
        #expect(output.contains("photos/thumbnail[4]"))
        #expect(!output.contains("\u{1B}["), "no colour when not on a terminal")
        #expect(!output.contains("wonderland42"), "the password never shows")
    }
}
