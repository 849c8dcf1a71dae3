package resources

import (
	"fmt"
	"net/url"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// CloudNativePG's kinds, written as unstructured so the operator does not
// depend on CloudNativePG's module (and its dependencies), and only when
// the cluster serves them.
var (
	CNPGClusterGVK  = schema.GroupVersionKind{Group: "postgresql.cnpg.io", Version: "v1", Kind: "Cluster"}
	CNPGDatabaseGVK = schema.GroupVersionKind{Group: "postgresql.cnpg.io", Version: "v1", Kind: "Database"}
)

// ComponentDatabase labels the children that make up the site's database
// (the managed Cluster, the CNPG Database, the role and DSN Secrets).
const ComponentDatabase = "database"

// Keys of the generated DSN Secret (DatabaseSecretName): the primary's DSN
// under the contract's key, and the read pool's.
const DatabaseReadURLSecretKey = "read-dsn"

// cnpgReloadLabel makes CloudNativePG watch a Secret it does not own (a
// managed role's password), so a changed password reaches the role.
const cnpgReloadLabel = "cnpg.io/reload"

// managedSmartShutdownTimeout is how long, in seconds, a managed
// Cluster's stopping primary waits for its sessions before a fast
// shutdown (ManagedCluster).
const managedSmartShutdownTimeout = 10

// cnpgPort is the port of CloudNativePG's Services.
const cnpgPort = "5432"

// DatabaseSecretName names the Secret with the DSNs the operator writes for
// a database run by CloudNativePG.
func DatabaseSecretName(site string) string { return site + "-database" }

// DatabaseRoleSecretName names the Secret of a site's managed role on a
// shared Cluster (username and password, as CloudNativePG reads them).
func DatabaseRoleSecretName(site string) string { return site + "-database-role" }

// ManagedClusterName names the Cluster of spec.database.managed.
func ManagedClusterName(site string) string { return site + "-db" }

// CNPGClusterName is the Cluster the site's database is on, or "" for a
// DSN Secret.
func CNPGClusterName(site *sitev1.Site) string {
	db := site.Spec.Database
	switch {
	case db.Cluster != nil:
		return db.Cluster.Name
	case db.Managed != nil:
		return ManagedClusterName(site.Name)
	case db.Shared != nil:
		return db.Shared.Cluster
	}
	return ""
}

// CNPGAppSecretName is the application Secret CloudNativePG writes for a
// Cluster it bootstrapped ("<cluster>-app": username, password, dbname).
func CNPGAppSecretName(cluster string) string { return cluster + "-app" }

// SharedRoleName is the PostgreSQL role (and database name) of a site on a
// shared Cluster. Site names are DNS labels of at most 40 characters, so
// the name is unique in the namespace, a plain identifier (no quoting) and
// shorter than PostgreSQL's 63 bytes.
func SharedRoleName(site *sitev1.Site) string {
	return "siteplane_" + strings.ReplaceAll(site.Name, "-", "_")
}

// ManagedCluster is the Cluster of spec.database.managed: CloudNativePG's
// defaults (an "app" database owned by an "app" user, TLS, no superuser
// access), with the instances, storage and parameters of the spec.
func ManagedCluster(site *sitev1.Site) *unstructured.Unstructured {
	m := site.Spec.Database.Managed
	u := newUnstructured(site, CNPGClusterGVK, ManagedClusterName(site.Name), ComponentDatabase)
	storage := map[string]any{"size": m.Storage.Size.String()}
	if m.Storage.Size.IsZero() {
		storage["size"] = "1Gi"
	}
	if m.Storage.StorageClass != "" {
		storage["storageClass"] = m.Storage.StorageClass
	}
	instances := int64(m.Instances)
	if instances < 1 {
		instances = 1
	}
	spec := map[string]any{
		"instances": instances,
		"storage":   storage,
		// The site needs its application user only; a superuser password
		// in the namespace would be one more secret to protect.
		"enableSuperuserAccess": false,
		// A primary that is stopped (its pod deleted, drained) first
		// waits for its sessions to end (a smart shutdown). The services'
		// pooled sessions never end on their own, so CloudNativePG's 180 s
		// default held writes off for 3 minutes in the e2e failover step;
		// after 10 s the fast shutdown ends them and the failover goes on.
		// Writes cut off answer 503 and are retried (Idempotency-Key).
		"smartShutdownTimeout": int64(managedSmartShutdownTimeout),
	}
	if len(m.Parameters) > 0 {
		params := make(map[string]any, len(m.Parameters))
		for k, v := range m.Parameters {
			params[k] = v
		}
		spec["postgresql"] = map[string]any{"parameters": params}
	}
	if m.ImageName != "" {
		spec["imageName"] = m.ImageName
	}
	managedBackupSpec(site, spec)
	u.Object["spec"] = spec
	return u
}

// SharedDatabase is the CNPG Database of a site on a shared Cluster: a
// database of its own, owned by its own role. The Database object goes
// with the Site; CloudNativePG keeps the PostgreSQL database (its default
// reclaim policy, retain), so deleting a Site never drops data.
func SharedDatabase(site *sitev1.Site) *unstructured.Unstructured {
	u := newUnstructured(site, CNPGDatabaseGVK, site.Name, ComponentDatabase)
	name := SharedRoleName(site)
	u.Object["spec"] = map[string]any{
		"cluster": map[string]any{"name": site.Spec.Database.Shared.Cluster},
		"name":    name,
		"owner":   name,
		"ensure":  "present",
	}
	return u
}

// SharedRole is the entry of the shared Cluster's spec.managed.roles for
// site: a login role with no other attribute (no superuser, no createdb,
// no createrole, no replication), so it reaches nothing but what it owns.
// PostgreSQL grants PUBLIC no access to a role's tables, so another site's
// role can connect to this database but not read it.
func SharedRole(site *sitev1.Site) map[string]any {
	return map[string]any{
		"name":            SharedRoleName(site),
		"comment":         fmt.Sprintf("siteplane Site %s/%s", site.Namespace, site.Name),
		"ensure":          "present",
		"login":           true,
		"superuser":       false,
		"createdb":        false,
		"createrole":      false,
		"replication":     false,
		"bypassrls":       false,
		"inherit":         true,
		"connectionLimit": int64(-1),
		"passwordSecret":  map[string]any{"name": DatabaseRoleSecretName(site.Name)},
	}
}

// MergeRole returns roles with role added, or replacing the entry of the
// same name. The list of a Cluster is atomic for server-side apply, so the
// operator patches it whole and keeps every other entry as it is.
func MergeRole(roles []any, role map[string]any) (merged []any, changed bool) {
	merged = make([]any, 0, len(roles)+1)
	found := false
	for _, r := range roles {
		m, ok := r.(map[string]any)
		if ok && m["name"] == role["name"] {
			found = true
			if !sameRole(m, role) {
				changed = true
				r = role
			}
		}
		merged = append(merged, r)
	}
	if !found {
		merged, changed = append(merged, role), true
	}
	return merged, changed
}

// sameRole compares the fields the operator sets (the API server adds
// defaults for the others).
func sameRole(stored, want map[string]any) bool {
	for k, v := range want {
		if fmt.Sprint(stored[k]) != fmt.Sprint(v) {
			return false
		}
	}
	return true
}

// RoleSecret is the password Secret of a site's role on a shared Cluster.
func RoleSecret(site *sitev1.Site, password string) *corev1ac.SecretApplyConfiguration {
	return Secret(site, DatabaseRoleSecretName(site.Name), ComponentDatabase, map[string][]byte{
		"username": []byte(SharedRoleName(site)),
		"password": []byte(password),
	}, nil).WithLabels(map[string]string{cnpgReloadLabel: "true"})
}

// DatabaseCredentials are a user, password and database on a Cluster.
type DatabaseCredentials struct {
	Username, Password, Database string
}

// DSN is the URL of a database on one of a Cluster's Services ("rw" for
// the primary, "ro" for the replicas). CloudNativePG serves TLS with a
// certificate of its own CA; the pods do not hold that CA, so the
// connection is encrypted but not verified (sslmode=require).
func DSN(namespace, cluster, service string, c DatabaseCredentials) string {
	u := url.URL{
		Scheme:   "postgresql",
		User:     url.UserPassword(c.Username, c.Password),
		Host:     fmt.Sprintf("%s-%s.%s.svc:%s", cluster, service, namespace, cnpgPort),
		Path:     "/" + c.Database,
		RawQuery: "sslmode=require",
	}
	return u.String()
}

// DatabaseSecretData is the data of the DSN Secret of a site on cluster:
// the primary's DSN (-rw) and the read pool's (-ro, the replicas).
func DatabaseSecretData(site *sitev1.Site, cluster string, c DatabaseCredentials, instances int64) map[string][]byte {
	read := "ro"
	if instances < 2 {
		// CloudNativePG's -ro Service selects replicas only: with a single
		// instance it has no endpoint, so the read pool is the primary.
		read = "rw"
	}
	return map[string][]byte{
		contract.DatabaseURLSecretKey: []byte(DSN(site.Namespace, cluster, "rw", c)),
		DatabaseReadURLSecretKey:      []byte(DSN(site.Namespace, cluster, read, c)),
	}
}
