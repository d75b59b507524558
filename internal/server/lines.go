package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLine is LineTransport's default limit on one message, in
// bytes: the go-sdk's own default. The largest message fileinfo expects is
// a report_file_info of a file at the 2 MB extraction limit, well under it.
const DefaultMaxLine = 16 << 20

// A LineTransport serves MCP over newline-delimited JSON, as MCP's stdio
// transport specifies: one JSON-RPC message per line, no embedded
// newlines. Unlike the go-sdk's StdioTransport, which ends the session on
// the first line it cannot use, it answers such a line itself and goes on
// serving (see sortMessage): a line that is not JSON gets a parse error
// (-32700), one that is not a JSON-RPC 2.0 message an invalid request
// error (-32600), a batch an invalid request error per call in it; a
// line longer than MaxLine gets an invalid request error (id null) and is
// skipped without being held in memory; blank lines are skipped.
//
// Every call's answer carries the call's id exactly as the client sent
// it (see envelope.go): the session sees a private id instead. A call
// whose id is still in flight is refused (-32600), and a cancellation of
// no call in flight dropped. An unknown method gets -32601 from the
// go-sdk; a notification gets no answer. A transport serves one session.
type LineTransport struct {
	In  io.Reader // the client's messages, such as os.Stdin
	Out io.Writer // the server's messages, such as os.Stdout; never closed
	// MaxLine is the longest line served, in bytes, without its line
	// ending. Default DefaultMaxLine.
	MaxLine int
	// Logger receives a warning for each line refused. Default: none.
	Logger *slog.Logger
}

// Connect implements mcp.Transport. It starts a goroutine that reads In
// until In ends, the session ends, or Out fails; like the go-sdk's, it
// stays blocked in a read of In that never returns.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	limit := t.MaxLine
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	pr, pw := io.Pipe()
	out := &lockedWriter{w: t.Out}
	d := door{next: new(atomic.Int64), calls: &calls{}}
	go pump(newLineReader(t.In, limit), pw, out, d, log)
	// The go-sdk reads only lines that pump checked, so its own limit
	// is off: pump's holds. Its answers go out through a restorer, which
	// puts the clients' ids back; pump's own answers carry them already.
	return (&mcp.IOTransport{Reader: pr, Writer: &restorer{w: out, calls: d.calls}, MaxLineLength: -1}).Connect(ctx)
}

// pump passes the lines of lr that sortMessage and d let in to pw, and
// writes the answers to the others to out. It closes pw with the error
// that ended lr (io.EOF: a plain close), or the one that failed out.
func pump(lr *lineReader, pw *io.PipeWriter, out io.Writer, d door, log *slog.Logger) {
	for {
		line, size, err := lr.next()
		in, answer, why := admit(line, size, lr.max, d)
		var werr error
		if in != nil {
			_, werr = pw.Write(append(in, '\n'))
		} else if why != "" {
			log.Warn("refused a message", "why", why, "bytes", size, "start", prefix(line, 120))
		}
		if answer != nil {
			_, werr = out.Write(append(answer, '\n'))
		}
		if werr != nil { // the session ended, or its output broke
			pw.CloseWithError(werr)
			return
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil // CloseWithError(nil) is Close: the session reads io.EOF
			}
			pw.CloseWithError(err)
			return
		}
	}
}

// admit decides the fate of a line of size bytes, nil if size is over
// limit: the session gets in, or the client gets answer (or nothing, for
// a blank line). why says why the line did not go in, for logs.
func admit(line []byte, size, limit int, d door) (in, answer []byte, why string) {
	if line == nil && size > 0 {
		return nil, errorAnswer(nullID, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("Invalid Request: a message of %d bytes is over this server's limit of %d bytes; it was skipped", size, limit)), "too long"
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, nil, ""
	}
	s := sortMessage(line)
	if !s.pass {
		return nil, s.answer, s.why
	}
	e := d.enter(s)
	return e.msg, e.answer, e.why
}

// A restorer passes the session's messages on to w, one line at a time,
// with the id of each answer to a call put back as its client sent it.
type restorer struct {
	w     io.Writer
	calls *calls
	buf   []byte // the start of a line not yet ended
}

func (r *restorer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			r.buf = append(r.buf, p...)
			return n, nil
		}
		whole := p[:i+1] // with its newline
		if len(r.buf) > 0 {
			whole = append(r.buf, whole...)
			r.buf = r.buf[:0]
			if cap(r.buf) > 1<<20 {
				r.buf = nil // do not hold a long line's buffer for good
			}
		}
		line := whole[:len(whole)-1]
		if out := restoreID(line, r.calls.done); len(out) != len(line) || len(out) > 0 && &out[0] != &line[0] {
			whole = append(out[:len(out):len(out)], '\n') // a copy: p is the caller's
		}
		if _, err := r.w.Write(whole); err != nil {
			return n - len(p), err
		}
		p = p[i+1:]
	}
	return n, nil
}

// Close leaves w open.
func (r *restorer) Close() error { return nil }

// prefix returns the first n bytes of line, as a string, for logs.
func prefix(line []byte, n int) string {
	if len(line) > n {
		return string(line[:n]) + "…"
	}
	return string(line)
}

// A lineReader reads lines of at most max bytes, holding no more than
// that and its buffer whatever the input.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line []byte
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, min(limit+2, 64<<10)), max: limit}
}

// next returns the next line and its size in bytes, without its line
// ending (\n or \r\n). A line longer than max is consumed but not kept:
// next returns nil and its size. The line is valid until the next call.
// At the end of the input next returns the last line, if unterminated,
// with io.EOF; a read error is returned the same way.
func (lr *lineReader) next() (line []byte, size int, err error) {
	if cap(lr.line) > 1<<20 {
		lr.line = nil // do not hold a long line's buffer for good
	}
	lr.line = lr.line[:0]
	var prev byte // the last byte of the previous chunk
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if size+len(chunk) <= lr.max+2 { // room for \r\n
			lr.line = append(lr.line, chunk...)
		}
		size += len(chunk)
		if errors.Is(err, bufio.ErrBufferFull) {
			prev = chunk[len(chunk)-1]
			continue
		}
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			size--
			if n > 1 && chunk[n-2] == '\r' || n == 1 && prev == '\r' {
				size--
			}
		}
		if size > lr.max {
			return nil, size, err
		}
		return lr.line[:size], size, err
	}
}

// lockedWriter serializes writes, so that pump's answers and the
// session's messages are whole lines; Close leaves the writer open.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }
