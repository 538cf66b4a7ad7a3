import Foundation
import RewindJSON

/// A step as the encoder thread hands it to the writer thread: encoded, not yet diffed.
///
/// Its own type beside ``RecordedEvent``: it holds the encoder's bytes (`EncodedValue`) and the
/// state whole, and the writer thread makes the event when it diffs that state against the
/// step before, which only the writer holds. Parsing them into a `RecordedEvent` here would
/// parse every value twice on the recorder's way (DESIGN 7).
@usableFromInline
struct EncodedStep: Sendable {
    var step: Int
    var time: Date
    var origin: String
    var actionName: String
    var action: EncodedValue
    var cause: Int?
    var outputs: [EncodedValue]
    /// The follow-up actions the step sent, outputs aside.
    var sends: [EncodedValue]
    /// The names of the work the step started, nil for work given none.
    var runs: [String?]
    var digest: StateDigest
    /// The whole state after the step; the writer stores it or its patch.
    var state: EncodedValue

    @usableFromInline
    init(
        step: Int, time: Date, origin: String, actionName: String, action: EncodedValue, cause: Int?, outputs: [EncodedValue],
        sends: [EncodedValue], runs: [String?], digest: StateDigest, state: EncodedValue
    ) {
        self.step = step
        self.time = time
        self.origin = origin
        self.actionName = actionName
        self.action = action
        self.cause = cause
        self.outputs = outputs
        self.sends = sends
        self.runs = runs
        self.digest = digest
        self.state = state
    }
}

/// A value as the encoder wrote it: its text and tape, for a type that writes them itself
/// (`@RewindCodable`), or its tree.
@usableFromInline
enum EncodedValue: Sendable {
    /// A state's text and tape, which the next state's patch is taken against.
    case text(JSONStateSnapshot)
    /// An action's text alone.
    case bytes([UInt8])
    case tree(JSONValue)
    /// A state's patch from the state of the step before, which was a tree or a patch: the
    /// writer keeps the tree itself, updated by each patch. A tree handed over would share
    /// the encoder's arrays (`JSONEncodingMemo`), so that encoding the next state copied them.
    case patch(JSONPatch)

    /// Appends the value's canonical text to `buffer`.
    func write(to buffer: inout [UInt8]) {
        switch self {
        case let .text(snapshot): buffer.append(contentsOf: snapshot.text)
        case let .bytes(bytes): buffer.append(contentsOf: bytes)
        case let .tree(value): value.canonicalBytes(into: &buffer)
        case let .patch(patch): patch.canonicalBytes(into: &buffer)
        }
    }

    /// Whether the value may hold a secret's placeholder: a quick look for its key in the text,
    /// before the walk of a tree that ``RedactionScanner`` makes.
    var mayHoldPlaceholder: Bool {
        switch self {
        case let .text(snapshot): snapshot.contains("\"$redacted\"")
        case let .bytes(bytes): bytes.withUnsafeBufferPointer { JSONStateSnapshot.contains("\"$redacted\"", in: $0) }
        case .tree, .patch: true
        }
    }

    /// The value as a tree: parsed from its text, which only a few values need.
    func tree() throws -> JSONValue {
        switch self {
        case let .text(snapshot): try snapshot.value()
        case let .bytes(bytes): try JSONValue(parsing: bytes)
        case let .tree(value): value
        case let .patch(patch): patch.json
        }
    }
}
