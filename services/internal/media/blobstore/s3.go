package blobstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// S3Config says where an S3 store keeps its objects.
type S3Config struct {
	// Endpoint is the S3 API's base URL (http or https, no path).
	Endpoint string
	// Bucket must exist.
	Bucket string
	// Region of the bucket; DefaultS3Region when empty.
	Region string
	// Prefix is a folder of the bucket ("blog" or "blog/"); empty for the
	// bucket's root.
	Prefix string
	// PathStyle puts the bucket in the URL path instead of the host name.
	PathStyle bool
	// AccessKeyID and SecretAccessKey sign every request.
	AccessKeyID     string
	SecretAccessKey string
	// PartSize is the size of the parts of a streamed upload, and the
	// buffer one such upload holds in memory; DefaultS3PartSize when zero.
	PartSize int
	// HTTPClient sends the requests; the SDK's default when nil.
	HTTPClient s3.HTTPClient
}

// Defaults of S3Config.
const (
	DefaultS3Region = "us-east-1"
	// DefaultS3PartSize: S3's parts are at least 5 MiB (except the last).
	DefaultS3PartSize = 8 << 20
	minS3PartSize     = 5 << 20
	// maxS3SinglePut is S3's limit for one PutObject.
	maxS3SinglePut = 5 << 30
	// maxS3Parts is S3's limit of parts in one multipart upload.
	maxS3Parts = 10_000
)

// S3 stores blobs as objects of an S3-compatible bucket, under the keys
// prefixed with the configured folder. Objects are written whole (PutObject,
// or a multipart upload completed only once every byte arrived), so a reader
// never sees a partial object; reads are ranged GETs, so serving a range of
// a large file never loads the whole of it.
type S3 struct {
	client   *s3.Client
	bucket   string
	prefix   string
	partSize int
	parts    sync.Pool // *[]byte of partSize
}

// NewS3 checks the settings and returns the store. It makes no request;
// Check reaches the bucket.
func NewS3(cfg S3Config) (*S3, error) {
	u, err := url.Parse(cfg.Endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		shown := "(unparsable)"
		if err == nil {
			shown = u.Redacted()
		}
		return nil, fmt.Errorf("s3 endpoint %s: want an http or https URL without path, query or user", shown)
	}
	if cfg.Bucket == "" {
		return nil, errors.New("s3 bucket is empty")
	}
	if cfg.AccessKeyID == "" || cfg.SecretAccessKey == "" {
		return nil, errors.New("s3 access key id and secret access key are both required")
	}
	prefix := strings.Trim(cfg.Prefix, "/")
	if prefix != "" {
		if err := ValidKey(prefix); err != nil {
			return nil, fmt.Errorf("s3 prefix %q: letters, digits and ._- in folders not starting with a dot", cfg.Prefix)
		}
		prefix += "/"
	}
	region := cfg.Region
	if region == "" {
		region = DefaultS3Region
	}
	part := cfg.PartSize
	if part == 0 {
		part = DefaultS3PartSize
	}
	if part < minS3PartSize {
		return nil, fmt.Errorf("s3 part size %d is below S3's minimum of %d bytes", part, minS3PartSize)
	}
	creds := aws.Credentials{AccessKeyID: cfg.AccessKeyID, SecretAccessKey: cfg.SecretAccessKey, Source: "siteplane"}
	client := s3.New(s3.Options{
		BaseEndpoint: aws.String(strings.TrimRight(cfg.Endpoint, "/")),
		Region:       region,
		UsePathStyle: cfg.PathStyle,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return creds, nil
		}),
		// Checksums only where S3 requires them: the newer default
		// (trailing checksums in aws-chunked bodies) is not understood by
		// every S3-compatible server. Bodies are signed (SHA-256) anyway.
		RequestChecksumCalculation:                aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation:                aws.ResponseChecksumValidationWhenRequired,
		DisableLogOutputChecksumValidationSkipped: true,
		HTTPClient: cfg.HTTPClient,
	})
	st := &S3{client: client, bucket: cfg.Bucket, prefix: prefix, partSize: part}
	st.parts.New = func() any { b := make([]byte, part); return &b }
	return st, nil
}

// Check verifies that the bucket exists and the credentials are accepted.
// Object requests cannot tell a missing bucket from a missing object, so
// the service checks once at start.
func (s *S3) Check(ctx context.Context) error {
	if _, err := s.client.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: aws.String(s.bucket)}); err != nil {
		if statusOf(err) == 404 {
			return fmt.Errorf("s3 bucket %q does not exist", s.bucket)
		}
		return fmt.Errorf("s3 bucket %q: %w", s.bucket, err)
	}
	return nil
}

// Close releases nothing: the HTTP client's idle connections go with the
// process.
func (s *S3) Close() error { return nil }

func (s *S3) objectKey(key string) string { return s.prefix + key }

// Put stores the object. A seekable reader of the announced size (the
// service's in-memory files) is sent as it is, in one request; anything
// else is read in parts of PartSize, one in memory at a time: one part is
// a PutObject, more are a multipart upload that is completed only when the
// byte count matches, and aborted otherwise.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	if rs, ok := r.(io.ReadSeeker); ok && size >= 0 && size <= maxS3SinglePut {
		if n, err := remaining(rs); err == nil {
			if n != size {
				return fmt.Errorf("put %s: reader holds %d bytes, want %d", key, n, size)
			}
			return s.putObject(ctx, key, rs, size, contentType)
		}
	}
	bp := s.parts.Get().(*[]byte)
	defer s.parts.Put(bp)
	buf := *bp
	n, err := io.ReadFull(ctxReader{ctx, r}, buf)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if size >= 0 && int64(n) != size {
			return fmt.Errorf("put %s: read %d bytes, want %d", key, n, size)
		}
		return s.putObject(ctx, key, bytes.NewReader(buf[:n]), int64(n), contentType)
	case err != nil:
		return fmt.Errorf("put %s: read: %w", key, err)
	}
	return s.putMultipart(ctx, key, r, buf, size, contentType)
}

// remaining is how many bytes rs yields from its current offset.
func remaining(rs io.ReadSeeker) (int64, error) {
	cur, err := rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	end, err := rs.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, err
	}
	if _, err := rs.Seek(cur, io.SeekStart); err != nil {
		return 0, err
	}
	return end - cur, nil
}

func (s *S3) putObject(ctx context.Context, key string, body io.ReadSeeker, size int64, contentType string) error {
	if _, err := s.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket:        aws.String(s.bucket),
		Key:           aws.String(s.objectKey(key)),
		Body:          body,
		ContentLength: aws.Int64(size),
		ContentType:   aws.String(contentType),
	}); err != nil {
		return fmt.Errorf("put %s: %w", key, err)
	}
	return nil
}

// putMultipart uploads buf (a full first part) and the rest of r.
func (s *S3) putMultipart(ctx context.Context, key string, r io.Reader, buf []byte, size int64, contentType string) (err error) {
	okey := s.objectKey(key)
	up, err := s.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: aws.String(s.bucket), Key: aws.String(okey), ContentType: aws.String(contentType)})
	if err != nil {
		return fmt.Errorf("put %s: start multipart upload: %w", key, err)
	}
	defer func() {
		if err == nil {
			return
		}
		// The parts stored so far are dropped even when the request that
		// failed was canceled: they would otherwise be kept (and billed)
		// until a lifecycle rule removes them.
		actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_, _ = s.client.AbortMultipartUpload(actx, &s3.AbortMultipartUploadInput{
			Bucket: aws.String(s.bucket), Key: aws.String(okey), UploadId: up.UploadId})
	}()
	var (
		parts []types.CompletedPart
		total int64
		n     = len(buf)
		last  = false
	)
	for num := int32(1); ; num++ {
		if num > maxS3Parts {
			return fmt.Errorf("put %s: more than %d parts of %d bytes", key, maxS3Parts, len(buf))
		}
		total += int64(n)
		if size >= 0 && total > size {
			return fmt.Errorf("put %s: read more than the %d bytes announced", key, size)
		}
		out, err := s.client.UploadPart(ctx, &s3.UploadPartInput{
			Bucket: aws.String(s.bucket), Key: aws.String(okey), UploadId: up.UploadId,
			PartNumber: aws.Int32(num), Body: bytes.NewReader(buf[:n]), ContentLength: aws.Int64(int64(n)),
		})
		if err != nil {
			return fmt.Errorf("put %s: upload part %d: %w", key, num, err)
		}
		parts = append(parts, types.CompletedPart{ETag: out.ETag, PartNumber: aws.Int32(num)})
		if last {
			break
		}
		n, err = io.ReadFull(ctxReader{ctx, r}, buf)
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			last = true
		} else if err != nil {
			return fmt.Errorf("put %s: read: %w", key, err)
		}
	}
	if size >= 0 && total != size {
		return fmt.Errorf("put %s: read %d bytes, want %d", key, total, size)
	}
	if _, err := s.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(s.bucket), Key: aws.String(okey), UploadId: up.UploadId,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	}); err != nil {
		return fmt.Errorf("put %s: complete multipart upload: %w", key, err)
	}
	return nil
}

// Open reads the object's size, time and ETag; the bytes are fetched by
// Read, from the current offset.
func (s *S3) Open(ctx context.Context, key string) (Object, error) {
	if err := ValidKey(key); err != nil {
		return nil, err
	}
	okey := s.objectKey(key)
	head, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(okey)})
	if statusOf(err) == 404 {
		return nil, fmt.Errorf("open %s: %w", key, ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", key, err)
	}
	o := &s3Object{ctx: ctx, store: s, key: key, okey: okey, etag: head.ETag, size: aws.ToInt64(head.ContentLength)}
	if head.LastModified != nil {
		o.mod = *head.LastModified
	}
	return o, nil
}

// Delete removes the object; S3 answers a missing key with success too.
func (s *S3) Delete(ctx context.Context, key string) error {
	if err := ValidKey(key); err != nil {
		return err
	}
	if _, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key))}); err != nil {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// statusOf is the HTTP status of a failed request, 0 when there was none
// (a network error, a canceled context).
func statusOf(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

// s3Object reads an object through ranged GETs: one response body is kept
// open while reads are sequential; a Seek elsewhere drops it and the next
// Read asks for "bytes=<offset>-". Each GET carries If-Match with the ETag
// Open saw, so a file replaced meanwhile fails instead of mixing versions.
type s3Object struct {
	ctx   context.Context
	store *S3
	key   string // the caller's key, for errors
	okey  string // the object's key in the bucket
	etag  *string
	size  int64
	mod   time.Time

	off     int64         // the reader's offset
	body    io.ReadCloser // open body, positioned at bodyOff
	bodyOff int64
}

func (o *s3Object) Size() int64        { return o.size }
func (o *s3Object) ModTime() time.Time { return o.mod }

func (o *s3Object) Read(p []byte) (int, error) {
	if o.off >= o.size {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if o.body != nil && o.bodyOff != o.off {
		o.drop()
	}
	if o.body == nil {
		out, err := o.store.client.GetObject(o.ctx, &s3.GetObjectInput{
			Bucket: aws.String(o.store.bucket), Key: aws.String(o.okey), IfMatch: o.etag,
			Range: aws.String("bytes=" + strconv.FormatInt(o.off, 10) + "-"),
		})
		if err != nil {
			return 0, fmt.Errorf("read %s at %d: %w", o.key, o.off, err)
		}
		o.body, o.bodyOff = out.Body, o.off
	}
	n, err := o.body.Read(p)
	o.off += int64(n)
	o.bodyOff += int64(n)
	if errors.Is(err, io.EOF) {
		o.drop()
		if o.off < o.size {
			return n, fmt.Errorf("read %s: %w at %d of %d bytes", o.key, io.ErrUnexpectedEOF, o.off, o.size)
		}
		return n, io.EOF
	}
	if err != nil {
		o.drop()
		return n, fmt.Errorf("read %s at %d: %w", o.key, o.off, err)
	}
	return n, nil
}

func (o *s3Object) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = o.off + offset
	case io.SeekEnd:
		abs = o.size + offset
	default:
		return 0, fmt.Errorf("seek %s: invalid whence %d", o.key, whence)
	}
	if abs < 0 {
		return 0, fmt.Errorf("seek %s: negative position %d", o.key, abs)
	}
	o.off = abs
	return abs, nil
}

func (o *s3Object) Close() error {
	o.drop()
	return nil
}

func (o *s3Object) drop() {
	if o.body != nil {
		o.body.Close()
		o.body = nil
	}
}
