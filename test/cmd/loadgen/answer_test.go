package main

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// readAnswer reads exactly one answer: what follows it (here "NEXT", the
// start of the next answer on a kept-alive connection) stays unread.
func TestReadAnswer(t *testing.T) {
	const crlf = "\r\n"
	tests := []struct {
		name    string
		in      string
		head    bool
		status  int
		close   bool
		rest    string // what is left in the reader
		wantErr error  // errors.Is target; errMalformed for a malformed answer
	}{
		{name: "Content-Length", in: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhelloNEXT", status: 200, rest: "NEXT"},
		{name: "bare LF line ends", in: "HTTP/1.1 200 OK\nContent-Length: 2\n\nokNEXT", status: 200, rest: "NEXT"},
		{name: "no reason phrase", in: "HTTP/1.1 201\r\nContent-Length: 0\r\n\r\nNEXT", status: 201, rest: "NEXT"},
		{name: "header names in any case, values trimmed", in: "HTTP/1.1 200 OK\r\ncontent-length:   3  \r\n\r\nabcNEXT", status: 200, rest: "NEXT"},
		{name: "same Content-Length twice", in: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabcNEXT", status: 200, rest: "NEXT"},
		{
			name:   "chunked, extensions, trailer",
			in:     "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a=b\r\nx\r\nA \r\n0123456789\r\n0\r\nX-Sum: 1\r\nX-More: 2\r\n\r\nNEXT",
			status: 200, rest: "NEXT",
		},
		{name: "chunked as the last of two codings", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\nContent-Length: 99\r\n\r\n2\r\nzz\r\n0\r\n\r\nNEXT", status: 200, rest: "NEXT"},
		{name: "another coding: until close", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nall of this", status: 200, close: true},
		{name: "no length: until close", in: "HTTP/1.1 200 OK\r\n\r\nall of this", status: 200, close: true},
		{name: "Connection: close", in: "HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\nContent-Length: 1\r\n\r\nx", status: 200, close: true},
		{name: "HTTP/1.0 kept alive", in: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nxNEXT", status: 200, rest: "NEXT"},
		{name: "HTTP/1.0 closes", in: "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", status: 200, close: true},
		{name: "204 has no body", in: "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\nNEXT", status: 204, rest: "NEXT"},
		{name: "304 has no body", in: "HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\nNEXT", status: 304, rest: "NEXT"},
		{name: "HEAD: no body", in: "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nNEXT", head: true, status: 200, rest: "NEXT"},
		{name: "interim answers skipped", in: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}NEXT", status: 201, rest: "NEXT"},
		{name: "a protocol switch ends the HTTP connection", in: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n", status: 101, close: true},
		{name: "nothing", in: "", wantErr: io.EOF},
		{name: "truncated head", in: "HTTP/1.1 200 OK\r\nContent-Len", wantErr: io.ErrUnexpectedEOF},
		{name: "truncated Content-Length body", in: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", wantErr: io.ErrUnexpectedEOF},
		{name: "truncated chunk", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nshort", wantErr: io.ErrUnexpectedEOF},
		{name: "no last chunk", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n", wantErr: io.ErrUnexpectedEOF},
		{name: "no trailer end", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n", wantErr: io.ErrUnexpectedEOF},
		{name: "bad chunk size", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", wantErr: errMalformed},
		{name: "chunk without its line end", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nxy\r\n0\r\n\r\n", wantErr: errMalformed},
		{name: "HTTP/2 status line", in: "HTTP/2 200 OK\r\n\r\n", wantErr: errMalformed},
		{name: "not HTTP", in: "SSH-2.0-OpenSSH_9.2\r\n", wantErr: errMalformed},
		{name: "status not a number", in: "HTTP/1.1 2x0 OK\r\n\r\n", wantErr: errMalformed},
		{name: "status below 100", in: "HTTP/1.1 099 Odd\r\n\r\n", wantErr: errMalformed},
		{name: "four-digit status", in: "HTTP/1.1 2000 OK\r\n\r\n", wantErr: errMalformed},
		{name: "header without a colon", in: "HTTP/1.1 200 OK\r\nContent-Length 5\r\n\r\nhello", wantErr: errMalformed},
		{name: "space before the colon", in: "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello", wantErr: errMalformed},
		{name: "Content-Lengths that disagree", in: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", wantErr: errMalformed},
		{name: "negative Content-Length", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", wantErr: errMalformed},
		{name: "signed Content-Length", in: "HTTP/1.1 200 OK\r\nContent-Length: +1\r\n\r\nx", wantErr: errMalformed},
		{name: "a header longer than the buffer", in: "HTTP/1.1 200 OK\r\nX-Long: " + strings.Repeat("l", 5000) + crlf + crlf, wantErr: errMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			br := bufio.NewReaderSize(strings.NewReader(tt.in), 4096)
			status, closeAfter, err := readAnswer(br, tt.head)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			rest, _ := io.ReadAll(br)
			if status != tt.status || closeAfter != tt.close || string(rest) != tt.rest {
				t.Fatalf("status %d, close %v, rest %q; want %d, %v, %q", status, closeAfter, rest, tt.status, tt.close, tt.rest)
			}
		})
	}
}
