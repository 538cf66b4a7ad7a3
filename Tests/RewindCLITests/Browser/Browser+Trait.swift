import RewindWebDriver
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test only where chromium and chromedriver are installed, or everywhere when
    /// `REWIND_REQUIRE_BROWSER=1`: then a missing browser fails the test instead of skipping it.
    static var browser: Self {
        .enabled(
            if: Browser.isAvailable || Browser.isRequired,
            "needs chromium and chromedriver (Debian: chromium, chromium-driver), which are not installed: the browser tests are skipped"
        )
    }
}
