import RewindJSON
import Testing

@testable import RewindCore

@Suite struct KeyframeScheduleTests {
    /// Each step's decision, `k` or `p`, with the sizes stored: a keyframe of `keyframe` bytes,
    /// patches of `patch` bytes; `lost` names steps whose step before was not stored.
    static func decisions(interval: Int, keyframe: Int, patch: Int, steps: Int, lost: Set<Int> = []) -> String {
        var schedule = KeyframeSchedule(interval: interval)
        var result = ""
        for step in 1...steps {
            let isKeyframe = schedule.storesKeyframe(at: step, followingStoredStep: step > 1 && !lost.contains(step))
            schedule.stored(bytes: isKeyframe ? keyframe : patch, keyframe: isKeyframe)
            result += isKeyframe ? "k" : "p"
        }
        return result
    }

    @Test func smallStatesGetAKeyframeEveryInterval() {
        #expect(Self.decisions(interval: 4, keyframe: 40, patch: 10, steps: 12) == "kppkpppkpppk")
    }

    /// 100 bytes whole, 10 a patch: at step 4 the two patches since weigh 20 bytes, under a
    /// quarter; at step 8, 60. With 400 bytes whole, step 12 is the first due whose patches
    /// (100 bytes) weigh a quarter.
    @Test func aLargeStateWaitsUntilItsPatchesWeighAQuarterOfIt() {
        #expect(Self.decisions(interval: 4, keyframe: 100, patch: 10, steps: 8) == "kppppppk")
        #expect(Self.decisions(interval: 4, keyframe: 400, patch: 10, steps: 13) == "kppppppppppkp")
    }

    @Test func aStepAfterALossIsAKeyframeWhateverItsSize() {
        #expect(Self.decisions(interval: 4, keyframe: 400, patch: 10, steps: 7, lost: [6]) == "kppppkp")
    }

    @Test func aRecordIsTheKeyframeOrThePatchAsDueAndItsSizeIsNoted() {
        var schedule = KeyframeSchedule(interval: 2)
        let first: JSONValue = ["items": [1, 2, 3], "name": "list"]
        let second: JSONValue = ["items": [1, 2, 4], "name": "list"]
        #expect(schedule.record(of: first, at: 1, after: .null, followingStoredStep: false) == .keyframe(first))
        #expect(schedule.keyframeBytes == #"{"items":[1,2,3],"name":"list"}"#.utf8.count)
        #expect(schedule.record(of: second, at: 2, after: first, followingStoredStep: true) == .patch(.between(first, second)))
        #expect(schedule.patchBytes == #"[["p",["items"],2,3,[4]]]"#.utf8.count)
    }
}
