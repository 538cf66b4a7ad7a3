import Foundation
import RewindCore
import RewindLog

/// The JSON header of an upload; its keys are the protocol's (docs/collector.md).
///
/// Its own type beside `ExportedSession`: its keys are the wire protocol's (`started_at`,
/// snake case, the gaps of the blocks it carries), which a collector of another version of
/// Rewind reads; an export's header line is a file format of its own, versioned apart.
struct UploadHeader: Codable {
    struct Metadata: Codable {
        var app: String?
        var appVersion: String?
        var appBuild: String?
        var device: String?
        var os: String?
        var origin: String?
        var tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case app
            case appVersion = "app_version"
            case appBuild = "app_build"
            case device, os, origin, tags
        }

        var sessionMetadata: SessionMetadata {
            SessionMetadata(
                app: app, appVersion: appVersion, appBuild: appBuild, device: device, os: os,
                origin: origin.map(SessionMetadata.Origin.init(rawValue:)), tags: tags ?? [:])
        }
    }

    struct Gap: Codable {
        var firstStep: Int
        var lastStep: Int
        var reason: String

        enum CodingKeys: String, CodingKey {
            case firstStep = "first_step"
            case lastStep = "last_step"
            case reason
        }
    }

    var uuid: UUID
    var name: String?
    var flow: String
    var startedAt: Double
    var endedAt: Double?
    var formatVersion: Int
    var schemaVersion: Int
    var initialState: String
    var initialDigest: Int64
    var redactedPaths: String
    var metadata: Metadata
    var gaps: [Gap]

    enum CodingKeys: String, CodingKey {
        case uuid, name, flow
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case formatVersion = "format_version"
        case schemaVersion = "schema_version"
        case initialState = "initial_state"
        case initialDigest = "initial_digest"
        case redactedPaths = "redacted_paths"
        case metadata, gaps
    }

    init(_ copy: StoredSessionCopy) {
        let summary = copy.summary, meta = copy.metadata
        uuid = copy.id
        name = summary.name
        flow = summary.flow
        startedAt = summary.startedAt.timeIntervalSince1970
        endedAt = summary.endedAt?.timeIntervalSince1970
        formatVersion = summary.formatVersion
        schemaVersion = summary.schemaVersion
        initialState = copy.initialState
        initialDigest = copy.initialDigest
        redactedPaths = copy.redactedPaths
        metadata = Metadata(
            app: meta.app, appVersion: meta.appVersion, appBuild: meta.appBuild, device: meta.device, os: meta.os, origin: meta.origin?.rawValue,
            tags: meta.tags)
        gaps = copy.gaps.map { Gap(firstStep: $0.steps.lowerBound, lastStep: $0.steps.upperBound, reason: $0.reason) }
    }

    /// Refuses what no recorder writes, and what passes `limits`.
    func check(_ limits: UploadLimits) throws(UploadError) {
        func text(_ value: String?, _ what: String) throws(UploadError) {
            guard let value else { return }
            guard value.utf8.count <= limits.textBytes else {
                throw UploadError(.invalidValue, "the session's \(what) is longer than \(limits.textBytes) bytes")
            }
        }
        try text(name, "name")
        try text(flow, "flow")
        guard !flow.isEmpty else { throw UploadError(.invalidValue, "the session's flow is empty") }
        try text(metadata.app, "app")
        try text(metadata.appVersion, "app version")
        try text(metadata.appBuild, "app build")
        try text(metadata.device, "device")
        try text(metadata.os, "os")
        try text(metadata.origin, "origin")
        try text(redactedPaths, "redacted paths")
        let tags = metadata.tags ?? [:]
        guard tags.count <= 64 else { throw UploadError(.invalidValue, "the session has \(tags.count) tags; at most 64") }
        for (key, value) in tags {
            try text(key, "tag name")
            try text(value, "tag value")
        }
        guard startedAt.isFinite, endedAt?.isFinite ?? true else { throw UploadError(.invalidValue, "the session's times are not finite") }
        guard gaps.count <= 10_000 else { throw UploadError(.invalidValue, "the session has \(gaps.count) gaps; at most 10,000") }
        var after = 0
        for gap in gaps {
            try text(gap.reason, "gap's reason")
            guard gap.firstStep > after, gap.lastStep >= gap.firstStep else {
                throw UploadError(.invalidValue, "the session's gaps are not in step order")
            }
            // Bounded before any arithmetic: the step after a gap ending at 2⁶³−1 trapped.
            guard gap.lastStep <= LogBounds.maximumStep else {
                throw UploadError(.invalidValue, "a gap of the session ends at step \(gap.lastStep), past \(LogBounds.maximumStep)")
            }
            after = gap.lastStep
        }
    }
}
