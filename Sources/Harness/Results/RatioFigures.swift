/// A row's time per event against its peers' in the same configuration (same threads and publication).
package struct RatioFigures: Codable, Sendable, Equatable {
    /// `reference`'s ns/event over this row's.
    package var speedupVsReference: Double?
    /// This row's ns/event over `floor`'s.
    package var ratioToFloor: Double?
    /// Bootstrap 95 % intervals of the two over the paired repetitions.
    package var speedupVsReferenceCi95: [Double]?
    package var ratioToFloorCi95: [Double]?

    package init(speedupVsReference: Double? = nil, ratioToFloor: Double? = nil, speedupVsReferenceCi95: [Double]? = nil, ratioToFloorCi95: [Double]? = nil) {
        self.speedupVsReference = speedupVsReference
        self.ratioToFloor = ratioToFloor
        self.speedupVsReferenceCi95 = speedupVsReferenceCi95
        self.ratioToFloorCi95 = ratioToFloorCi95
    }
}
