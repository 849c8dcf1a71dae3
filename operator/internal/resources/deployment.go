package resources

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// Port names of every service container and Service.
const (
	PortHTTP    = "http"
	PortMetrics = "metrics"
	// PortInternal is the gateway's internal listener (/internal/ user
	// lookups), reachable from the site's own pods only.
	PortInternal = "internal"
)

// PodDefaults are the operator's settings for every Site's pods (its
// flags): the image of a component whose spec names none,
// <Registry>/<component>:<Tag>, and the internal key's propagation delay.
type PodDefaults struct {
	Registry string
	Tag      string
	// InternalKeyPropagationDelay, when set, is how long after an
	// internal-key rotation the services keep signing with the previous key
	// (contract.EnvInternalKeyPropagationDelay); zero leaves the services'
	// default (3 minutes) and the pod templates unchanged.
	InternalKeyPropagationDelay time.Duration
	// TrustedProxies are the default ranges of the proxies in front of the
	// gateways (a Site's spec.exposure.trustedProxies replaces them).
	TrustedProxies []string
}

// Image returns the component's image.
func (d PodDefaults) Image(site *sitev1.Site, component string) string {
	if img := site.Component(component).Image; img != "" {
		return img
	}
	reg, tag := d.Registry, d.Tag
	if reg == "" {
		reg = "ghcr.io/siteplane"
	}
	if tag == "" {
		tag = "latest"
	}
	return reg + "/" + component + ":" + tag
}

// KeyMount projects one key Secret into the key directory as <Dir>/.
type KeyMount struct {
	Dir        string
	SecretName string
}

// Mounted is what the pods mount, as the reconciler found or wrote it. The
// builders hash exactly the items each component mounts, so a change rolls
// the pods that see it and no others.
type Mounted struct {
	// Config is the site ConfigMap's data.
	Config map[string]string
	// Secrets holds the data of every mounted Secret by name.
	Secrets map[string]map[string][]byte
	// APIKeys are the marketplace key directory entries, current and
	// previous, in any order.
	APIKeys []KeyMount
}

// Volume names.
const (
	volConfig      = "config"
	volInternalKey = "internal-key"
	volGateway     = "gateway-secret"
	volDatabase    = "database"
	volAdmin       = "admin"
	volKeys        = "marketplace-keys"
	volMedia       = "media"
	volMediaS3     = "media-s3"
	volTmp         = "tmp"
)

// PodUID is the non-root user and group the services run as (distroless
// "nonroot").
const PodUID = 65532

// mount is one volume of a component: its source, where it is mounted and
// what it contributes to the hashes.
type mount struct {
	volume     *corev1ac.VolumeApplyConfiguration
	mountPath  string
	configKeys []string            // ConfigMap items mounted
	secretKeys map[string][]string // Secret name → items mounted
}

// mounts lists the volumes of component, in a stable order.
func mounts(site *sitev1.Site, component string, m Mounted) []mount {
	configKeys := []string{contract.SiteFileName}
	if component == contract.ServiceGateway {
		configKeys = append(configKeys, contract.RoutesFileName)
	}
	items := func(keys ...string) []*corev1ac.KeyToPathApplyConfiguration {
		out := make([]*corev1ac.KeyToPathApplyConfiguration, 0, len(keys))
		for _, k := range keys {
			out = append(out, corev1ac.KeyToPath().WithKey(k).WithPath(k))
		}
		return out
	}
	internal := InternalKeySecretName(site.Name)
	list := []mount{
		{
			volume: corev1ac.Volume().WithName(volConfig).WithConfigMap(corev1ac.ConfigMapVolumeSource().
				WithName(ConfigMapName(site.Name)).WithItems(items(configKeys...)...)),
			mountPath:  contract.ConfigMountPath,
			configKeys: configKeys,
		},
		databaseMount(site, component),
	}
	if component != contract.ServiceMarketplace {
		// The marketplace takes no identities and holds no internal key.
		// The key's files are not in the pod hash: a rotation changes their
		// contents, which the services re-read, and restarts nothing. Every
		// key of the Secret is always present (empty when unused), so the
		// volume's items never change.
		list = append(list, mount{
			volume: corev1ac.Volume().WithName(volInternalKey).WithSecret(corev1ac.SecretVolumeSource().
				WithSecretName(internal).WithItems(items(contract.InternalKeySecretKey, contract.InternalKeyPreviousSecretKey,
				contract.InternalKeyRotatedAtSecretKey)...)),
			mountPath: contract.InternalKeyMountPath,
		})
	}
	switch component {
	case contract.ServiceGateway:
		gw := GatewaySecretName(site.Name)
		list = append(list, mount{
			volume: corev1ac.Volume().WithName(volGateway).WithSecret(corev1ac.SecretVolumeSource().
				WithSecretName(gw).WithItems(items(contract.GatewaySecretKey)...)),
			mountPath:  contract.GatewaySecretMountPath,
			secretKeys: map[string][]string{gw: {contract.GatewaySecretKey}},
		})
		admin := AdminSecretName(site.Name)
		keys := []string{contract.AdminUsernameKey, contract.AdminEmailKey, contract.AdminPasswordKey, contract.AdminLoginPasswordKey}
		list = append(list, mount{
			volume: corev1ac.Volume().WithName(volAdmin).WithSecret(corev1ac.SecretVolumeSource().
				WithSecretName(admin).WithItems(items(keys...)...)),
			mountPath:  contract.AdminMountPath,
			secretKeys: map[string][]string{admin: keys},
		})
	case contract.ServiceMarketplace:
		keyMounts := append([]KeyMount(nil), m.APIKeys...)
		sort.Slice(keyMounts, func(i, j int) bool { return keyMounts[i].Dir < keyMounts[j].Dir })
		proj := corev1ac.ProjectedVolumeSource()
		for _, k := range keyMounts {
			// Optional: a key Secret deleted at the end of its grace period
			// must not keep new pods from starting.
			src := corev1ac.SecretProjection().WithName(k.SecretName).WithOptional(true)
			for _, f := range []string{contract.KeyDirAPIKeyFile, contract.KeyDirAccountFile, contract.KeyDirAccountEmailFile} {
				src.WithItems(corev1ac.KeyToPath().WithKey(f).WithPath(path.Join(k.Dir, f)))
			}
			proj.WithSources(corev1ac.VolumeProjection().WithSecret(src))
		}
		if len(keyMounts) == 0 {
			// A projected volume needs a source list; an empty one is valid
			// and gives the service an empty key directory.
			proj.Sources = []corev1ac.VolumeProjectionApplyConfiguration{}
		}
		// The key Secrets are not hashed into the pod template: the
		// marketplace re-reads its key directory every few seconds and the
		// kubelet refreshes a projected volume's files in place, so a
		// rotation or an expiry reaches running pods without restarting
		// them. Adding or removing a key changes the sources, and so rolls.
		list = append(list, mount{
			volume:    corev1ac.Volume().WithName(volKeys).WithProjected(proj),
			mountPath: contract.MarketplaceKeysMountPath,
		})
	case contract.ServiceMedia:
		list = append(list, mediaMount(site))
	}
	if tm, ok := themeMount(site, component); ok {
		list = append(list, tm)
	}
	list = append(list, mount{
		volume:    corev1ac.Volume().WithName(volTmp).WithEmptyDir(corev1ac.EmptyDirVolumeSource().WithSizeLimit(resource.MustParse(TmpSizeLimit(component)))),
		mountPath: "/tmp",
	})
	return list
}

// TmpSizeLimit is the size limit of a component's /tmp (an emptyDir on the
// node's disk). The media service spools raw upload bodies there while
// they wait for the decode budget (docs/media.md): room for 32 uploads of
// the default 32 MiB maximum at once.
func TmpSizeLimit(component string) string {
	if component == contract.ServiceMedia {
		return "1Gi"
	}
	return "64Mi"
}

// PodHashes returns the config and secret hashes of component's pod template.
func PodHashes(site *sitev1.Site, component string, m Mounted) (configHash, secretHash string) {
	cfg := map[string]map[string][]byte{}
	sec := map[string]map[string][]byte{}
	for _, mt := range mounts(site, component, m) {
		for _, k := range mt.configKeys {
			if cfg[volConfig] == nil {
				cfg[volConfig] = map[string][]byte{}
			}
			cfg[volConfig][k] = []byte(m.Config[k])
		}
		for name, keys := range mt.secretKeys {
			if sec[name] == nil {
				sec[name] = map[string][]byte{}
			}
			for _, k := range keys {
				sec[name][k] = m.Secrets[name][k]
			}
		}
	}
	return hashData(cfg), hashData(sec)
}

// Env is the container environment of component: the contract's variables
// pointing at the mounted files, then spec env (which wins on a name clash).
func Env(site *sitev1.Site, component string, d PodDefaults) []corev1.EnvVar {
	env := []corev1.EnvVar{
		{Name: contract.EnvServiceName, Value: component},
		{Name: contract.EnvListenAddr, Value: contract.DefaultListenAddr},
		{Name: contract.EnvMetricsAddr, Value: contract.DefaultMetricsAddr},
		{Name: contract.EnvShutdownDelay, Value: contract.DefaultShutdownDelay},
		{Name: contract.EnvShutdownTimeout, Value: contract.DefaultShutdown},
		{Name: contract.EnvSiteFile, Value: path.Join(contract.ConfigMountPath, contract.SiteFileName)},
		{Name: contract.EnvDatabaseURLFile, Value: path.Join(contract.DatabaseMountPath, contract.DatabaseURLSecretKey)},
	}
	if readPool(site, component) {
		env = append(env, corev1.EnvVar{Name: contract.EnvDatabaseReadURLFile, Value: path.Join(contract.DatabaseMountPath, DatabaseReadURLSecretKey)})
	}
	if component != contract.ServiceMarketplace {
		env = append(env, corev1.EnvVar{Name: contract.EnvInternalKeyFile, Value: path.Join(contract.InternalKeyMountPath, contract.InternalKeySecretKey)})
		if d.InternalKeyPropagationDelay > 0 {
			env = append(env, corev1.EnvVar{Name: contract.EnvInternalKeyPropagationDelay, Value: d.InternalKeyPropagationDelay.String()})
		}
	}
	switch component {
	case contract.ServiceGateway:
		env = append(env,
			corev1.EnvVar{Name: contract.EnvInternalListenAddr, Value: fmt.Sprintf(":%d", contract.DefaultInternalPort)},
			corev1.EnvVar{Name: contract.EnvGatewaySecretFile, Value: path.Join(contract.GatewaySecretMountPath, contract.GatewaySecretKey)},
			corev1.EnvVar{Name: contract.EnvRoutesFile, Value: path.Join(contract.ConfigMountPath, contract.RoutesFileName)},
			corev1.EnvVar{Name: contract.EnvAdminDir, Value: contract.AdminMountPath})
		if proxies := TrustedProxies(site, d); len(proxies) > 0 {
			env = append(env, corev1.EnvVar{Name: contract.EnvGatewayTrustedProxies, Value: strings.Join(proxies, ",")})
		}
	case contract.ServiceContent:
		// Content looks authors up at the gateway's internal listener.
		env = append(env, corev1.EnvVar{Name: contract.EnvGatewayURL, Value: InternalServiceURL(site.Name)})
	case contract.ServiceMarketplace:
		env = append(env, corev1.EnvVar{Name: contract.EnvMarketplaceKeysDir, Value: contract.MarketplaceKeysMountPath})
	case contract.ServiceMedia:
		env = append(env, mediaEnv(site)...)
		// Media asks content whether the caller may read or edit an
		// attachment's parent post (docs/media.md).
		env = append(env, corev1.EnvVar{Name: contract.EnvContentURL, Value: ServiceURL(site.Name, contract.ServiceContent)})
	}
	env = append(env, themeEnv(site, component)...)
	env = append(env, memoryEnv(site, component)...)
	for _, extra := range site.Component(component).Env {
		// The services refuse to start when a value and its _FILE variant
		// are both set: a plain value from the spec replaces the file.
		if file, ok := fileVariants[extra.Name]; ok {
			env = slices.DeleteFunc(env, func(e corev1.EnvVar) bool { return e.Name == file })
		}
		replaced := false
		for i := range env {
			if env[i].Name == extra.Name {
				env[i], replaced = extra, true
			}
		}
		if !replaced {
			env = append(env, extra)
		}
	}
	return env
}

// fileVariants maps the variables a service reads either directly or from
// a file to the _FILE variant the operator sets.
var fileVariants = map[string]string{
	contract.EnvDatabaseURL:            contract.EnvDatabaseURLFile,
	contract.EnvDatabaseReadURL:        contract.EnvDatabaseReadURLFile,
	contract.EnvInternalKey:            contract.EnvInternalKeyFile,
	contract.EnvGatewaySecret:          contract.EnvGatewaySecretFile,
	contract.EnvMediaS3AccessKeyID:     contract.EnvMediaS3AccessKeyIDFile,
	contract.EnvMediaS3SecretAccessKey: contract.EnvMediaS3SecretAccessKeyFile,
}

// DefaultResources are used when a component's spec sets none. Media gets
// more memory for image resizing.
func DefaultResources(component string) corev1.ResourceRequirements {
	mem, limit := "64Mi", "256Mi"
	if component == contract.ServiceMedia {
		mem, limit = "128Mi", "512Mi"
	}
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("50m"),
			corev1.ResourceMemory: resource.MustParse(mem),
		},
		Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(limit)},
	}
}

// Deployment is the Deployment of one component.
func Deployment(site *sitev1.Site, component string, defaults PodDefaults, m Mounted) *appsv1ac.DeploymentApplyConfiguration {
	spec := site.Component(component)
	configHash, secretHash := PodHashes(site, component, m)

	resources := DefaultResources(component)
	if spec.Resources != nil {
		resources = *spec.Resources
	}
	pullPolicy := spec.ImagePullPolicy
	if pullPolicy == "" {
		pullPolicy = corev1.PullIfNotPresent
	}

	ports := []*corev1ac.ContainerPortApplyConfiguration{
		corev1ac.ContainerPort().WithName(PortHTTP).WithContainerPort(contract.DefaultAPIPort).WithProtocol(corev1.ProtocolTCP),
		corev1ac.ContainerPort().WithName(PortMetrics).WithContainerPort(contract.DefaultMetricsPort).WithProtocol(corev1.ProtocolTCP),
	}
	if component == contract.ServiceGateway {
		ports = append(ports, corev1ac.ContainerPort().WithName(PortInternal).WithContainerPort(contract.DefaultInternalPort).WithProtocol(corev1.ProtocolTCP))
	}
	container := corev1ac.Container().
		WithName(component).
		WithImage(defaults.Image(site, component)).
		WithImagePullPolicy(pullPolicy).
		WithPorts(ports...).
		WithResources(Convert[corev1ac.ResourceRequirementsApplyConfiguration](resources)).
		WithSecurityContext(corev1ac.SecurityContext().
									WithAllowPrivilegeEscalation(false).
									WithReadOnlyRootFilesystem(true).
									WithRunAsNonRoot(true).
									WithCapabilities(corev1ac.Capabilities().WithDrop("ALL")).
									WithSeccompProfile(corev1ac.SeccompProfile().WithType(corev1.SeccompProfileTypeRuntimeDefault))).
		WithStartupProbe(probe(contract.HealthzPath, 2, 90)). // migrations run before the first /healthz
		WithLivenessProbe(probe(contract.HealthzPath, 10, 3)).
		WithReadinessProbe(probe(contract.ReadyzPath, 5, 3))
	for _, e := range Env(site, component, defaults) {
		container.WithEnv(Convert[corev1ac.EnvVarApplyConfiguration](e))
	}

	pod := corev1ac.PodSpec().
		WithAutomountServiceAccountToken(false).
		WithEnableServiceLinks(false).
		WithTerminationGracePeriodSeconds(TerminationGracePeriodSeconds(Env(site, component, defaults))).
		WithSecurityContext(corev1ac.PodSecurityContext().
			WithRunAsNonRoot(true).
			WithRunAsUser(PodUID).
			WithRunAsGroup(PodUID).
			WithFSGroup(PodUID).
			// Re-own the media volume only when its root is not ours yet, not
			// every file of it at each pod start (slow on large volumes).
			WithFSGroupChangePolicy(corev1.FSGroupChangeOnRootMismatch).
			WithSeccompProfile(corev1ac.SeccompProfile().WithType(corev1.SeccompProfileTypeRuntimeDefault)))
	for _, mt := range mounts(site, component, m) {
		pod.WithVolumes(mt.volume)
		container.WithVolumeMounts(corev1ac.VolumeMount().WithName(*mt.volume.Name).WithMountPath(mt.mountPath).
			WithReadOnly(*mt.volume.Name != volMedia && *mt.volume.Name != volTmp))
	}
	pod.WithContainers(container)

	dspec := appsv1ac.DeploymentSpec().
		WithSelector(metav1ac.LabelSelector().WithMatchLabels(SelectorLabels(site, component))).
		WithTemplate(corev1ac.PodTemplateSpec().
			WithLabels(Labels(site, component)).
			WithAnnotations(map[string]string{AnnotationConfigHash: configHash, AnnotationSecretHash: secretHash}).
			WithSpec(pod))
	if spec.Autoscaling == nil {
		// With autoscaling the field is left out of the apply, so server-side
		// apply gives it up and the HorizontalPodAutoscaler alone sets it.
		dspec.WithReplicas(spec.ReplicaCount())
	}
	if component == contract.ServiceMedia && MediaUsesClaim(site) && site.Spec.Media.Storage.AccessMode != corev1.ReadWriteMany {
		// A ReadWriteOnce volume may sit on another node than the new pod;
		// stop the old pod first so the rollout cannot deadlock.
		dspec.WithStrategy(appsv1ac.DeploymentStrategy().WithType(appsv1.RecreateDeploymentStrategyType))
	}
	return appsv1ac.Deployment(ComponentName(site.Name, component), site.Namespace).
		WithLabels(Labels(site, component)).
		WithAnnotations(map[string]string{AnnotationSourceHashes: SourceHashes(site, component, m)}).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(dspec)
}

func probe(p string, period, failures int32) *corev1ac.ProbeApplyConfiguration {
	return corev1ac.Probe().
		WithHTTPGet(corev1ac.HTTPGetAction().WithPath(p).WithPort(intstr.FromString(PortHTTP))).
		WithPeriodSeconds(period).
		WithFailureThreshold(failures).
		WithTimeoutSeconds(2)
}

// Service is the ClusterIP Service of one component.
func Service(site *sitev1.Site, component string) *corev1ac.ServiceApplyConfiguration {
	ports := []*corev1ac.ServicePortApplyConfiguration{
		corev1ac.ServicePort().WithName(PortHTTP).WithPort(contract.DefaultAPIPort).
			WithTargetPort(intstr.FromString(PortHTTP)).WithProtocol(corev1.ProtocolTCP),
		corev1ac.ServicePort().WithName(PortMetrics).WithPort(contract.DefaultMetricsPort).
			WithTargetPort(intstr.FromString(PortMetrics)).WithProtocol(corev1.ProtocolTCP),
	}
	if component == contract.ServiceGateway {
		ports = append(ports, corev1ac.ServicePort().WithName(PortInternal).WithPort(contract.DefaultInternalPort).
			WithTargetPort(intstr.FromString(PortInternal)).WithProtocol(corev1.ProtocolTCP))
	}
	return corev1ac.Service(ComponentName(site.Name, component), site.Namespace).
		WithLabels(Labels(site, component)).
		WithOwnerReferences(OwnerReference(site)).
		WithSpec(corev1ac.ServiceSpec().
			WithType(corev1.ServiceTypeClusterIP).
			WithSelector(SelectorLabels(site, component)).
			WithPorts(ports...))
}

// TerminationGracePeriodSeconds covers a pod's whole stop: the shutdown
// delay (still serving, already unready, while endpoints drop the pod),
// then the drain of in-flight requests, plus 5 s of margin, from the
// SITEPLANE_SHUTDOWN_DELAY and SITEPLANE_SHUTDOWN_TIMEOUT in env (spec env
// may change both). The services handle the delay themselves on SIGTERM,
// so no preStop hook (and no shell in the image) is needed.
func TerminationGracePeriodSeconds(env []corev1.EnvVar) int64 {
	delay, _ := time.ParseDuration(contract.DefaultShutdownDelay)
	drain, _ := time.ParseDuration(contract.DefaultShutdown)
	for _, e := range env {
		d, err := time.ParseDuration(e.Value)
		if err != nil || d < 0 {
			continue
		}
		switch e.Name {
		case contract.EnvShutdownDelay:
			delay = d
		case contract.EnvShutdownTimeout:
			drain = d
		}
	}
	return int64((delay + drain + 5*time.Second + time.Second - 1) / time.Second)
}
