import ArgumentParser

/// Steps written as a list of numbers and ranges, `12,15-18`: `replay --skip`'s argument.
struct StepList {
    /// The ranges as written (a single step is a range of one): kept as ranges, so that
    /// `1-99999999999` costs nothing until it meets a session's bounds.
    let ranges: [ClosedRange<Int>]

    init(parsing text: String) throws {
        var ranges: [ClosedRange<Int>] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard let step = bounds[0], step > 0 else { throw Self.invalid(part, in: text) }
                ranges.append(step...step)
            case 2:
                guard let low = bounds[0], let high = bounds[1], low > 0, low <= high else { throw Self.invalid(part, in: text) }
                ranges.append(low...high)
            default:
                throw Self.invalid(part, in: text)
            }
        }
        self.ranges = ranges
    }

    /// The steps listed, when none is past `last`; otherwise the first step past it.
    func steps(upTo last: Int) -> Result<Set<Int>, OutOfRange> {
        if let beyond = ranges.filter({ $0.upperBound > last }).map({ max($0.lowerBound, last + 1) }).min() {
            return .failure(OutOfRange(step: beyond))
        }
        return .success(ranges.reduce(into: Set<Int>()) { $0.formUnion($1) })
    }

    /// A listed step the session does not reach.
    struct OutOfRange: Error {
        let step: Int
    }

    private static func invalid(_ part: Substring, in text: String) -> ValidationError {
        ValidationError("'\(part)' in '\(text)' is not a step or a range of steps (like 12,15-18; steps count from 1)")
    }

    /// Sorted steps, runs written as ranges: `8, 15-18`.
    static func describe(_ steps: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < steps.count {
            var end = index
            while end + 1 < steps.count, steps[end + 1] == steps[end] + 1 { end += 1 }
            parts.append(end == index ? "\(steps[index])" : "\(steps[index])-\(steps[end])")
            index = end + 1
        }
        return parts.joined(separator: ", ")
    }
}
