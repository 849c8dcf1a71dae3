//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
)

// Where the host cannot route Service VIPs (kind, most existing clusters),
// the suite reaches a Service through a port-forward to one of its ready
// pods (a new one per call, since pods roll); the Service's port is the
// pod's container port for every Service the suite calls. Forwards live
// until the test binary exits.

// serviceAddr is host:port reaching port of Service ns/name.
func serviceAddr(t *testing.T, ns, name string, port int32) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	svc, err := env.kube.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if env.provider == "local" {
		return fmt.Sprintf("%s:%d", svc.Spec.ClusterIP, port)
	}
	pods, err := env.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(svc.Spec.Selector).String()})
	if err != nil {
		t.Fatal(err)
	}
	var pod *corev1.Pod
	for i := range pods.Items {
		p := &pods.Items[i]
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue && p.DeletionTimestamp == nil {
				pod = p
			}
		}
	}
	if pod == nil {
		t.Fatalf("no ready pod behind Service %s/%s", ns, name)
	}
	addr, err := forward(pod, port)
	if err != nil {
		t.Fatalf("port-forward to %s/%s:%d: %v", ns, pod.Name, port, err)
	}
	return addr
}

// forward starts a port-forward from a free loopback port to pod:port.
func forward(pod *corev1.Pod, port int32) (string, error) {
	transport, upgrader, err := spdy.RoundTripperFor(env.cfg)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(fmt.Sprintf("%s/api/v1/namespaces/%s/pods/%s/portforward", env.cfg.Host, pod.Namespace, pod.Name))
	if err != nil {
		return "", err
	}
	dialer := spdy.NewDialer(upgrader, &http.Client{Transport: transport}, http.MethodPost, u)
	ready := make(chan struct{})
	pf, err := portforward.NewOnAddresses(dialer, []string{"127.0.0.1"}, []string{fmt.Sprintf("0:%d", port)},
		make(chan struct{}), ready, io.Discard, io.Discard)
	if err != nil {
		return "", err
	}
	errc := make(chan error, 1)
	go func() { errc <- pf.ForwardPorts() }()
	select {
	case <-ready:
	case err := <-errc:
		return "", err
	case <-time.After(20 * time.Second):
		return "", fmt.Errorf("not ready within 20s")
	}
	ports, err := pf.GetPorts()
	if err != nil || len(ports) == 0 {
		return "", fmt.Errorf("no local port: %v", err)
	}
	return fmt.Sprintf("127.0.0.1:%d", ports[0].Local), nil
}
