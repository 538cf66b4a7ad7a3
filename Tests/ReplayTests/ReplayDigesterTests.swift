import Foundation
import PhotoApp
import RewindCore
import RewindJSON
import Testing

@testable import RewindReplay

/// A replay that checks a recording takes each state's digest from its own text writer
/// (`ReplayDigester`), without its tree: the digest must be the tree's, placeholders must be
/// found as in the tree, and a large state must go back to trees.
@Suite struct ReplayDigesterTests {
    @Test(arguments: [StateDigest.Rule.chained, .summed])
    func aStatesDigestAndItsPlaceholdersAreThoseOfItsTree(rule: StateDigest.Rule) throws {
        let digester = ReplayDigester(rule: rule)
        var states: [LoginState] = [LoginState()]
        var state = LoginState()
        state.username = "ada\u{1}\"\\é"
        state.password = Secret("hunter2")
        state.errorMessage = "Wrong password"
        states.append(state)
        states.append(try JSONValueDecoder().decode(LoginState.self, from: JSONValueEncoder().encode(state)))
        for state in states {
            let tree = try JSONValueEncoder().encode(state)
            #expect(digester.digest(of: state, as: LoginState.self) == tree.digest(by: rule))
            #expect(digester.holdsPlaceholder() == ReplayRun.holdsRedaction(tree))
        }
        var photos = PhotosState()
        photos.photos = (0..<20).map { ThumbnailState(photo: Photo(id: $0, title: "Photo \($0)", thumbnailURL: "t\($0)", imageURL: "i\($0)")) }
        let tree = try JSONValueEncoder().encode(photos)
        #expect(digester.digest(of: photos, as: PhotosState.self) == tree.digest(by: rule))
        #expect(!digester.holdsPlaceholder() && !ReplayRun.holdsRedaction(tree))
    }

    @Test func aLargeStateGoesBackToTrees() {
        let digester = ReplayDigester(rule: .summed)
        var photos = PhotosState()
        photos.photos = (0..<1_000).map { ThumbnailState(photo: Photo(id: $0, title: "Photo \($0)", thumbnailURL: "t\($0)", imageURL: "i\($0)")) }
        #expect(digester.digest(of: photos, as: PhotosState.self) == nil)
        #expect(digester.prefersTrees)
    }
}
