#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under AddressSanitizer or ThreadSanitizer (`swift test --sanitize=…`).
///
/// The sanitizer runtimes export their init functions; `dlsym(nil, …)` looks in every loaded image. Tests
/// built with a sanitizer also run a sanitized `ink-hit`, which reserves terabytes of shadow address space
/// and so cannot start under an address-space cap (`prlimit --as`): memory-capped tests are disabled there,
/// and resident-memory checks are meaningless (quarantine holds freed memory back on purpose).
public enum Sanitizers {
    public static let active: Bool = {
        dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
    }()
}
