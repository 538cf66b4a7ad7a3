/// What a recorder does when its threads fall behind and the queue is full.
public enum OverflowPolicy: Sendable, Equatable {
    /// Dispatch waits until the encoder thread makes room: nothing is lost, the app slows down.
    case block
    /// The step is dropped and counted; the log gets a gap marker naming the missing steps,
    /// and the next recorded step is a keyframe. The app never waits.
    case dropWithGapMarker
}
