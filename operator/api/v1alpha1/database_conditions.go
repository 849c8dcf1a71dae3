package v1alpha1

// ConditionDatabaseReady is set for a database run by CloudNativePG (every
// mode but a DSN Secret): the Cluster is ready and, on a shared Cluster,
// the site's role and database exist.
const ConditionDatabaseReady = "DatabaseReady"

// Reasons of DatabaseReady.
const (
	// ReasonCNPGNotInstalled: the cluster does not serve CloudNativePG's
	// kinds; the operator picks them up once they are installed.
	ReasonCNPGNotInstalled = "CNPGNotInstalled"
	// ReasonDatabaseClusterMissing: the named Cluster does not exist.
	ReasonDatabaseClusterMissing = "ClusterMissing"
	// ReasonDatabaseClusterNotReady: the Cluster exists but is not ready
	// (instances starting, a failover, an upgrade).
	ReasonDatabaseClusterNotReady = "ClusterNotReady"
	// ReasonDatabaseCredentialsMissing: the Cluster's application Secret
	// is not there yet, or lacks a key.
	ReasonDatabaseCredentialsMissing = "CredentialsMissing"
	// ReasonDatabaseNotApplied: on a shared Cluster, the site's role or
	// CNPG Database is not reconciled yet (or CloudNativePG refused it).
	ReasonDatabaseNotApplied = "DatabaseNotApplied"
	// ReasonDatabaseAvailable: the database accepts the site's connections.
	ReasonDatabaseAvailable = "Available"
)
