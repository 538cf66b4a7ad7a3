import RewindInspector
import RewindLog
import RewindRendering
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [
        (0, "0.000s"), (3.4, "3.400s"), (59.999, "59.999s"), (59.9996, "1m 0.0s"),
        (60, "1m 0.0s"), (125.25, "2m 5.2s"), (3599.96, "59m 59.9s"),
        (3600, "1h 0m"), (3725.5, "1h 2m"), (86_399.9, "23h 59m"),
        (86_400, "1d 0h 0m"), (724_843.583, "8d 9h 20m"), (-2.5, "-2.500s"),
    ])
    func aDurationReadsInTheUnitsItNeeds(seconds: Double, text: String) {
        #expect(DurationText.describe(seconds) == text)
    }

    @Test func somethingThatIsNotALengthOfTimeIsPrintedAsItIs() {
        #expect(DurationText.describe(.infinity) == "infs")
        #expect(DurationText.describe(1e13) == "10000000000000.0s")
    }

    @Test func theSessionListPrintsADurationOfDaysInDaysHoursAndMinutes() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("long.rewind")
        let log = try HandmadeLog(path: path)
        try log.session("long", steps: HandmadeLog.typing(1...2), secondsPerStep: 362_421.7915)
        try log.session("short", steps: HandmadeLog.typing(1...3))
        try log.close()
        let lines = SessionsRenderer().render(try LogInspector(path: path).sessions())
        #expect(
            lines == [
                "#  name   flow   steps  started (UTC)         duration",
                "1  long   login      2  2027-01-15 08:00:00  8d 9h 20m",
                "2  short  login      3  2027-01-15 08:00:00     0.750s",
            ])
    }
}
