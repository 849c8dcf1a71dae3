// Command siteplane-operator runs the Site controller.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/operator/internal/controller"
	sitemetrics "siteplane.dev/operator/internal/metrics"
	"siteplane.dev/operator/internal/resources"
	"siteplane.dev/services/pkg/contract"
)

// version is set at build time (-ldflags "-X main.version=v0.1.0"); it is the
// default tag of the service images.
var version = "dev"

var scheme = runtime.NewScheme()

func init() {
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	utilruntime.Must(sitev1.AddToScheme(scheme))
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "probe" {
		if err := probeCommand(context.Background(), os.Args[2:], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctrl.SetupSignalHandler(), flag.CommandLine, os.Args[1:], ctrl.GetConfig); err != nil {
		ctrl.Log.WithName("setup").Error(err, "operator failed")
		os.Exit(1)
	}
}

// run parses args into fs, builds the manager and runs it until ctx ends.
// getConfig supplies the API server connection (tests pass envtest's).
// The steps are named after CloudNativePG's main: flags, manager options,
// controllers, start.
func run(ctx context.Context, fs *flag.FlagSet, args []string, getConfig func() (*rest.Config, error)) error {
	o, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap)))
	log := ctrl.Log.WithName("setup")

	cfg, err := getConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	mgr, err := ctrl.NewManager(cfg, managerOptions(o))
	if err != nil {
		return fmt.Errorf("create the manager: %w", err)
	}
	if err := setupControllers(ctx, mgr, o); err != nil {
		return err
	}
	if err := addHealthChecks(mgr); err != nil {
		return err
	}

	log.Info("starting the manager", "version", version)
	return mgr.Start(ctx)
}

// options are the operator's command-line flags, checked.
type options struct {
	metricsAddr, probeAddr, metricsCertDir  string
	secureMetrics, enableHTTP2, leaderElect bool
	watchNamespace, imageRegistry, imageTag string
	leaderElectionNamespace                 string
	maxConcurrentReconciles                 int
	internalKeyDelay                        time.Duration
	// proxies is --trusted-proxies parsed; empty when the flag is.
	proxies    []string
	probeSites bool
	zap        zap.Options
}

// parseFlags binds the flags to fs, parses args and checks the values.
func parseFlags(fs *flag.FlagSet, args []string) (*options, error) {
	o := &options{}
	var trustedProxies string
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", ":8443", `Metrics endpoint address (":8080" for plain HTTP with --metrics-secure=false, "0" to disable).`)
	fs.BoolVar(&o.secureMetrics, "metrics-secure", true, "Serve metrics over HTTPS with Kubernetes authentication and authorization.")
	fs.StringVar(&o.metricsCertDir, "metrics-cert-dir", "", "Directory with tls.crt and tls.key for the metrics endpoint; a self-signed certificate when empty.")
	fs.BoolVar(&o.enableHTTP2, "enable-http2", false, "Allow HTTP/2 on the metrics endpoint (off by default: HTTP/2 Rapid Reset, CVE-2023-44487).")
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "Address of the /healthz and /readyz endpoints.")
	fs.BoolVar(&o.leaderElect, "leader-elect", false, "Elect a leader so that only one replica reconciles.")
	fs.StringVar(&o.leaderElectionNamespace, "leader-election-namespace", "", "Namespace of the leader election Lease (the pod's namespace when empty).")
	fs.StringVar(&o.watchNamespace, "watch-namespace", "", "Reconcile Sites of this namespace only (all namespaces when empty).")
	fs.StringVar(&o.imageRegistry, "image-registry", "ghcr.io/siteplane", "Registry and path prefix of the default service images.")
	fs.StringVar(&o.imageTag, "image-tag", version, "Tag of the default service images.")
	fs.IntVar(&o.maxConcurrentReconciles, "max-concurrent-reconciles", 4, "Sites reconciled at the same time (passes of one Site never overlap).")
	fs.DurationVar(&o.internalKeyDelay, "internal-key-propagation-delay", 0,
		"How long after an internal-key rotation the services keep signing with the previous key (10s to 5m; 0: the services' default, 3m). "+
			"Shorten it only where every kubelet delivers a changed Secret faster than this minus 10s (docs/security.md).")
	fs.StringVar(&trustedProxies, "trusted-proxies", "",
		"Comma-separated CIDRs or addresses of the proxies in front of every gateway (a Site's spec.exposure.trustedProxies wins); "+
			"empty: the nodes' pod CIDRs, read at start, when the nodes report them.")
	fs.BoolVar(&o.probeSites, "probe-sites", true,
		"Ask each Site's gateway Service for the REST index before reporting Exposed (turn off only for an operator run outside the cluster).")
	o.zap.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if o.internalKeyDelay != 0 && (o.internalKeyDelay < contract.MinInternalKeyPropagationDelay || o.internalKeyDelay > contract.MaxInternalKeyPropagationDelay) {
		return nil, fmt.Errorf("--internal-key-propagation-delay must be 0 or between %s and %s, got %s",
			contract.MinInternalKeyPropagationDelay, contract.MaxInternalKeyPropagationDelay, o.internalKeyDelay)
	}
	proxies, err := controller.ParseTrustedProxies(trustedProxies)
	if err != nil {
		return nil, fmt.Errorf("--trusted-proxies: %w", err)
	}
	o.proxies = proxies
	if o.maxConcurrentReconciles < 1 {
		return nil, fmt.Errorf("--max-concurrent-reconciles must be at least 1, got %d", o.maxConcurrentReconciles)
	}
	return o, nil
}

// managerOptions are the manager's settings from the flags: the metrics
// endpoint, the probes, leader election and the cache's scope.
func managerOptions(o *options) ctrl.Options {
	var tlsOpts []func(*tls.Config)
	if !o.enableHTTP2 {
		tlsOpts = append(tlsOpts, func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} })
	}
	metricsOpts := metricsserver.Options{
		BindAddress:   o.metricsAddr,
		SecureServing: o.secureMetrics,
		CertDir:       o.metricsCertDir,
		TLSOpts:       tlsOpts,
	}
	if o.secureMetrics {
		// Only callers allowed to GET /metrics (the metrics-reader role) may scrape.
		metricsOpts.FilterProvider = filters.WithAuthenticationAndAuthorization
	}
	return ctrl.Options{
		Scheme:                  scheme,
		Metrics:                 metricsOpts,
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "siteplane-operator.siteplane.dev",
		LeaderElectionNamespace: o.leaderElectionNamespace,
		// The process exits right after the manager stops, so releasing the
		// lease early only speeds up the hand-over to the next leader.
		LeaderElectionReleaseOnCancel: true,
		Cache:                         controller.CacheOptions(o.watchNamespace),
		Controller:                    config.Controller{MaxConcurrentReconciles: o.maxConcurrentReconciles},
	}
}

// setupControllers registers the Site controller and the Site metrics
// collector with mgr.
func setupControllers(ctx context.Context, mgr ctrl.Manager, o *options) error {
	log := ctrl.Log.WithName("setup")
	proxies := o.proxies
	if len(proxies) == 0 {
		// Read once at start: a node added later with a new pod range is
		// not trusted until a restart (documented).
		var err error
		if proxies, err = controller.PodNetwork(ctx, mgr.GetAPIReader()); err != nil {
			log.Info("no default trusted proxies: cannot read the nodes' pod CIDRs; set --trusted-proxies", "error", err.Error())
		}
	}
	log.Info("default trusted proxies", "ranges", proxies)
	r := &controller.SiteReconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Scheme:    mgr.GetScheme(),
		Recorder:  mgr.GetEventRecorder("siteplane-operator"),
		Images: resources.PodDefaults{Registry: o.imageRegistry, Tag: o.imageTag, InternalKeyPropagationDelay: o.internalKeyDelay,
			TrustedProxies: proxies},
		Clock: clock.RealClock{},
	}
	if o.probeSites {
		// Straight to the Service: an HTTP(S)_PROXY set for the operator's
		// own egress must not carry requests for cluster addresses.
		r.Probe = controller.ProbeIndex(&http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}})
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return fmt.Errorf("set up the Site controller: %w", err)
	}

	if err := ctrlmetrics.Registry.Register(sitemetrics.NewCollector(func(ctx context.Context) ([]sitev1.Site, error) {
		var list sitev1.SiteList
		err := mgr.GetClient().List(ctx, &list)
		return list.Items, err
	}, nil)); err != nil {
		return fmt.Errorf("register the Site collector: %w", err)
	}
	return nil
}

// addHealthChecks adds /healthz and /readyz to mgr.
func addHealthChecks(mgr ctrl.Manager) error {
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return fmt.Errorf("health check: %w", err)
	}
	// Ready once the informer caches hold the cluster's state, so a new
	// replica does not report ready before it could reconcile.
	if err := mgr.AddReadyzCheck("caches", func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), time.Second)
		defer cancel()
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			return errors.New("informer caches not synced")
		}
		return nil
	}); err != nil {
		return fmt.Errorf("readiness check: %w", err)
	}
	return nil
}
