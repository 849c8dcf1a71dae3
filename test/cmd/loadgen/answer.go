package main

// Reading an HTTP/1.x answer without keeping it. net/http.ReadResponse
// builds a Response with a header map of fresh strings for every answer: in
// a profile of the load generator under the 17 KB list that was 13 % of
// its CPU, for headers nobody reads. readAnswer looks at the status line
// and at the three headers that frame the message (Content-Length,
// Transfer-Encoding, Connection), skips the rest in place, and discards the
// body inside the read buffer.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

var errMalformed = errors.New("malformed answer")

// readAnswer reads one whole answer from br: its status, and whether the
// connection must be closed after it (Connection: close, HTTP/1.0 without
// keep-alive, a body that ends with the connection, a protocol switch).
// Interim 1xx answers are skipped. head says the request was a HEAD, whose
// answer has no body whatever its headers say. The framing rules are RFC
// 9112's, section 6.3.
func readAnswer(br *bufio.Reader, head bool) (status int, closeAfter bool, err error) {
	for {
		status, closeAfter, err = readFinalOrInterim(br, head)
		if err != nil || status >= 200 || status == 101 {
			return status, closeAfter, err
		}
	}
}

func readFinalOrInterim(br *bufio.Reader, head bool) (int, bool, error) {
	line, err := readLine(br)
	if err != nil {
		return 0, false, err
	}
	// HTTP/1.x SSS[ reason]
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || (line[7] != '0' && line[7] != '1') ||
		line[8] != ' ' || (len(line) > 12 && line[12] != ' ') {
		return 0, false, fmt.Errorf("%w: status line %q", errMalformed, line)
	}
	http10 := line[7] == '0'
	status := 0
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return 0, false, fmt.Errorf("%w: status line %q", errMalformed, line)
		}
		status = status*10 + int(c-'0')
	}
	if status < 100 {
		return 0, false, fmt.Errorf("%w: status %d", errMalformed, status)
	}
	length, chunked, otherCoding := int64(-1), false, false
	closeAfter, keepAlive := false, false
	for {
		line, err := readLine(br)
		if err != nil {
			return 0, false, fmt.Errorf("header: %w", unexpectedEOF(err))
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || len(name) == 0 || name[len(name)-1] == ' ' || name[0] == ' ' || name[0] == '\t' {
			return 0, false, fmt.Errorf("%w: header line %q", errMalformed, line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.ParseInt(string(value), 10, 64)
			if err != nil || n < 0 || value[0] == '+' || (length >= 0 && n != length) {
				return 0, false, fmt.Errorf("%w: Content-Length %q", errMalformed, value)
			}
			length = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			// chunked must be the last coding; any other leaves the body
			// to end with the connection
			last := value
			if i := bytes.LastIndexByte(value, ','); i >= 0 {
				last = bytes.TrimSpace(value[i+1:])
			}
			chunked = bytes.EqualFold(last, []byte("chunked"))
			otherCoding = !chunked
		case bytes.EqualFold(name, []byte("Connection")):
			for tok := range bytes.SplitSeq(value, []byte(",")) {
				tok = bytes.TrimSpace(tok)
				closeAfter = closeAfter || bytes.EqualFold(tok, []byte("close"))
				keepAlive = keepAlive || bytes.EqualFold(tok, []byte("keep-alive"))
			}
		}
	}
	closeAfter = closeAfter || (http10 && !keepAlive) || status == 101
	switch {
	case head || status < 200 || status == 204 || status == 304:
		return status, closeAfter, nil
	case chunked:
		return status, closeAfter, discardChunked(br)
	case otherCoding || length < 0:
		if _, err := br.WriteTo(io.Discard); err != nil {
			return 0, false, fmt.Errorf("body until close: %w", err)
		}
		return status, true, nil
	}
	if _, err := br.Discard(int(length)); err != nil {
		return 0, false, fmt.Errorf("body (%d bytes): %w", length, unexpectedEOF(err))
	}
	return status, closeAfter, nil
}

// discardChunked reads a chunked body and its trailer.
func discardChunked(br *bufio.Reader) error {
	for {
		line, err := readLine(br)
		if err != nil {
			return fmt.Errorf("chunk size: %w", unexpectedEOF(err))
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i] // a chunk extension
		}
		size, err := strconv.ParseUint(string(bytes.TrimRight(line, " \t")), 16, 63)
		if err != nil {
			return fmt.Errorf("%w: chunk size %q", errMalformed, line)
		}
		if size == 0 {
			break
		}
		if _, err := br.Discard(int(size)); err != nil {
			return fmt.Errorf("chunk: %w", unexpectedEOF(err))
		}
		if crlf, err := readLine(br); err != nil || len(crlf) != 0 {
			return fmt.Errorf("%w: no line end after a chunk", errMalformed)
		}
	}
	for { // the trailer, up to its blank line
		line, err := readLine(br)
		if err != nil {
			return fmt.Errorf("trailer: %w", unexpectedEOF(err))
		}
		if len(line) == 0 {
			return nil
		}
	}
}

// readLine returns the next line without its CRLF (or bare LF), valid until
// the next read from br. A line longer than br's buffer is an error; the end
// of the stream within a line is io.ErrUnexpectedEOF, before it io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%w: a line longer than %d bytes", errMalformed, br.Size())
		}
		if errors.Is(err, io.EOF) && len(line) > 0 {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

func unexpectedEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
