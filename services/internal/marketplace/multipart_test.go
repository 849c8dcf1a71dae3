package marketplace

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/url"
)

func urlValues(params map[string]any) url.Values {
	q := url.Values{}
	for k, v := range params {
		q.Set(k, fmt.Sprint(v))
	}
	return q
}

// newMultipart writes q as a multipart/form-data body and returns its content type.
func newMultipart(buf *bytes.Buffer, q url.Values) string {
	mw := multipart.NewWriter(buf)
	for k, vs := range q {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	_ = mw.Close()
	return mw.FormDataContentType()
}
