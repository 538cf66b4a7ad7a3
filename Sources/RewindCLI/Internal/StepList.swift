import ArgumentParser

/// Steps written as a list of numbers and ranges, `12,15-18`: `replay --skip`'s argument.
struct StepList {
    let steps: Set<Int>

    init(parsing text: String) throws {
        var steps = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard let step = bounds[0], step > 0 else { throw Self.invalid(part, in: text) }
                steps.insert(step)
            case 2:
                guard let low = bounds[0], let high = bounds[1], low > 0, low <= high else { throw Self.invalid(part, in: text) }
                steps.formUnion(low...high)
            default:
                throw Self.invalid(part, in: text)
            }
        }
        self.steps = steps
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
