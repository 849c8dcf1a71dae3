package controller

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	eventsv1 "k8s.io/api/events/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/resources"
)

func sorted(s ...string) []string { sort.Strings(s); return s }

// TestSameReasonEventsStayApart: one pass generates three Secrets (the
// internal key, the gateway secret and the administrator's) and issues two marketplace keys.
// Each gets an Event of its own naming its Secret as the related object
// and in the note; the recorder folds events that share regarding,
// related, reason and action into one series keeping the first note, so
// without the related object only one Secret would show.
func TestSameReasonEventsStayApart(t *testing.T) {
	requireEnv(t)
	ns := newNamespace(t)
	createDatabaseSecret(t, ns, "ev-db")
	site := newSite(ns, "ev")
	site.Spec.Marketplace.APIKeys = []sitev1.APIKeySpec{{Name: "one", Account: "acme"}, {Name: "two", Account: "acme"}}
	if err := k8s.Create(ctx, site); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"SecretGenerated": sorted(resources.AdminSecretName("ev"), resources.GatewaySecretName("ev"), resources.InternalKeySecretName("ev")),
		"APIKeyIssued":    sorted(resources.APIKeySecretName("ev", "one"), resources.APIKeySecretName("ev", "two")),
	}
	eventually(t, "one event per Secret", func() error {
		var list eventsv1.EventList
		if err := k8s.List(ctx, &list, client.InNamespace(ns)); err != nil {
			return err
		}
		for reason, secrets := range want {
			var got []string
			for _, e := range list.Items {
				if e.Reason != reason || e.Regarding.Name != "ev" {
					continue
				}
				if e.Related == nil || e.Related.Kind != "Secret" {
					return fmt.Errorf("%s event without a related Secret: %+v", reason, e.Related)
				}
				if !strings.Contains(e.Note, e.Related.Name) {
					return fmt.Errorf("%s note %q does not name %s", reason, e.Note, e.Related.Name)
				}
				got = append(got, e.Related.Name)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != strings.Join(secrets, ",") {
				return fmt.Errorf("%s events about %v, want %v", reason, got, secrets)
			}
		}
		return nil
	})
}
