package controller

import (
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// adminSecret waits until the admin Secret's sign-in password satisfies ok
// and returns the Secret.
func adminSecret(t *testing.T, ns, site, what string, ok func(login string) bool) *corev1.Secret {
	t.Helper()
	var s corev1.Secret
	eventually(t, what, func() error {
		if err := k8s.Get(ctx, key(ns, resources.AdminSecretName(site)), &s); err != nil {
			return err
		}
		if login := string(s.Data[contract.AdminLoginPasswordKey]); !ok(login) {
			return fmt.Errorf("login-password %q", login)
		}
		return nil
	})
	return &s
}

func gatewaySecretHash(t *testing.T, ns, site string) string {
	t.Helper()
	var d appsv1.Deployment
	if err := get(t, ns, resources.ComponentName(site, contract.ServiceGateway), &d); err != nil {
		t.Fatal(err)
	}
	return d.Spec.Template.Annotations[resources.AnnotationSecretHash]
}

// TestAdminSignInPassword: the admin Secret carries a generated sign-in
// password beside the application password (mounted by the gateway, whose
// start-up sets it); the rotate annotation replaces it once per new value
// and rolls the gateway only; a user Secret named by
// spec.admin.passwordSecretRef replaces the generated one, and while it is
// missing the Site waits with the reason.
func TestAdminSignInPassword(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "adm-db")
	if err := k8s.Create(ctx, newSite(ns, "adm")); err != nil {
		t.Fatal(err)
	}
	first := adminSecret(t, ns, "adm", "a generated sign-in password", func(l string) bool { return len(l) == resources.LoginPasswordLength })
	firstLogin, appPassword := string(first.Data[contract.AdminLoginPasswordKey]), string(first.Data[contract.AdminPasswordKey])
	if firstLogin == appPassword {
		t.Fatal("the sign-in password equals the application password")
	}
	var gw appsv1.Deployment
	eventually(t, "the gateway mounts login-password", func() error {
		if err := get(t, ns, resources.ComponentName("adm", contract.ServiceGateway), &gw); err != nil {
			return err
		}
		if !mountsSecretKey(gw, resources.AdminSecretName("adm"), contract.AdminLoginPasswordKey) {
			return fmt.Errorf("admin volume lacks %s", contract.AdminLoginPasswordKey)
		}
		return nil
	})
	hashBefore := gatewaySecretHash(t, ns, "adm")
	var content appsv1.Deployment
	_ = get(t, ns, resources.ComponentName("adm", contract.ServiceContent), &content)
	contentHash := content.Spec.Template.Annotations[resources.AnnotationSecretHash]

	// Rotation on request, once per value.
	updateSite(t, ns, "adm", func(s *sitev1.Site) {
		s.Annotations = map[string]string{resources.AnnotationRotateAdminPassword: "r1"}
	})
	rotated := adminSecret(t, ns, "adm", "a new sign-in password", func(l string) bool { return l != firstLogin && len(l) == resources.LoginPasswordLength })
	if rotated.Annotations[resources.AnnotationRotationHandled] != "r1" || string(rotated.Data[contract.AdminPasswordKey]) != appPassword {
		t.Errorf("after rotation: handled %q, application password kept %t", rotated.Annotations[resources.AnnotationRotationHandled],
			string(rotated.Data[contract.AdminPasswordKey]) == appPassword)
	}
	eventually(t, "the gateway rolls", func() error {
		if h := gatewaySecretHash(t, ns, "adm"); h == hashBefore {
			return fmt.Errorf("gateway secret hash unchanged")
		}
		return nil
	})
	// The rollout's event says what changed: the admin Secret, for the gateway.
	eventually(t, "a RollingOut event naming the admin Secret", func() error {
		if n := siteEventNotes(t, ns, "adm")["RollingOut"]; !strings.Contains(n, resources.AdminSecretName("adm")+" changed for gateway") {
			return fmt.Errorf("RollingOut notes %q", n)
		}
		return nil
	})
	_ = get(t, ns, resources.ComponentName("adm", contract.ServiceContent), &content)
	if content.Spec.Template.Annotations[resources.AnnotationSecretHash] != contentHash {
		t.Error("a sign-in password rotation rolled content, which does not mount the admin Secret")
	}
	rotatedLogin := string(rotated.Data[contract.AdminLoginPasswordKey])
	settle(t, ns, "adm")
	if again := adminSecret(t, ns, "adm", "kept", func(string) bool { return true }); string(again.Data[contract.AdminLoginPasswordKey]) != rotatedLogin {
		t.Fatal("a handled request rotated the password again")
	}

	// A user-supplied password: missing first, then present.
	updateSite(t, ns, "adm", func(s *sitev1.Site) {
		s.Spec.Admin.PasswordSecretRef = &sitev1.AdminPasswordSecretRef{Name: "adm-login"}
	})
	s := waitCondition(t, ns, "adm", sitev1.ConditionSecretsReady, metav1.ConditionFalse)
	if c := findCondition(s, sitev1.ConditionSecretsReady); c.Reason != sitev1.ReasonAdminPasswordSecretMissing {
		t.Errorf("SecretsReady %s: %s; want %s", c.Reason, c.Message, sitev1.ReasonAdminPasswordSecretMissing)
	}
	if s.Status.Phase != sitev1.PhasePending {
		t.Errorf("phase %s, want Pending", s.Status.Phase)
	}
	user := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "adm-login", Namespace: ns},
		Data: map[string][]byte{"password": []byte("correct horse battery staple")}}
	if err := k8s.Create(ctx, user); err != nil {
		t.Fatal(err)
	}
	adminSecret(t, ns, "adm", "the user's password", func(l string) bool { return l == "correct horse battery staple" })
	waitCondition(t, ns, "adm", sitev1.ConditionSecretsReady, metav1.ConditionTrue)
}

// mountsSecretKey tells whether a Deployment's pods mount key of the
// Secret through a Secret volume's items.
func mountsSecretKey(d appsv1.Deployment, secret, key string) bool {
	for _, v := range d.Spec.Template.Spec.Volumes {
		if v.Secret == nil || v.Secret.SecretName != secret {
			continue
		}
		for _, it := range v.Secret.Items {
			if it.Key == key {
				return true
			}
		}
	}
	return false
}
