package controller

import (
	"context"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

// rolePasswordLength is the length of a generated role password (62
// symbols: about 190 bits).
const rolePasswordLength = 32

// +kubebuilder:rbac:groups=postgresql.cnpg.io,resources=clusters,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups=postgresql.cnpg.io,resources=databases,verbs=get;list;watch;create;patch
// +kubebuilder:rbac:groups=postgresql.cnpg.io,resources=scheduledbackups,verbs=get;list;watch;create;patch

// reconcileDatabase makes the database of a Site whose database
// CloudNativePG runs: the managed Cluster, or on a shared Cluster the
// site's role and CNPG Database; then writes the DSN Secret the pods mount
// (primary and read pool) and sets DatabaseReady. A Site with a DSN Secret
// has nothing to do here.
func (r *SiteReconciler) reconcileDatabase(ctx context.Context, site *sitev1.Site, p *pass) error {
	if !site.Spec.Database.UsesCNPG() {
		meta.RemoveStatusCondition(&site.Status.Conditions, sitev1.ConditionDatabaseReady)
		return nil
	}
	cond, err := r.cnpgDatabase(ctx, site, p)
	if err != nil {
		return err
	}
	if cond.Status != metav1.ConditionTrue {
		// Cluster status changes of a managed Cluster bring the Site back
		// through its watch; a Cluster of someone else is re-checked.
		wait := requeueProgressing
		if cond.Reason == sitev1.ReasonCNPGNotInstalled {
			// The optional-API follower wakes the Site when the CRD
			// appears; this is the fallback, not a loop.
			wait = requeueMissingAPI
		}
		p.waitFor(wait)
	}
	setCondition(site, cond)
	return nil
}

// cnpgDatabase does the work of reconcileDatabase and returns the
// condition; an error is returned only for a failed API call.
func (r *SiteReconciler) cnpgDatabase(ctx context.Context, site *sitev1.Site, p *pass) (metav1.Condition, error) {
	cond := metav1.Condition{Type: sitev1.ConditionDatabaseReady, Status: metav1.ConditionFalse}
	served, err := r.served.isServed(r.RESTMapper(), resources.CNPGClusterGVK, r.Clock.Now())
	if err != nil {
		return cond, fmt.Errorf("discover CloudNativePG: %w", err)
	}
	if !served {
		cond.Reason = sitev1.ReasonCNPGNotInstalled
		cond.Message = "the database is run by CloudNativePG, whose kinds (postgresql.cnpg.io/v1 Cluster, Database) the cluster does not serve: install CloudNativePG"
		return cond, nil
	}
	db := site.Spec.Database
	name := resources.CNPGClusterName(site)
	if db.Managed != nil {
		if err := r.apply(ctx, client.ApplyConfigurationFromUnstructured(resources.ManagedCluster(site))); err != nil {
			return cond, fmt.Errorf("apply Cluster: %w", err)
		}
	}
	cluster := &unstructured.Unstructured{}
	cluster.SetGroupVersionKind(resources.CNPGClusterGVK)
	switch err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, cluster); {
	case apierrors.IsNotFound(err):
		cond.Reason, cond.Message = sitev1.ReasonDatabaseClusterMissing, fmt.Sprintf("CloudNativePG Cluster %q does not exist", name)
		return cond, nil
	case err != nil:
		return cond, fmt.Errorf("get Cluster: %w", err)
	}

	var (
		creds   resources.DatabaseCredentials
		pending string
	)
	if db.Shared != nil {
		creds, pending, err = r.sharedDatabase(ctx, site, cluster)
	} else {
		creds, pending, err = r.appCredentials(ctx, site, name)
	}
	if err != nil {
		return cond, err
	}
	if creds.Username != "" {
		instances, _, _ := unstructured.NestedInt64(cluster.Object, "spec", "instances")
		data := resources.DatabaseSecretData(site, name, creds, instances)
		secretName := resources.DatabaseSecretName(site.Name)
		if err := r.apply(ctx, resources.Secret(site, secretName, resources.ComponentDatabase, data, nil)); err != nil {
			return cond, fmt.Errorf("apply Secret %s: %w", secretName, err)
		}
		p.mounted.Secrets[secretName] = data
	}

	ready, status := clusterReady(cluster)
	if sb := resources.ManagedScheduledBackup(site); sb != nil && ready {
		// Once the Cluster is Ready: the first backup runs at once, and
		// CloudNativePG backs up only a running primary.
		if err := r.apply(ctx, client.ApplyConfigurationFromUnstructured(sb)); err != nil {
			return cond, fmt.Errorf("apply ScheduledBackup: %w", err)
		}
	}
	switch {
	case !ready:
		cond.Reason, cond.Message = sitev1.ReasonDatabaseClusterNotReady, fmt.Sprintf("CloudNativePG Cluster %q: %s", name, status)
	case pending != "":
		cond.Reason, cond.Message = pendingReason(db), pending
	default:
		cond.Status, cond.Reason = metav1.ConditionTrue, sitev1.ReasonDatabaseAvailable
		cond.Message = fmt.Sprintf("CloudNativePG Cluster %q: %s; database %q", name, status, creds.Database)
	}
	return cond, nil
}

// pendingReason is why credentials or a shared database are not there yet.
func pendingReason(db sitev1.DatabaseSpec) string {
	if db.Shared != nil {
		return sitev1.ReasonDatabaseNotApplied
	}
	return sitev1.ReasonDatabaseCredentialsMissing
}

// clusterReady reads a Cluster's Ready condition and its instance counts.
func clusterReady(cluster *unstructured.Unstructured) (bool, string) {
	want, _, _ := unstructured.NestedInt64(cluster.Object, "spec", "instances")
	got, _, _ := unstructured.NestedInt64(cluster.Object, "status", "readyInstances")
	phase, _, _ := unstructured.NestedString(cluster.Object, "status", "phase")
	counts := fmt.Sprintf("%d/%d instances ready", got, want)
	conds, _, _ := unstructured.NestedSlice(cluster.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if ok && m["type"] == "Ready" && m["status"] == string(metav1.ConditionTrue) {
			return true, counts
		}
	}
	if phase == "" {
		phase = "not ready yet"
	}
	return false, phase + ", " + counts
}

// appCredentials reads the application Secret CloudNativePG wrote for a
// Cluster it bootstrapped. A missing Secret or key is pending, not an
// error: the Secret watch brings the Site back when it appears.
func (r *SiteReconciler) appCredentials(ctx context.Context, site *sitev1.Site, cluster string) (resources.DatabaseCredentials, string, error) {
	name := resources.CNPGAppSecretName(cluster)
	s := &corev1.Secret{}
	switch err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, s); {
	case apierrors.IsNotFound(err):
		return resources.DatabaseCredentials{}, fmt.Sprintf("application Secret %q of the Cluster does not exist yet", name), nil
	case err != nil:
		return resources.DatabaseCredentials{}, "", fmt.Errorf("get Secret %s: %w", name, err)
	}
	for _, k := range []string{"username", "password", "dbname"} {
		if len(s.Data[k]) == 0 {
			return resources.DatabaseCredentials{}, fmt.Sprintf("application Secret %q of the Cluster has no key %q", name, k), nil
		}
	}
	return resources.DatabaseCredentials{Username: string(s.Data["username"]), Password: string(s.Data["password"]),
		Database: string(s.Data["dbname"])}, "", nil
}

// sharedDatabase gives the site a role and a database of its own on a
// shared Cluster: the role's password Secret (generated once, read back
// uncached so it is never replaced), the role in the Cluster's managed
// roles, and the CNPG Database it owns. It reports what CloudNativePG has
// not reconciled yet.
func (r *SiteReconciler) sharedDatabase(ctx context.Context, site *sitev1.Site, cluster *unstructured.Unstructured) (resources.DatabaseCredentials, string, error) {
	var none resources.DatabaseCredentials
	secretName := resources.DatabaseRoleSecretName(site.Name)
	stored, err := r.readSecret(ctx, site, secretName)
	if err != nil {
		return none, "", err
	}
	password := ""
	if stored != nil {
		password = string(stored.Data["password"])
	}
	if password == "" {
		password = resources.RandomAlphanumeric(rolePasswordLength)
	}
	if err := r.apply(ctx, resources.RoleSecret(site, password)); err != nil {
		return none, "", fmt.Errorf("apply Secret %s: %w", secretName, err)
	}

	roles, _, _ := unstructured.NestedSlice(cluster.Object, "spec", "managed", "roles")
	if merged, changed := resources.MergeRole(roles, resources.SharedRole(site)); changed {
		// A merge patch of the whole list, guarded by the resourceVersion
		// read: another Site adding its role meanwhile gets a Conflict and
		// its pass is retried, so no entry is lost.
		orig := cluster.DeepCopy()
		if err := unstructured.SetNestedSlice(cluster.Object, merged, "spec", "managed", "roles"); err != nil {
			return none, "", fmt.Errorf("set roles: %w", err)
		}
		if err := r.Patch(ctx, cluster, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})); err != nil {
			return none, "", fmt.Errorf("add role to Cluster %s: %w", cluster.GetName(), err)
		}
	}
	if err := r.apply(ctx, client.ApplyConfigurationFromUnstructured(resources.SharedDatabase(site))); err != nil {
		return none, "", fmt.Errorf("apply Database: %w", err)
	}
	role := resources.SharedRoleName(site)
	creds := resources.DatabaseCredentials{Username: role, Password: password, Database: role}

	reconciled, _, _ := unstructured.NestedStringSlice(cluster.Object, "status", "managedRolesStatus", "byStatus", "reconciled")
	if !slices.Contains(reconciled, role) {
		return creds, fmt.Sprintf("role %q not yet reconciled by CloudNativePG on Cluster %q", role, cluster.GetName()), nil
	}
	return creds, r.databaseApplied(ctx, site), nil
}

// databaseApplied reports what keeps the site's CNPG Database from being
// applied, or "" once it is.
func (r *SiteReconciler) databaseApplied(ctx context.Context, site *sitev1.Site) string {
	d := &unstructured.Unstructured{}
	d.SetGroupVersionKind(resources.CNPGDatabaseGVK)
	if err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: site.Name}, d); err != nil {
		return fmt.Sprintf("CNPG Database %q: %v", site.Name, err)
	}
	applied, found, _ := unstructured.NestedBool(d.Object, "status", "applied")
	if found && applied {
		return ""
	}
	msg, _, _ := unstructured.NestedString(d.Object, "status", "message")
	if msg == "" {
		msg = "not applied yet"
	}
	return fmt.Sprintf("CNPG Database %q: %s", site.Name, msg)
}
