import Foundation
import RewindJSON
import RewindWebDriver
import Testing

/// Only the shape of `rewind bench --json`: timing belongs to the benchmark, not to tests.
@Suite struct BenchCommandTests {
    static let keys = [
        "dispatch_plain_ns", "dispatch_recording_ns", "dispatch_recording_p99_ns", "record_small_steps_per_s",
        "record_large_steps_per_s", "bytes_per_step_small", "bytes_per_step_large", "naive_bytes_per_step_small",
        "naive_bytes_per_step_large", "naive_record_small_steps_per_s", "raw_sqlite_rows_per_s", "seek_p50_ms",
        "seek_p99_ms", "replay_steps_per_s", "diff_large_ms", "log_first_page_ms", "clock_read_ns",
        "dispatch_recording_retained_ns", "dispatch_recording_whole_ns", "ratio_dispatch_retained", "written_bytes_per_step_retained",
        "written_bytes_per_step_whole", "ratio_written_bytes_retained", "dispatch_recording_explicit_ns",
        "record_small_explicit_steps_per_s", "record_large_explicit_steps_per_s", "record_xlarge_steps_per_s",
        "naive_record_xlarge_steps_per_s", "replay_large_steps_per_s", "replay_xlarge_steps_per_s", "dispatch_recording_large_ns",
        "dispatch_recording_large_explicit_ns", "ratio_dispatch_recording", "ratio_record_large_naive", "ratio_record_xlarge_large",
        "ratio_replay_xlarge_large", "dispatch_flight_ns", "ratio_dispatch_flight", "ratio_dispatch_flight_plain",
        // At a human pace: each dispatch after the recorder has caught up (DESIGN section 7).
        "dispatch_plain_idle_ns", "dispatch_recording_idle_ns", "dispatch_recording_idle_p99_ns", "ratio_dispatch_recording_idle",
        "ratio_dispatch_recording_idle_p99", "dispatch_plain_large_idle_ns", "dispatch_recording_large_idle_ns",
        "dispatch_recording_large_idle_p99_ns", "ratio_dispatch_recording_large_idle", "ratio_dispatch_recording_large_idle_p99",
        "dispatch_plain_xlarge_idle_ns", "dispatch_recording_xlarge_idle_ns", "dispatch_recording_xlarge_idle_p99_ns",
        "ratio_dispatch_recording_xlarge_idle", "ratio_dispatch_recording_xlarge_idle_p99",
    ]

    static let hasValgrind = DispatchInstructionsTests.onPath("valgrind") != nil

    @Test func quickJSONHasEveryFigureAsANumber() throws {
        let result = try RewindBinary.run(["bench", "--quick", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        guard case let .object(figures) = try JSONValue(parsing: result.stdout) else {
            Issue.record("expected one JSON object")
            return
        }
        // Instructions are counted where valgrind is installed, and left out elsewhere.
        let counted = [
            "instructions_per_step_small", "naive_instructions_per_step_small", "ratio_instructions_small_naive", "instructions_dispatch_plain",
            "instructions_dispatch_recording", "ratio_instructions_dispatch", "instructions_diff_large",
        ]
        for key in Self.keys + (Self.hasValgrind ? counted : []) {
            switch figures[key] {
            case .int?, .double?: break
            default: Issue.record("\(key) is missing or not a number")
            }
        }
        // The sessions page's and a request's beside half-open connections, with a collector:
        // a rewind built with the Servers trait.
        let page = [
            "sessions_page_first_ms", "sessions_page_deep_ms", "sessions_api_deep_ms", "sessions_list_all_ms", "ratio_sessions_page_deep_first",
            "collector_request_ms", "collector_request_p99_ms", "collector_half_open_request_ms", "collector_half_open_request_p99_ms",
            "ratio_collector_half_open",
        ]
        // The live page itself, timed in headless Chromium: with the trait and a browser.
        let browser = [
            "live_browser_drawn_p50_ms", "live_browser_drawn_early_p99_ms", "live_browser_drawn_late_p99_ms", "ratio_live_browser_drawn_late_early",
            "live_browser_events",
        ]
        #if Servers
        #expect(page.allSatisfy { figures[$0] != nil }, "\(result.stderr)")
        if Browser.isAvailable {
            #expect(browser.allSatisfy { figures[$0] != nil }, "\(result.stderr)")
            // Events timed, each to a step the page drew.
            let events: Double? =
                switch figures["live_browser_events"] {
                case .int(let count)?: Double(count)
                case .double(let count)?: count
                default: nil
                }
            #expect((events ?? 0) >= 2, "\(String(describing: events)) events timed")
        } else {
            #expect(browser.allSatisfy { figures[$0] == nil })
            #expect(result.stderr.contains("the browser's figures left out"))
        }
        #else
        #expect((page + browser).allSatisfy { figures[$0] == nil })
        #endif
        // Those of a dispatch at a human pace take eight runs under callgrind: full runs only.
        #expect(figures["instructions_idle_dispatch_large"] == nil)
        #expect(result.stderr.contains("note: instructions per idle dispatch left out of a quick run"))
        if !Self.hasValgrind {
            #expect(counted.allSatisfy { figures[$0] == nil })
            #expect(result.stderr.contains("note: instructions per step left out: valgrind or strip is not installed"))
        }
    }
}
