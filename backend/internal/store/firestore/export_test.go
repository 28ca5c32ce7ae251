package firestore

func init() {
	// Tiny pages and batches, so the contract's sweeps go through several.
	sweepPage = 2
	expiredBatch = 1
}
