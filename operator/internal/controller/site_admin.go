package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// reconcileAdmin writes the bootstrap administrator's Secret: username,
// email, the generated application password (kept once made), and the
// sign-in password, either generated (kept until the Site's
// siteplane.dev/rotate-admin-password annotation asks for a new one) or
// copied from the user's Secret (spec.admin.passwordSecretRef). The
// gateway mounts this Secret, so a new sign-in password rolls the gateway
// pods, whose start-up sets it. A missing user Secret or key is returned
// as a problem for SecretsReady; the sign-in key is then left empty, which
// leaves the stored password as it is.
func (r *SiteReconciler) reconcileAdmin(ctx context.Context, site *sitev1.Site, p *pass, name string) ([]secretProblem, error) {
	s, err := r.readSecret(ctx, site, name)
	if err != nil {
		return nil, err
	}
	var stored map[string][]byte
	handled := ""
	if s != nil {
		stored, handled = s.Data, s.Annotations[resources.AnnotationRotationHandled]
	}
	appPassword, appFresh := string(stored[contract.AdminPasswordKey]), false
	if appPassword == "" {
		appPassword, appFresh = resources.RandomAlphanumeric(resources.ApplicationPasswordLength), true
	}

	var problems []secretProblem
	var plan resources.LoginPasswordPlan
	if ref := site.Spec.Admin.PasswordSecretRef; ref != nil {
		key := ref.Key
		if key == "" {
			key = "password"
		}
		problems, err = r.checkUserSecret(ctx, site, p, "administrator password", ref.Name, []string{key},
			sitev1.ReasonAdminPasswordSecretMissing, sitev1.ReasonAdminPasswordKeyMissing)
		if err != nil {
			return nil, err
		}
		if len(problems) == 0 {
			plan.Value = string(p.mounted.Secrets[ref.Name][key])
		}
		// The handled request stays recorded for a later switch back.
		plan.Handled = handled
	} else {
		plan = resources.PlanLoginPassword(string(stored[contract.AdminLoginPasswordKey]), handled,
			site.Annotations[resources.AnnotationRotateAdminPassword],
			func() string { return resources.RandomAlphanumeric(resources.LoginPasswordLength) })
	}
	var ann map[string]string
	if plan.Handled != "" {
		ann = map[string]string{resources.AnnotationRotationHandled: plan.Handled}
	}
	data := resources.AdminData(site, appPassword, plan.Value)
	if err := r.applyMemoized(ctx, resources.Secret(site, name, resources.ComponentSecrets, data, ann)); err != nil {
		return nil, fmt.Errorf("apply Secret %s: %w", name, err)
	}
	// Announced once the Secret holding the value is stored: a refused
	// apply is retried with another fresh value and records nothing.
	if appFresh {
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "SecretGenerated", "Generate", "generated %s in Secret %s", contract.AdminPasswordKey, name)
	}
	switch {
	case plan.Generated:
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "AdminPasswordGenerated", "Generate",
			"generated the administrator's sign-in password (%s) in Secret %s", contract.AdminLoginPasswordKey, name)
	case plan.Rotated:
		r.event(site, secretRef(site, name), corev1.EventTypeNormal, "AdminPasswordRotated", "Rotate",
			"replaced the administrator's sign-in password in Secret %s (request %q); the gateway pods roll to apply it", name, plan.Handled)
	}
	p.mounted.Secrets[name] = data
	return problems, nil
}
