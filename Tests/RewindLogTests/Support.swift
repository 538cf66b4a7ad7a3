// The helpers every suite of this target uses.
@_exported import RewindTestSupport
