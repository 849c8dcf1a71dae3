package controller

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestParseTrustedProxies(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"", "", false},
		{"10.88.0.0/16", "10.88.0.0/16", false},
		{" 10.0.0.0/8 , 192.0.2.7,fd00::/8 ", "10.0.0.0/8,192.0.2.7,fd00::/8", false},
		{"10.0.0.0/8,ingress", "", true},
		{"10.0.0.0/33", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseTrustedProxies(tt.in)
			if (err != nil) != tt.wantErr || strings.Join(got, ",") != tt.want {
				t.Errorf("got %q, %v; want %q, error %t", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestPodNetwork reads the nodes' pod CIDRs from a real API server.
func TestPodNetwork(t *testing.T) {
	requireEnv(t)
	nodes := []corev1.Node{
		{ObjectMeta: metav1.ObjectMeta{Name: "pn-a"}, Spec: corev1.NodeSpec{PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24", "fd00:1::/64"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "pn-b"}, Spec: corev1.NodeSpec{PodCIDR: "10.244.0.0/24", PodCIDRs: []string{"10.244.0.0/24"}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "pn-c"}}, // a CNI that assigns addresses itself
	}
	for i := range nodes {
		if err := k8s.Create(ctx, &nodes[i]); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = k8s.Delete(ctx, &nodes[i]) })
	}
	got, err := PodNetwork(ctx, k8s)
	if err != nil {
		t.Fatal(err)
	}
	if want := "10.244.0.0/24,10.244.1.0/24,fd00:1::/64"; strings.Join(got, ",") != want {
		t.Errorf("pod network %q, want %s", got, want)
	}
}
