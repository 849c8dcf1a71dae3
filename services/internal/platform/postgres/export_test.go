package postgres

// AdvisoryKey is the advisory lock key of a name (tests hold the migration
// lock to play another replica).
var AdvisoryKey = advisoryKey
