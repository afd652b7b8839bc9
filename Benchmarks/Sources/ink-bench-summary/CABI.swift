import InkBenchCABI

/// `ink-bench-summary cabi [--quick]`: page queries through the C interface (inkhit.h) next to the same
/// Swift calls, in one process (`CABINumbers`, Sources/InkBenchCABI).
enum CABI {
    static func run(rounds: Int, seconds: Double) throws {
        print(try CABINumbers.markdown(rounds: rounds, seconds: seconds))
    }
}
