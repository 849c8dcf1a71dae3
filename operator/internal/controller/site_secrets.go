package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// reconcileSecrets writes the generated Secrets (internal key, bootstrap
// administrator, marketplace keys with rotation), checks the database
// Secret, and records what the pods will mount. Generated values are read
// back and re-applied unchanged; only a due rotation replaces a key.
func (r *SiteReconciler) reconcileSecrets(ctx context.Context, site *sitev1.Site, p *pass) error {
	p.mounted.Secrets = map[string]map[string][]byte{}

	internalName := resources.InternalKeySecretName(site.Name)
	// The gateway secret first: on a Site made before it existed, it is
	// the internal key as it is now, before any rotation can change it.
	if err := r.reconcileGatewaySecret(ctx, site, p, internalName); err != nil {
		return err
	}
	if err := r.reconcileInternalKey(ctx, site, p, internalName); err != nil {
		return err
	}
	adminName := resources.AdminSecretName(site.Name)
	adminProblems, err := r.reconcileAdmin(ctx, site, p, adminName)
	if err != nil {
		return err
	}

	site.Status.Secrets.InternalKey = internalName
	site.Status.Secrets.Admin = adminName
	if err := r.reconcileAPIKeys(ctx, site, p); err != nil {
		return err
	}

	// The user's Secrets: the database's, and with S3 the credentials. A
	// missing one is waited for (the Secret watch brings the Site back when
	// it appears); the Deployments are written meanwhile, and their pods
	// wait for the volume instead of crash-looping.
	cond := metav1.Condition{Type: sitev1.ConditionSecretsReady, Status: metav1.ConditionTrue,
		Reason: sitev1.ReasonSecretsGenerated, Message: "generated Secrets are in place and the database Secret has its key"}
	var problems []secretProblem
	if dbRef := site.Spec.Database.SecretRef; dbRef != nil {
		var err error
		problems, err = r.checkUserSecret(ctx, site, p, "database", dbRef.Name, []string{resources.DatabaseKey(site)},
			sitev1.ReasonDatabaseSecretMissing, sitev1.ReasonDatabaseKeyMissing)
		if err != nil {
			return err
		}
	} else {
		// The operator writes the DSN Secret of a database CloudNativePG
		// runs (reconcileDatabase, DatabaseReady).
		cond.Message = "generated Secrets are in place"
	}
	if s3 := site.Spec.Media.S3; s3 != nil {
		idKey, secretKey := resources.S3CredentialKeys(s3.CredentialsSecretRef)
		more, err := r.checkUserSecret(ctx, site, p, "media S3 credentials", s3.CredentialsSecretRef.Name, []string{idKey, secretKey},
			sitev1.ReasonMediaCredentialsSecretMissing, sitev1.ReasonMediaCredentialsKeyMissing)
		if err != nil {
			return err
		}
		problems = append(problems, more...)
		if len(problems) == 0 {
			cond.Message = "generated Secrets are in place and the database and media S3 credentials Secrets have their keys"
		}
	}
	problems = append(problems, adminProblems...)
	if len(problems) > 0 {
		cond.Status, cond.Reason = metav1.ConditionFalse, problems[0].reason
		msgs := make([]string, 0, len(problems))
		for _, pr := range problems {
			msgs = append(msgs, pr.message)
		}
		cond.Message = strings.Join(msgs, "; ")
		p.waitFor(requeueWaitingSecret)
	}
	setCondition(site, cond)
	return nil
}

// secretProblem is why a user-provided Secret cannot be mounted yet.
type secretProblem struct{ reason, message string }

// checkUserSecret reads a Secret the user provides and records its data
// for the pod hashes, or reports that it or one of keys is missing. The
// message names the Secret and the key, never a value.
func (r *SiteReconciler) checkUserSecret(ctx context.Context, site *sitev1.Site, p *pass, what, name string, keys []string,
	missingReason, keyMissingReason string) ([]secretProblem, error) {
	s := &corev1.Secret{}
	err := r.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, s)
	switch {
	case apierrors.IsNotFound(err):
		return []secretProblem{{missingReason, fmt.Sprintf("%s Secret %q does not exist", what, name)}}, nil
	case err != nil:
		return nil, fmt.Errorf("get %s Secret: %w", what, err)
	}
	var problems []secretProblem
	for _, k := range keys {
		if len(s.Data[k]) == 0 {
			problems = append(problems, secretProblem{keyMissingReason, fmt.Sprintf("%s Secret %q has no key %q", what, name, k)})
		}
	}
	if len(problems) == 0 {
		p.mounted.Secrets[name] = s.Data
	}
	return problems, nil
}

// readSecret reads a generated Secret from the API server (not the cache),
// or nil when it does not exist.
func (r *SiteReconciler) readSecret(ctx context.Context, site *sitev1.Site, name string) (*corev1.Secret, error) {
	s := &corev1.Secret{}
	err := r.APIReader.Get(ctx, client.ObjectKey{Namespace: site.Namespace, Name: name}, s)
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("get Secret %s: %w", name, err)
	}
	return s, nil
}

// reconcileAPIKeys issues, rotates and expires the marketplace keys, and
// revokes the keys removed from the spec.
func (r *SiteReconciler) reconcileAPIKeys(ctx context.Context, site *sitev1.Site, p *pass) error {
	now := r.Clock.Now()
	statuses := make([]sitev1.APIKeyStatus, 0, len(site.Spec.Marketplace.APIKeys))
	wanted := map[string]bool{}
	for _, key := range site.Spec.Marketplace.APIKeys {
		curName := resources.APIKeySecretName(site.Name, key.Name)
		prevName := resources.PreviousAPIKeySecretName(site.Name, key.Name)
		wanted[curName], wanted[prevName] = true, true

		cur, err := r.readSecret(ctx, site, curName)
		if err != nil {
			return err
		}
		prev, err := r.readSecret(ctx, site, prevName)
		if err != nil {
			return err
		}
		plan := resources.PlanKey(key, keyState(cur, resources.AnnotationCreatedAt), keyState(prev, resources.AnnotationExpiresAt),
			now, func() string { return resources.RandomAlphanumeric(resources.APIKeyLength) })

		st := sitev1.APIKeyStatus{Name: key.Name, SecretName: curName, CreatedAt: ptrTime(plan.Current.At)}
		// A rotating key's previous Secret is projected (optional) even while
		// it does not exist, so a rotation changes Secret contents only, never
		// the volume's sources: the kubelet swaps a projected volume's files
		// in one step, and since the previous key is written before the new
		// current one, a running pod sees the old key, or both, never the new
		// one alone.
		if key.Rotation != nil || plan.Previous != nil {
			p.mounted.APIKeys = append(p.mounted.APIKeys, resources.KeyMount{Dir: resources.PreviousKeyDir(key.Name), SecretName: prevName})
		}
		// The previous key is written before the new current one, so a
		// failure in between never leaves the old key without a Secret.
		if plan.Previous != nil {
			data := resources.APIKeyData(site, key, plan.Previous.Value)
			ann := map[string]string{resources.AnnotationExpiresAt: plan.Previous.At.UTC().Format(time.RFC3339)}
			if err := r.applyMemoized(ctx, apiKeySecret(site, prevName, key.Name, data, ann)); err != nil {
				return fmt.Errorf("apply Secret %s: %w", prevName, err)
			}
			p.mounted.Secrets[prevName] = data
			st.PreviousSecretName, st.PreviousExpiresAt = prevName, ptrTime(plan.Previous.At)
		}
		data := resources.APIKeyData(site, key, plan.Current.Value)
		ann := map[string]string{resources.AnnotationCreatedAt: plan.Current.At.UTC().Format(time.RFC3339)}
		if err := r.applyMemoized(ctx, apiKeySecret(site, curName, key.Name, data, ann)); err != nil {
			return fmt.Errorf("apply Secret %s: %w", curName, err)
		}
		p.mounted.Secrets[curName] = data
		p.mounted.APIKeys = append(p.mounted.APIKeys, resources.KeyMount{Dir: key.Name, SecretName: curName})

		switch {
		case plan.Rotated:
			r.event(site, secretRef(site, curName), corev1.EventTypeNormal, "APIKeyRotated", "Rotate",
				"rotated marketplace key %s; the previous key works until %s", key.Name, plan.Previous.At.UTC().Format(time.RFC3339))
		case plan.Generated:
			r.event(site, secretRef(site, curName), corev1.EventTypeNormal, "APIKeyIssued", "Issue", "issued marketplace key %s into Secret %s", key.Name, curName)
		}
		if plan.Previous == nil && prev != nil {
			deleted, err := r.deleteOwned(ctx, site, prev)
			if err != nil {
				return fmt.Errorf("delete expired Secret %s: %w", prevName, err)
			}
			if deleted && plan.PreviousExpired {
				r.event(site, secretRef(site, prevName), corev1.EventTypeNormal, "APIKeyExpired", "Expire",
					"the previous marketplace key %s expired; Secret %s deleted", key.Name, prevName)
			}
		}
		if !plan.Next.IsZero() && (p.next.IsZero() || plan.Next.Before(p.next)) {
			p.next = plan.Next
		}
		statuses = append(statuses, st)
	}
	site.Status.Secrets.APIKeys = statuses
	return r.revokeRemovedKeys(ctx, site, wanted)
}

// revokeRemovedKeys deletes key Secrets whose key left the spec. The list
// comes from the cache, which may still hold a Secret an earlier pass
// deleted: only a deletion made now is reported as a revocation.
func (r *SiteReconciler) revokeRemovedKeys(ctx context.Context, site *sitev1.Site, wanted map[string]bool) error {
	var list corev1.SecretList
	if err := r.List(ctx, &list, client.InNamespace(site.Namespace), client.MatchingLabels{
		resources.LabelInstance: site.Name, resources.LabelComponent: resources.ComponentAPIKey,
	}); err != nil {
		return fmt.Errorf("list key Secrets: %w", err)
	}
	for i := range list.Items {
		s := &list.Items[i]
		if wanted[s.Name] {
			continue
		}
		deleted, err := r.deleteOwned(ctx, site, s)
		if err != nil {
			return fmt.Errorf("delete Secret %s: %w", s.Name, err)
		}
		if !deleted {
			continue
		}
		r.event(site, secretRef(site, s.Name), corev1.EventTypeNormal, "APIKeyRevoked", "Revoke", "revoked marketplace key Secret %s", s.Name)
	}
	return nil
}

func apiKeySecret(site *sitev1.Site, name, key string, data map[string][]byte, ann map[string]string) *corev1ac.SecretApplyConfiguration {
	s := resources.Secret(site, name, resources.ComponentAPIKey, data, ann)
	s.WithLabels(map[string]string{resources.LabelAPIKey: key})
	return s
}

// keyState reads a key Secret's value and the timestamp in annotation at;
// a missing timestamp falls back to the Secret's creation time.
func keyState(s *corev1.Secret, at string) *resources.KeyState {
	if s == nil {
		return nil
	}
	ts := s.CreationTimestamp.Time
	if v, ok := s.Annotations[at]; ok {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			ts = t
		}
	}
	return &resources.KeyState{Value: string(s.Data[contract.KeyDirAPIKeyFile]), At: ts}
}

func ptrTime(t time.Time) *metav1.Time {
	mt := metav1.NewTime(t.UTC().Truncate(time.Second))
	return &mt
}

// setCondition sets a condition stamped with the Site's generation.
func setCondition(site *sitev1.Site, c metav1.Condition) {
	c.ObservedGeneration = site.Generation
	meta.SetStatusCondition(&site.Status.Conditions, c)
}

// reconcileGatewaySecret makes sure the gateway's non-rotating secret
// exists (password pepper, nonce key). When it is first made for a Site
// whose internal key already exists, it takes that key's value: the
// gateway derived its pepper from the internal key before, so stored
// application-password hashes stay valid. Otherwise it is a new random value.
func (r *SiteReconciler) reconcileGatewaySecret(ctx context.Context, site *sitev1.Site, p *pass, internalName string) error {
	name := resources.GatewaySecretName(site.Name)
	s, err := r.readSecret(ctx, site, name)
	if err != nil {
		return err
	}
	value, how := "", ""
	switch {
	case s != nil && len(s.Data[contract.GatewaySecretKey]) > 0:
		value = string(s.Data[contract.GatewaySecretKey])
	default:
		internal, err := r.readSecret(ctx, site, internalName)
		if err != nil {
			return err
		}
		if internal != nil && len(internal.Data[contract.InternalKeySecretKey]) > 0 && internal.Annotations[resources.AnnotationRotationHandled] == "" {
			value, how = string(internal.Data[contract.InternalKeySecretKey]), "carried over from the internal key"
		} else {
			value, how = resources.RandomAlphanumeric(resources.InternalKeyLength), "generated"
		}
	}
	data := map[string][]byte{contract.GatewaySecretKey: []byte(value)}
	if err := r.apply(ctx, resources.Secret(site, name, resources.ComponentSecrets, data, nil)); err != nil {
		return fmt.Errorf("apply Secret %s: %w", name, err)
	}
	if how != "" {
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "SecretGenerated", "Generate", "%s %s in Secret %s", how, contract.GatewaySecretKey, name)
	}
	p.mounted.Secrets[name] = data
	return nil
}

// reconcileInternalKey generates the internal key, rotates it when the
// Site's AnnotationRotateInternalKey asks for it, and drops the previous
// key when its grace window ends (resources.PlanInternalKey). The pods
// re-read the mounted files: a rotation restarts nothing.
func (r *SiteReconciler) reconcileInternalKey(ctx context.Context, site *sitev1.Site, p *pass, name string) error {
	s, err := r.readSecret(ctx, site, name)
	if err != nil {
		return err
	}
	var stored map[string][]byte
	handled := ""
	if s != nil {
		stored, handled = s.Data, s.Annotations[resources.AnnotationRotationHandled]
	}
	plan := resources.PlanInternalKey(stored, handled, site.Annotations[resources.AnnotationRotateInternalKey], r.Clock.Now(),
		func() string { return resources.RandomAlphanumeric(resources.InternalKeyLength) })
	var ann map[string]string
	if plan.Handled != "" {
		ann = map[string]string{resources.AnnotationRotationHandled: plan.Handled}
	}
	if err := r.apply(ctx, resources.Secret(site, name, resources.ComponentSecrets, plan.Data, ann)); err != nil {
		return fmt.Errorf("apply Secret %s: %w", name, err)
	}
	switch {
	case plan.Generated:
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "SecretGenerated", "Generate", "generated %s in Secret %s", contract.InternalKeySecretKey, name)
	case plan.Rotated:
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "InternalKeyRotated", "Rotate",
			"rotated the internal key; the previous key is accepted until %s", plan.Next.UTC().Format(time.RFC3339))
	case plan.Deferred:
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "InternalKeyRotationDeferred", "Rotate",
			"the previous rotation's grace window ends at %s; the requested rotation happens then", plan.Next.UTC().Format(time.RFC3339))
	}
	if plan.PreviousExpired {
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "InternalKeyExpired", "Expire", "the previous internal key is no longer accepted")
	}
	if !plan.Next.IsZero() && (p.next.IsZero() || plan.Next.Before(p.next)) {
		p.next = plan.Next
	}
	p.mounted.Secrets[name] = plan.Data
	return nil
}
