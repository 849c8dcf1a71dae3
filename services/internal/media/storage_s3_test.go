package media

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/media/blobstore/s3test"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/pkg/contract"
)

// s3Env starts the media service on a fresh database storing its files in a
// fresh bucket of a real S3-compatible server, under the prefix "blog",
// with the credentials in files as the operator mounts them.
func s3Env(t *testing.T) (*testEnv, *s3test.Server, string) {
	t.Helper()
	srv := s3test.Start(t)
	bucket := srv.NewBucket(t)
	creds := t.TempDir()
	idFile, secretFile := filepath.Join(creds, "access-key-id"), filepath.Join(creds, "secret-access-key")
	if err := os.WriteFile(idFile, []byte(srv.AccessKeyID+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secretFile, []byte(srv.SecretAccessKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t,
		contract.EnvMediaStorage, contract.MediaStorageS3,
		contract.EnvMediaS3Endpoint, srv.Endpoint,
		contract.EnvMediaS3Bucket, bucket,
		contract.EnvMediaS3Prefix, "blog",
		contract.EnvMediaS3PathStyle, "true",
		contract.EnvMediaS3AccessKeyIDFile, idFile,
		contract.EnvMediaS3SecretAccessKeyFile, secretFile,
	)
	return e, srv, bucket
}

// TestS3Storage runs an attachment's life on S3: the original and its sizes
// become objects under the prefix (nothing on the local disk), the files are
// served with ranges, and a forced delete removes every object.
func TestS3Storage(t *testing.T) {
	e, srv, bucket := s3Env(t)
	o := e.upload(author, 800, 600)
	keys := srv.Keys(t, bucket)
	if len(keys) != 4 { // the original, thumbnail, medium and medium_large
		t.Fatalf("objects after upload: %v", keys)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "blog/") {
			t.Errorf("object %q outside the prefix", k)
		}
	}
	if f := e.files(); len(f) != 0 {
		t.Errorf("files written to the local directory with S3: %v", f)
	}
	_, rest, ok := strings.Cut(o["source_url"].(string), UploadsPath)
	if !ok {
		t.Fatalf("source_url %v is not under %s", o["source_url"], UploadsPath)
	}
	path := UploadsPath + rest
	if !slices.Contains(keys, "blog/"+rest) {
		t.Errorf("served path %s is not one of the objects %v", path, keys)
	}
	full := e.request(anon, "GET", path, nil, nil)
	wantStatus(t, full, http.StatusOK)
	if num(field(o, "media_details", "filesize")) != len(full.Raw) || full.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("served %d bytes as %q, filesize %v", len(full.Raw), full.Header.Get("Content-Type"), field(o, "media_details", "filesize"))
	}
	r := e.request(anon, "GET", path, nil, http.Header{"Range": {"bytes=100-299"}})
	if r.Status != http.StatusPartialContent || string(r.Raw) != string(full.Raw[100:300]) ||
		r.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-299/%d", len(full.Raw)) {
		t.Fatalf("range: %d %v", r.Status, r.Header)
	}
	if r := e.request(anon, "GET", path, nil, http.Header{"If-None-Match": {full.Header.Get("ETag")}}); r.Status != http.StatusNotModified {
		t.Errorf("If-None-Match: %d", r.Status)
	}
	if r := e.request(anon, "GET", UploadsPath+"2026/01/missing.jpg", nil, nil); r.Status != http.StatusNotFound {
		t.Errorf("missing file: %d", r.Status)
	}

	id := num(o["id"])
	wantStatus(t, e.json(author, "DELETE", fmt.Sprintf("/cms/v2/media/%d?force=true", id), nil), http.StatusOK)
	if keys := srv.Keys(t, bucket); len(keys) != 0 {
		t.Errorf("objects left after delete: %v", keys)
	}
}

// TestS3Outage: with the object store gone, an upload fails without
// leaving an attachment behind, and files answer 503, not 404.
func TestS3Outage(t *testing.T) {
	e, srv, _ := s3Env(t)
	o := e.upload(author, 200, 100)
	_, rest, ok := strings.Cut(o["source_url"].(string), UploadsPath)
	if !ok {
		t.Fatalf("source_url %v is not under %s", o["source_url"], UploadsPath)
	}
	path := UploadsPath + rest
	srv.Stop()

	r := e.uploadRaw(author, "", "later.jpg", "image/jpeg", testJPEG(t, 40, 30))
	if r.Status < 500 {
		t.Fatalf("upload with the store down: %d %.300s", r.Status, r.Raw)
	}
	list := e.json(admin, "GET", "/cms/v2/media?context=edit", nil)
	wantStatus(t, list, http.StatusOK)
	if n := len(list.list()); n != 1 {
		t.Errorf("%d attachments after the failed upload, want the first one only", n)
	}
	if r := e.request(anon, "GET", path, nil, nil); r.Status != http.StatusServiceUnavailable {
		t.Errorf("file with the store down: %d", r.Status)
	}
}

// TestStorageSelection covers the configuration errors of the backend
// choice; none of them shows a secret.
func TestStorageSelection(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.NewBucket(t)
	base := map[string]string{
		contract.EnvMediaStorage:           contract.MediaStorageS3,
		contract.EnvMediaS3Endpoint:        srv.Endpoint,
		contract.EnvMediaS3Bucket:          bucket,
		contract.EnvMediaS3PathStyle:       "true",
		contract.EnvMediaS3AccessKeyID:     srv.AccessKeyID,
		contract.EnvMediaS3SecretAccessKey: srv.SecretAccessKey,
	}
	tests := []struct {
		name string
		edit map[string]string // "" deletes
		want []string          // error fragments; none: success
	}{
		{"s3", nil, nil},
		{"filesystem by default", map[string]string{contract.EnvMediaStorage: "", contract.EnvMediaDir: t.TempDir()}, nil},
		{"unknown backend", map[string]string{contract.EnvMediaStorage: "nfs"},
			[]string{`SITEPLANE_MEDIA_STORAGE must be filesystem or s3, got "nfs"`}},
		{"nothing but the switch", map[string]string{contract.EnvMediaS3Endpoint: "", contract.EnvMediaS3Bucket: "",
			contract.EnvMediaS3AccessKeyID: "", contract.EnvMediaS3SecretAccessKey: ""},
			[]string{"SITEPLANE_MEDIA_S3_ENDPOINT is required", "SITEPLANE_MEDIA_S3_BUCKET is required",
				"SITEPLANE_MEDIA_S3_ACCESS_KEY_ID (or SITEPLANE_MEDIA_S3_ACCESS_KEY_ID_FILE) is required",
				"SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY (or SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY_FILE) is required"}},
		{"key and key file", map[string]string{contract.EnvMediaS3SecretAccessKeyFile: "/nonexistent"},
			[]string{"set only one of SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY and SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY_FILE"}},
		{"path style", map[string]string{contract.EnvMediaS3PathStyle: "yes"},
			[]string{`SITEPLANE_MEDIA_S3_PATH_STYLE must be true or false, got "yes"`}},
		{"bad endpoint", map[string]string{contract.EnvMediaS3Endpoint: "minio:9000"}, []string{"media S3 storage: s3 endpoint"}},
		{"missing bucket", map[string]string{contract.EnvMediaS3Bucket: "not-there"},
			[]string{`media S3 storage at ` + srv.Endpoint + `: s3 bucket "not-there" does not exist`}},
		{"wrong secret", map[string]string{contract.EnvMediaS3SecretAccessKey: "wrong-secret-value"},
			[]string{"media S3 storage at " + srv.Endpoint}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range base {
				env[k] = v
			}
			for k, v := range tt.edit {
				if v == "" {
					delete(env, k)
				} else {
					env[k] = v
				}
			}
			cfg := config.New(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
			store, closer := storeFromConfig(cfg)
			defer closer.Close()
			err := cfg.Err()
			if len(tt.want) == 0 {
				if err != nil || store == nil {
					t.Fatalf("store %v, error %v", store, err)
				}
				if _, isS3 := store.(*blobstore.S3); isS3 != (env[contract.EnvMediaStorage] == contract.MediaStorageS3) {
					t.Errorf("backend %T for %q", store, env[contract.EnvMediaStorage])
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			for _, secret := range []string{srv.SecretAccessKey, "wrong-secret-value"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error shows a secret: %v", err)
				}
			}
		})
	}
}
