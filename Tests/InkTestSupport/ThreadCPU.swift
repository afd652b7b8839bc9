#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`). A time bound in a unit test is judged
/// by it as well as by the wall clock: a thread descheduled on a shared machine (or beside a sanitized suite
/// running in parallel) stretches the wall clock but not this, while work past a deadline stretches both.
public func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
