import Testing
import InkGeometry
import InkTestSupport

/// AffineTransform: composition order, inversion, singular values, similarity and the y-flip.
/// Expected values are hand-computed (CGAffineTransform semantics) or algebraic identities.
struct AffineTransformTests {
    // MARK: Composition order

    @Test func concatenatingAppliesSelfFirst() {
        let t = AffineTransform.translation(10, 0)
        let u = AffineTransform.scale(2, 3)
        // t first: (1, 1) → (11, 1) → (22, 3).
        #expect(Oracle.near(Point(1, 1).applying(t.concatenating(u)), Point(22, 3), 1e-12))
        // u first: (1, 1) → (2, 3) → (12, 3).
        #expect(Oracle.near(Point(1, 1).applying(u.concatenating(t)), Point(12, 3), 1e-12))
    }

    @Test func rotationIsCounterClockwiseInYUpAndComposesLikeCG() {
        let r = AffineTransform.rotation(Double.pi / 2)
        #expect(Oracle.near(Point(1, 0).applying(r), Point(0, 1), 1e-15))
        #expect(Oracle.near(Point(0, 1).applying(r), Point(-1, 0), 1e-15))
        // CGAffineTransform(rotationAngle: π/2).concatenating(CGAffineTransform(translationX: 5, y: 0))
        // has matrix [0, 1, -1, 0, 5, 0].
        let m = r.concatenating(.translation(5, 0))
        #expect(Oracle.near(m, AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 5, ty: 0), 1e-15))
        // The translation is rotated when it comes first: [0, 1, -1, 0, 0, 5].
        let n = AffineTransform.translation(5, 0).concatenating(r)
        #expect(Oracle.near(n, AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 5), 1e-15))
    }

    @Test(arguments: 0..<8)
    func concatenationEqualsSequentialApplication(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 11)
        func random() -> AffineTransform {
            AffineTransform(a: rng.range(-3, 3), b: rng.range(-3, 3), c: rng.range(-3, 3), d: rng.range(-3, 3),
                            tx: rng.range(-100, 100), ty: rng.range(-100, 100))
        }
        let t = random(), u = random(), v = random()
        for _ in 0..<50 {
            let p = Point(rng.range(-50, 50), rng.range(-50, 50))
            let want = (p.applying(t).applying(u)).applying(v)
            #expect(Oracle.near(p.applying(t.concatenating(u).concatenating(v)), want, 1e-9))
            #expect(Oracle.near(p.applying(t.concatenating(u.concatenating(v))), want, 1e-9))
        }
    }

    @Test func entriesFollowCGAffineTransformOrder() {
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // x' = a*x + c*y + tx, y' = b*x + d*y + ty
        #expect(Oracle.near(Point(1, 1).applying(t), Point(1 + 3 + 5, 2 + 4 + 6), 0))
        #expect(Oracle.near(Point(1, 0).applying(t), Point(1 + 5, 2 + 6), 0))
    }

    @Test func rectApplyingIsTheBoxOfTheMappedCorners() {
        let r = Rect(minX: 0, minY: 0, maxX: 2, maxY: 1)
        let t = AffineTransform.rotation(Double.pi / 2).concatenating(.translation(10, 0))
        // (0,0)→(10,0), (2,0)→(10,2), (0,1)→(9,0), (2,1)→(9,2)
        let m = r.applying(t)
        #expect(isClose(m.minX, 9, within: 1e-12) && isClose(m.maxX, 10, within: 1e-12) && isClose(m.minY, 0, within: 1e-12) && isClose(m.maxY, 2, within: 1e-12))
        #expect(Rect.empty.applying(t).isEmpty)
    }

    // MARK: Inversion

    @Test(arguments: 0..<20)
    func inverseRoundTripsRandomTransforms(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed) &* 7919 &+ 3)
        var t: AffineTransform
        repeat {
            t = AffineTransform(a: rng.range(-3, 3), b: rng.range(-3, 3), c: rng.range(-3, 3), d: rng.range(-3, 3),
                                tx: rng.range(-1000, 1000), ty: rng.range(-1000, 1000))
        } while isClose(t.a * t.d, t.b * t.c, within: 0.5)   // keep the condition number modest (≤ ~72)
        let inv = try #require(t.inverted())
        #expect(Oracle.near(t.concatenating(inv), .identity, 1e-9))
        #expect(Oracle.near(inv.concatenating(t), .identity, 1e-9))
        for _ in 0..<20 {
            let p = Point(rng.range(-1000, 1000), rng.range(-1000, 1000))
            #expect(Oracle.near(p.applying(t).applying(inv), p, 1e-9))
            #expect(Oracle.near(p.applying(inv).applying(t), p, 1e-9))
        }
    }

    @Test func inverseOfKnownTransforms() throws {
        let t = AffineTransform.scale(2, 4).concatenating(.translation(10, -6))
        let inv = try #require(t.inverted())
        #expect(Oracle.near(inv, AffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: -5, ty: 1.5), 1e-15))
        let flip = AffineTransform.yFlip(height: 300)
        #expect(Oracle.near(try #require(flip.inverted()), flip, 1e-15))
    }

    static let singular: [AffineTransform] = [
        .scale(0, 1), .scale(1, 0), .scale(0, 0),
        AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 3),          // rank 1
        AffineTransform(a: 1, b: 0, c: 0, d: 1e-13, tx: 0, ty: 0),      // smin/smax = 1e-13 < 1e-12
        AffineTransform(a: 0x1p-1060, b: 0, c: 0, d: 0x1p-1060, tx: 0, ty: 0), // subnormal scale
    ]

    @Test(arguments: singular)
    func singularTransformsHaveNoInverse(_ t: AffineTransform) {
        #expect(t.inverted() == nil)
    }

    static let nonFinite: [AffineTransform] = [
        AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: .infinity, c: 0, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: -.infinity, d: 1, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: .nan, tx: 0, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0),
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: .nan),
    ]

    @Test(arguments: nonFinite)
    func nonFiniteTransformsHaveNoInverse(_ t: AffineTransform) {
        #expect(!t.isFinite)
        #expect(t.inverted() == nil)
    }

    // MARK: Singular values

    @Test(arguments: [0.0, 0.3, 1.0, 2.5, -4.0])
    func rotationTimesScaleTwoThreeHasSingularValuesThreeTwo(angle: Double) {
        let t = AffineTransform.scale(2, 3).concatenating(.rotation(angle))
        let s = t.singularValues
        #expect(Oracle.near(s.max, 3, 1e-12))
        #expect(Oracle.near(s.min, 2, 1e-12))
        #expect(Oracle.near(t.maxScale, 3, 1e-12))
        #expect(Oracle.near(t.minScale, 2, 1e-12))
        // Rotating after instead of before does not change them either.
        let u = AffineTransform.rotation(angle).concatenating(.scale(2, 3))
        #expect(Oracle.near(u.singularValues.max, 3, 1e-12) && Oracle.near(u.singularValues.min, 2, 1e-12))
    }

    /// A shear by k has singular values (√(k² + 4) ± |k|) / 2 (their product is det = 1).
    @Test(arguments: [0.5, 1.0, -2.0, 10.0])
    func shearSingularValues(k: Double) {
        let want = ((k * k + 4).squareRoot() + abs(k)) / 2
        for t in [AffineTransform.shear(k, 0), AffineTransform.shear(0, k)] {
            let s = t.singularValues
            #expect(Oracle.near(s.max, want, 1e-12))
            #expect(Oracle.near(s.min, 1 / want, 1e-12))
        }
    }

    @Test func singularValuesOfSpecialCases() {
        #expect(Oracle.near(AffineTransform.identity.singularValues.max, 1, 0))
        #expect(Oracle.near(AffineTransform.identity.singularValues.min, 1, 0))
        let flip = AffineTransform.yFlip(height: 10).singularValues
        #expect(Oracle.near(flip.max, 1, 1e-15) && Oracle.near(flip.min, 1, 1e-15))
        let neg = AffineTransform.scale(-2, 5).singularValues
        #expect(Oracle.near(neg.max, 5, 1e-15) && Oracle.near(neg.min, 2, 1e-15))
        let zero = AffineTransform.scale(0, 0).singularValues
        #expect(zero.max == 0 && zero.min == 0)
        let rank1 = AffineTransform(a: 3, b: 4, c: 0, d: 0, tx: 0, ty: 0).singularValues
        #expect(Oracle.near(rank1.max, 5, 1e-15) && Oracle.near(rank1.min, 0, 1e-15))
    }

    /// σmax² + σmin² = a² + b² + c² + d² and σmax · σmin = |det| for every matrix.
    @Test(arguments: 0..<10)
    func singularValuesSatisfyFrobeniusAndDeterminantIdentities(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 500)
        for _ in 0..<100 {
            let a = rng.range(-5, 5), b = rng.range(-5, 5), c = rng.range(-5, 5), d = rng.range(-5, 5)
            let s = AffineTransform(a: a, b: b, c: c, d: d, tx: 9, ty: 9).singularValues
            #expect(s.max >= s.min && s.min >= 0)
            #expect(Oracle.near(s.max * s.max + s.min * s.min, a * a + b * b + c * c + d * d, 1e-10))
            #expect(Oracle.near(s.max * s.min, abs(a * d - b * c), 1e-10))
        }
    }

    // MARK: Similarity

    static let similarities: [AffineTransform] = [
        .identity,
        .rotation(0.7),
        .scale(2.5, 2.5),
        .scale(3, 3).concatenating(.rotation(-1.2)).concatenating(.translation(40, -7)),
        .yFlip(height: 200),
        .scale(0.01, -0.01).concatenating(.rotation(2)),
        AffineTransform.scale(-4, 4),
    ]

    @Test(arguments: similarities)
    func rotationUniformScaleAndFlipAreSimilarities(_ t: AffineTransform) {
        #expect(t.isSimilarity)
    }

    static let nonSimilarities: [AffineTransform] = [
        .scale(2, 3),
        .scale(1, 1.0001),
        .scale(2, 3).concatenating(.rotation(0.4)),
        .shear(0.3, 0),
        .scale(0, 0),
        .scale(1, 0),
    ]

    @Test(arguments: nonSimilarities)
    func nonUniformScaleShearAndSingularAreNotSimilarities(_ t: AffineTransform) {
        #expect(!t.isSimilarity)
    }

    // MARK: y-flip

    @Test func yFlipMapsYUpToYDownAndIsItsOwnInverse() {
        let f = AffineTransform.yFlip(height: 480)
        #expect(Oracle.near(Point(7, 0).applying(f), Point(7, 480), 0))
        #expect(Oracle.near(Point(7, 480).applying(f), Point(7, 0), 0))
        #expect(Oracle.near(Point(-3, 100).applying(f), Point(-3, 380), 0))
        #expect(Oracle.near(f.concatenating(f), .identity, 0))
        #expect(f.determinant < 0)
    }

    @Test func linearPartIgnoresTranslation() {
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 100, ty: 200)
        #expect(Oracle.near(Point(1, 1).applying(t.linearPart), Point(4, 6), 0))
        #expect(Oracle.near(Point(1, 1).applying(t), Point(104, 206), 0))
    }

    // MARK: singular and out-of-range scales (one definition)

    @Test func placeableMeansLeastStretchAboveOneTrillionthOfTheMost() {
        // Diagonal transforms: the singular values are |a| and |d|, known without the closed form.
        #expect(SingularValues(max: 1, min: 2e-12).isPlaceable)
        #expect(!SingularValues(max: 1, min: 5e-13).isPlaceable)
        #expect(!SingularValues(max: 0, min: 0).isPlaceable)
        #expect(!SingularValues(max: .nan, min: 1).isPlaceable)
        #expect(AffineTransform(a: 1, b: 0, c: 0, d: 2e-12, tx: 0, ty: 0).singularValues.isPlaceable)
        #expect(!AffineTransform(a: 1, b: 0, c: 0, d: 5e-13, tx: 0, ty: 0).singularValues.isPlaceable)
        // A singular transform has no inverse; a placeable one does.
        #expect(AffineTransform(a: 1, b: 0, c: 0, d: 5e-13, tx: 0, ty: 0).inverted() == nil)
        #expect(AffineTransform(a: 2, b: 4, c: 1, d: 2, tx: 0, ty: 0).inverted() == nil)   // rank 1
        #expect(AffineTransform(a: 1, b: 0, c: 0, d: 2e-12, tx: 0, ty: 0).inverted() != nil)
    }

    @Test func scaleRangeIsOpenBetweenOneOver1e30And1e30() {
        #expect(SingularValues(max: 9e29, min: 2e-30).isWithinScaleRange)
        #expect(!SingularValues(max: 2e30, min: 1).isWithinScaleRange)
        #expect(!SingularValues(max: 1, min: 5e-31).isWithinScaleRange)
        #expect(!SingularValues(max: .infinity, min: 1).isWithinScaleRange)
        #expect(!SingularValues(max: .nan, min: 1).isWithinScaleRange)
        #expect(SingularValues(max: 2e30, min: 1).isMinWithinScaleRange)
        #expect(!SingularValues(max: 2e30, min: 1).isMaxWithinScaleRange)
    }
}
