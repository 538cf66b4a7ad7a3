/// A state a recorder can store: `Codable` to reach the log and come back for replay,
/// `Sendable` because the recorder encodes on a thread of its own, and `Equatable` so that
/// tests and observers can compare states. Rewind never asks `==` what to store: a type whose
/// `==` compares only an `id` is recorded with every field.
public typealias RecordableState = Codable & Equatable & Sendable

/// An action a recorder can store: what a ``RecordableState`` is, and a ``DescribedAction``,
/// which names the action and the screen that sent it (both have defaults).
public typealias RecordableAction = Codable & Equatable & DescribedAction
