//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
)

// PostgreSQL runs in the cluster from the image `E2E_IMAGES=1 make images`
// builds from Debian's postgresql-15 (no image can be pulled here).
const (
	dbNamespace   = "e2e-db"
	dbName        = "postgres"
	postgresImage = "siteplane.local/postgres:15"
)

var dbPassword string

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func startPostgres(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	k := env.kube
	if _, err := k.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: dbNamespace}},
		metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	// The superuser password lives in a Secret, so a rerun on an existing
	// cluster keeps using the one the running server was initialised with.
	sec, err := k.CoreV1().Secrets(dbNamespace).Get(ctx, "postgres", metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		sec, err = k.CoreV1().Secrets(dbNamespace).Create(ctx, &corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: "postgres"},
			StringData: map[string]string{"password": randomHex(12)},
		}, metav1.CreateOptions{})
	}
	if err != nil {
		return err
	}
	dbPassword = string(sec.Data["password"])
	if dbPassword == "" {
		dbPassword = sec.StringData["password"]
	}
	labels := map[string]string{"app": dbName}
	dep := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: dbName},
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](999), RunAsGroup: ptr.To[int64](999), FSGroup: ptr.To[int64](999)},
					Containers: []corev1.Container{{
						Name: "postgres", Image: postgresImage, ImagePullPolicy: corev1.PullIfNotPresent,
						Env: []corev1.EnvVar{{Name: "POSTGRES_PASSWORD", ValueFrom: &corev1.EnvVarSource{
							SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "postgres"}, Key: "password"}}}},
						Args:  []string{"-c", "max_connections=300", "-c", "fsync=off"},
						Ports: []corev1.ContainerPort{{Name: "postgres", ContainerPort: 5432}},
						ReadinessProbe: &corev1.Probe{
							ProbeHandler:  corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"pg_isready", "-h", "127.0.0.1"}}},
							PeriodSeconds: 1,
						},
						VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/var/lib/postgresql"}},
					}},
					Volumes: []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
				},
			},
		},
	}
	if _, err := k.AppsV1().Deployments(dbNamespace).Create(ctx, dep, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: dbName},
		Spec: corev1.ServiceSpec{Selector: labels,
			Ports: []corev1.ServicePort{{Name: "postgres", Port: 5432, TargetPort: intstr.FromString("postgres")}}},
	}
	if _, err := k.CoreV1().Services(dbNamespace).Create(ctx, svc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		d, err := k.AppsV1().Deployments(dbNamespace).Get(ctx, dbName, metav1.GetOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // a failed read while polling is retried
		}
		return d.Status.ReadyReplicas >= 1, nil
	})
}

// siteDatabase creates a database and role of its own for one Site (a Job
// running psql in the cluster, so it works wherever the cluster is) and a
// Secret in ns holding its DSN under "dsn"; it returns the Secret's name.
func siteDatabase(t *testing.T, ns, site string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	name := strings.ReplaceAll("e2e_"+ns+"_"+site, "-", "_")
	pw := randomHex(12)
	// Two -c: CREATE DATABASE cannot share a transaction with anything.
	role := fmt.Sprintf("CREATE ROLE %s LOGIN PASSWORD '%s'", name, pw)
	db := fmt.Sprintf("CREATE DATABASE %s OWNER %s", name, name)
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{GenerateName: "createdb-", Namespace: dbNamespace},
		Spec: batchv1.JobSpec{
			BackoffLimit:            ptr.To[int32](3),
			TTLSecondsAfterFinished: ptr.To[int32](60),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy:   corev1.RestartPolicyNever,
				SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](999), RunAsGroup: ptr.To[int64](999)},
				Containers: []corev1.Container{{
					Name: "psql", Image: postgresImage, ImagePullPolicy: corev1.PullIfNotPresent,
					Command: []string{"psql", "-v", "ON_ERROR_STOP=1", "-h", dbName + "." + dbNamespace + ".svc", "-U", "postgres", "-c", role, "-c", db},
					Env: []corev1.EnvVar{{Name: "PGPASSWORD", ValueFrom: &corev1.EnvVarSource{
						SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "postgres"}, Key: "password"}}}},
				}},
			}},
		},
	}
	created, err := env.kube.BatchV1().Jobs(dbNamespace).Create(ctx, job, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		j, err := env.kube.BatchV1().Jobs(dbNamespace).Get(ctx, created.Name, metav1.GetOptions{})
		if err != nil {
			return false, nil //nolint:nilerr // a failed read while polling is retried
		}
		if j.Status.Failed > 3 {
			return false, fmt.Errorf("createdb job %s failed", j.Name)
		}
		return j.Status.Succeeded > 0, nil
	})
	if err != nil {
		dumpNamespace(dbNamespace)
		t.Fatalf("create database %s: %v", name, err)
	}
	secret := site + "-db"
	dsn := fmt.Sprintf("postgres://%s:%s@%s.%s.svc:5432/%s?sslmode=disable", name, pw, dbName, dbNamespace, name)
	if _, err := env.kube.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: secret},
		StringData: map[string]string{"dsn": dsn},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return secret
}
