package io.mapsketch.interop;

/** Which of DataSketches' HLL estimators answers for an image, as DataSketches picks it per mode. */
enum DataSketchesHllEstimator {
    /** LIST and SET modes: the number of distinct coupons, mapped through a cubic interpolation table. */
    COUPON,
    /** HLL mode, sketch built by updates in order: the historic inverse probability accumulator. */
    HIP,
    /**
     * HLL mode, sketch out of order (the result of a union, or read from one): the raw HLL estimate
     * corrected through an interpolation table, pasted with linear counting below about 3k.
     */
    COMPOSITE
}
