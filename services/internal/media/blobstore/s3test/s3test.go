// Package s3test runs a real S3-compatible server for tests: versitygw with
// its posix backend (objects are plain files in a temporary directory),
// listening on 127.0.0.1 on a free port, stopped when the test ends.
//
//	func TestX(t *testing.T) {
//		srv := s3test.Start(t)          // skipped (or failed under CI) without the binary
//		bucket := srv.NewBucket(t)      // an empty bucket of its own
//		...
//	}
//
// The binary comes from SITEPLANE_TEST_VERSITYGW (hack/test.sh sets it from
// hack/versitygw.sh), or else from the cache hack/versitygw.sh fills under
// bin/. Without it the test is skipped with a hint, except under CI, where it
// fails: a CI run that silently skipped the S3 tests would prove nothing.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// EnvBinary names the versitygw binary to run.
const EnvBinary = "SITEPLANE_TEST_VERSITYGW"

// Server is a running versitygw.
type Server struct {
	// Endpoint is its base URL, http://127.0.0.1:<port>.
	Endpoint string
	// AccessKeyID and SecretAccessKey are the root account's.
	AccessKeyID     string
	SecretAccessKey string
	// Region is the region it answers for.
	Region string
	// Dir holds the buckets (one directory each) and their objects.
	Dir string

	stop     func()
	stopOnce sync.Once
}

// Stop stops the server before the test ends (to test an outage); it is
// called again, harmlessly, when the test ends.
func (srv *Server) Stop() { srv.stopOnce.Do(srv.stop) }

// Binary returns the versitygw binary, skipping or failing t without one.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", EnvBinary, p, err)
		}
		return p
	}
	if p := cached(); p != "" {
		return p
	}
	hint := fmt.Sprintf("versitygw not found: run `make test`, or export %s=$(hack/versitygw.sh)", EnvBinary)
	if os.Getenv("CI") != "" {
		t.Fatal(hint)
	}
	t.Skip(hint)
	return ""
}

// cached finds bin/versitygw-*/versitygw in the repository holding this file.
func cached() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	dir := filepath.Dir(file)
	for range 8 {
		matches, _ := filepath.Glob(filepath.Join(dir, "bin", "versitygw-*", "versitygw"))
		if len(matches) > 0 {
			return matches[len(matches)-1]
		}
		dir = filepath.Dir(dir)
	}
	return ""
}

// Start runs versitygw until t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	srv := &Server{
		AccessKeyID:     "siteplane-test-" + randomHex(4),
		SecretAccessKey: randomHex(20),
		Region:          "us-east-1",
		Dir:             t.TempDir(),
	}
	var lastErr error
	// The free port is found by binding it and letting it go, so another
	// process may take it first: try a few.
	for range 3 {
		addr, err := freeAddr()
		if err != nil {
			t.Fatal(err)
		}
		stop, err := srv.run(bin, addr)
		if err == nil {
			srv.stop = stop
			t.Cleanup(srv.Stop)
			return srv
		}
		lastErr = err
	}
	t.Fatalf("s3test: start versitygw: %v", lastErr)
	return nil
}

func (srv *Server) run(bin, addr string) (stop func(), err error) {
	cmd := exec.Command(bin, "--port", addr, "--region", srv.Region, "posix", srv.Dir)
	// The root credentials go through the environment, not the command line
	// that any local user can read.
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+srv.AccessKeyID, "ROOT_SECRET_ACCESS_KEY="+srv.SecretAccessKey)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	srv.Endpoint = "http://" + addr
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return nil, fmt.Errorf("versitygw exited: %s", strings.TrimSpace(out.String()))
		default:
		}
		// Any HTTP answer (an S3 error for an anonymous request) means it
		// is serving.
		resp, err := http.Get(srv.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return stop, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	return nil, fmt.Errorf("versitygw did not answer on %s within 20s: %s", addr, strings.TrimSpace(out.String()))
}

// Client returns an S3 client of the root account.
func (srv *Server) Client() *s3.Client {
	creds := aws.Credentials{AccessKeyID: srv.AccessKeyID, SecretAccessKey: srv.SecretAccessKey, Source: "s3test"}
	return s3.New(s3.Options{
		BaseEndpoint: aws.String(srv.Endpoint),
		Region:       srv.Region,
		UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return creds, nil
		}),
	})
}

// NewBucket creates an empty bucket with a random name.
func (srv *Server) NewBucket(t testing.TB) string {
	t.Helper()
	name := "test-" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := srv.Client().CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("s3test: create bucket: %v", err)
	}
	return name
}

// Keys lists every object key of bucket (all of them, without a prefix).
func (srv *Server) Keys(t testing.TB, bucket string) []string {
	t.Helper()
	var keys []string
	p := s3.NewListObjectsV2Paginator(srv.Client(), &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	for p.HasMorePages() {
		page, err := p.NextPage(context.Background())
		if err != nil {
			t.Fatalf("s3test: list %s: %v", bucket, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys
}

// Uploads lists the multipart uploads of bucket still in progress.
func (srv *Server) Uploads(t testing.TB, bucket string) []string {
	t.Helper()
	out, err := srv.Client().ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatalf("s3test: list uploads of %s: %v", bucket, err)
	}
	var keys []string
	for _, u := range out.Uploads {
		keys = append(keys, aws.ToString(u.Key))
	}
	return keys
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// lockedBuffer collects the server's output for error messages.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf.Len() > 64<<10 {
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
