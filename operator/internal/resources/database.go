package resources

import (
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// DatabaseKey is the key of the DSN in the user's database Secret:
// spec.database.secretRef.key, or the contract's name when unset (and for
// the Secret the operator writes for a database run by CloudNativePG).
func DatabaseKey(site *sitev1.Site) string {
	if ref := site.Spec.Database.SecretRef; ref != nil && ref.Key != "" {
		return ref.Key
	}
	return contract.DatabaseURLSecretKey
}

// DatabaseSecret is the Secret the pods read their DSN from: the user's,
// or the one the operator writes for a database run by CloudNativePG.
func DatabaseSecret(site *sitev1.Site) string {
	if ref := site.Spec.Database.SecretRef; ref != nil {
		return ref.Name
	}
	return DatabaseSecretName(site.Name)
}

// readPool reports whether component gets the read pool's DSN: content
// and media, on a database run by CloudNativePG (its -ro Service).
func readPool(site *sitev1.Site, component string) bool {
	return site.Spec.Database.UsesCNPG() && (component == contract.ServiceContent || component == contract.ServiceMedia)
}

// databaseMount is the DSN volume. The DSN's key in the user's Secret may
// be anything (CloudNativePG calls it "uri"); it is always mounted as the
// contract's file name. Content and media also get the read pool's DSN.
func databaseMount(site *sitev1.Site, component string) mount {
	name, dbKey := DatabaseSecret(site), DatabaseKey(site)
	src := corev1ac.SecretVolumeSource().WithSecretName(name).
		WithItems(corev1ac.KeyToPath().WithKey(dbKey).WithPath(contract.DatabaseURLSecretKey))
	keys := []string{dbKey}
	if readPool(site, component) {
		src.WithItems(corev1ac.KeyToPath().WithKey(DatabaseReadURLSecretKey).WithPath(DatabaseReadURLSecretKey))
		keys = append(keys, DatabaseReadURLSecretKey)
	}
	return mount{
		volume:     corev1ac.Volume().WithName(volDatabase).WithSecret(src),
		mountPath:  contract.DatabaseMountPath,
		secretKeys: map[string][]string{name: keys},
	}
}
