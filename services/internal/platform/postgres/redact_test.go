package postgres

import "testing"

func TestRedactDSN(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://app:s3cr%40t@db:5432/site", "postgres://app:[redacted]@db:5432/site"},
		{"failed to connect to `host=db user=app password=hunter2 database=x`", "failed to connect to `host=db user=app password=[redacted] database=x`"},
		{"host=db password='a b c' user=x", "host=db password=[redacted] user=x"},
		{"postgres://app@db/site", "postgres://app@db/site"},
	}
	for _, tt := range tests {
		if got := RedactDSN(tt.in); got != tt.want {
			t.Errorf("RedactDSN(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
